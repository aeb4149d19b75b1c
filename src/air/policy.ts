import { CanonryError } from '../core/index.js';
import { AIR_LIMITS, DEFAULT_AIR_POLICY } from './thresholds.js';
import { AIR_MODES, type AirMode, type AirPolicy } from './types.js';

/** A parsed `CRP-Safety-Policy` header: the AIR directives checked, every directive kept. */
export interface SafetyPolicy {
  readonly air_mode?: AirMode;
  readonly air_iap_budget?: number;
  /** Every directive by (lower-cased) name: its value, or null for a bare directive. */
  readonly directives: Readonly<Record<string, string | null>>;
}

const NAME = /^[a-z][a-z0-9-]{0,63}$/;
/** Visible ASCII except the separators and quotes. */
const VALUE = /^[\x21\x23-\x3a\x3c\x3e-\x7e]{1,256}$/;
const BUDGET = /^(0|[1-9][0-9]{0,5})$/;

function invalid(directive: string, reason: string): never {
  throw new CanonryError('INVALID_POLICY', `CRP-Safety-Policy: ${directive}: ${reason}`, {
    directive,
    reason,
  });
}

/** `air-mode`: one of {@link AIR_MODES}. */
export function parseAirMode(value: string | null, directive = 'air-mode'): AirMode {
  if (value === null) invalid(directive, `needs a value (${AIR_MODES.join(', ')})`);
  const mode = value.toLowerCase();
  if (!(AIR_MODES as readonly string[]).includes(mode)) {
    invalid(directive, `must be one of ${AIR_MODES.join(', ')}`);
  }
  return mode as AirMode;
}

/** `air-iap-budget`: a decimal integer of tokens, 0 … {@link AIR_LIMITS.maxBudget}. */
export function parseAirBudget(
  value: string | number | null,
  directive = 'air-iap-budget',
): number {
  const text = typeof value === 'number' ? String(value) : value;
  if (text === null) invalid(directive, 'needs a value (a number of tokens)');
  if (!BUDGET.test(text) || Number(text) > AIR_LIMITS.maxBudget) {
    invalid(directive, `must be an integer of tokens from 0 to ${AIR_LIMITS.maxBudget}`);
  }
  return Number(text);
}

/**
 * Parses `CRP-Safety-Policy` (CRP-006's grammar as CRP-018 §6.1 uses it): directives separated by
 * `;`, each `name=value` or a bare `name`; names are case-insensitive; whitespace around parts and
 * empty parts (a trailing `;`) are ignored. Any directive is kept; `air-*` ones are checked strictly
 * (an unknown `air-*` directive, a missing or bad value is refused). A repeated directive, a
 * malformed name or value, more than 64 directives or 4,096 characters → INVALID_POLICY (400),
 * `details.directive` naming it.
 */
export function parseSafetyPolicy(header: string): SafetyPolicy {
  if (typeof header !== 'string') invalid('CRP-Safety-Policy', 'is not text');
  if (header.length > AIR_LIMITS.policyChars) {
    invalid('CRP-Safety-Policy', `is longer than ${AIR_LIMITS.policyChars} characters`);
  }
  const directives: Record<string, string | null> = {};
  let air_mode: AirMode | undefined;
  let air_iap_budget: number | undefined;
  let count = 0;
  for (const part of header.split(';')) {
    const item = part.trim();
    if (item.length === 0) continue;
    if (++count > AIR_LIMITS.policyDirectives) {
      invalid('CRP-Safety-Policy', `has more than ${AIR_LIMITS.policyDirectives} directives`);
    }
    const eq = item.indexOf('=');
    const rawName = (eq === -1 ? item : item.slice(0, eq)).trim();
    const name = rawName.toLowerCase();
    const value = eq === -1 ? null : item.slice(eq + 1).trim();
    const shown = rawName.slice(0, 64);
    if (!NAME.test(name)) invalid(shown, 'is not a directive name (a-z 0-9 -)');
    if (Object.hasOwn(directives, name)) invalid(name, 'is given twice');
    if (value !== null && !VALUE.test(value)) invalid(name, 'has a malformed value');
    directives[name] = value;
    if (name === 'air-mode') air_mode = parseAirMode(value, name);
    else if (name === 'air-iap-budget') air_iap_budget = parseAirBudget(value, name);
    else if (name.startsWith('air-'))
      invalid(name, 'is not an AIR directive (air-mode, air-iap-budget)');
  }
  return {
    ...(air_mode === undefined ? {} : { air_mode }),
    ...(air_iap_budget === undefined ? {} : { air_iap_budget }),
    directives,
  };
}

/** Library and CLI options (`--air-mode`, `--air-iap-budget`), checked like the header. */
export interface AirOptions {
  readonly mode?: string;
  readonly iap_budget?: number | string;
}

/**
 * The policy a window runs with: `base` (the defaults), then the library or CLI options, then the
 * request's `CRP-Safety-Policy` header, each later one overriding what it names.
 */
export function resolveAirPolicy(
  input: { readonly options?: AirOptions; readonly header?: string | null } = {},
  base: AirPolicy = DEFAULT_AIR_POLICY,
): AirPolicy {
  let mode = base.mode;
  let iap_budget = base.iap_budget;
  const o = input.options;
  if (o?.mode !== undefined) mode = parseAirMode(o.mode, 'air-mode');
  if (o?.iap_budget !== undefined) iap_budget = parseAirBudget(o.iap_budget, 'air-iap-budget');
  if (input.header !== undefined && input.header !== null) {
    const policy = parseSafetyPolicy(input.header);
    mode = policy.air_mode ?? mode;
    iap_budget = policy.air_iap_budget ?? iap_budget;
  }
  return { mode, iap_budget };
}
