import {
  AIR_LIMITS,
  type AirPolicy,
  DEFAULT_AIR_POLICY,
  parseSafetyPolicy,
  resolveAirPolicy,
} from '../air/index.js';
import { CanonryError } from '../core/index.js';
import { MAX_REVISIONS, MAX_REVISIONS_CEILING } from './limits.js';
import { UNVERIFIED_POLICIES, type UnverifiedPolicy } from './session-types.js';
import { RELAY_MODES, type RelayMode } from './types.js';

/** Bounds of a session's start request. */
export const SESSION_LIMITS = {
  objectiveChars: 2_000,
  items: 256,
  itemChars: 500,
  maxRevisions: MAX_REVISIONS_CEILING,
} as const;

/** What starting a session takes, checked. */
export interface SessionInput {
  readonly mode: RelayMode;
  readonly objective: string;
  readonly remaining: string[];
  readonly success_test: string | null;
  readonly max_revisions: number;
  readonly on_unverified: UnverifiedPolicy;
  readonly air: AirPolicy;
  /**
   * The request set AIR itself (`air_mode`, `air_iap_budget`, or an air directive in its
   * CRP-Safety-Policy): its settings win over any promotion's, and the session is in no arm.
   */
  readonly air_explicit: boolean;
}

/** The JSON Schema of a start request (OpenAPI, MCP and CLI are generated from it). */
export const SESSION_INPUT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['mode', 'objective'],
  properties: {
    mode: { enum: [...RELAY_MODES], description: 'DOCUMENT, CONVERSATION, TOOL or AGENTIC (§4)' },
    objective: { type: 'string', minLength: 1, maxLength: SESSION_LIMITS.objectiveChars },
    remaining: {
      type: 'array',
      maxItems: SESSION_LIMITS.items,
      items: { type: 'string', minLength: 1, maxLength: SESSION_LIMITS.itemChars },
      description: 'sections, open questions, tool outputs or sub-tasks still to do (§4.2)',
    },
    success_test: { type: ['string', 'null'], maxLength: SESSION_LIMITS.objectiveChars },
    max_revisions: { type: 'integer', minimum: 1, maximum: SESSION_LIMITS.maxRevisions },
    on_unverified: { enum: [...UNVERIFIED_POLICIES] },
    air_mode: {
      enum: ['off', 'passive', 'adaptive', 'aggressive'],
      description:
        'CRP-018 §6.1 air-mode (default adaptive); a CRP-Safety-Policy header sets it too',
    },
    air_iap_budget: {
      type: 'integer',
      minimum: 0,
      maximum: AIR_LIMITS.maxBudget,
      description:
        "CRP-018 §6.1 air-iap-budget: the most tokens one window's IAP may take (default 512)",
    },
  },
} as const;

const bad = (message: string, field: string): never => {
  throw new CanonryError('INVALID_BODY', message, { field });
};

function text(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string' || value.trim().length === 0)
    bad(`${field} must be a non-empty string`, field);
  const s = (value as string).trim();
  if (s.length > max) bad(`${field} is over ${max} characters`, field);
  if (!s.isWellFormed()) bad(`${field} holds a lone surrogate`, field);
  return s;
}

/** Checks a start request (from any face). */
export function sessionInput(value: unknown, policyHeader?: string | null): SessionInput {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    bad('expected an object', '');
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) {
    if (!Object.hasOwn(SESSION_INPUT_SCHEMA.properties, key)) bad(`unknown field ${key}`, key);
  }
  if (!RELAY_MODES.includes(v.mode as RelayMode))
    bad(`mode must be one of ${RELAY_MODES.join(', ')}`, 'mode');
  const remainingRaw = v.remaining ?? [];
  if (!Array.isArray(remainingRaw)) bad('remaining must be an array of strings', 'remaining');
  const list = remainingRaw as unknown[];
  if (list.length > SESSION_LIMITS.items)
    bad(`remaining has over ${SESSION_LIMITS.items} items`, 'remaining');
  const remaining = list.map((item, i) => text(item, `remaining/${i}`, SESSION_LIMITS.itemChars));
  if (new Set(remaining).size !== remaining.length)
    bad('remaining lists an item twice', 'remaining');
  const maxRevisions = v.max_revisions ?? MAX_REVISIONS;
  if (
    !Number.isSafeInteger(maxRevisions) ||
    (maxRevisions as number) < 1 ||
    (maxRevisions as number) > SESSION_LIMITS.maxRevisions
  )
    bad(
      `max_revisions must be an integer from 1 to ${SESSION_LIMITS.maxRevisions}`,
      'max_revisions',
    );
  const policy = v.on_unverified ?? 'regenerate';
  if (!UNVERIFIED_POLICIES.includes(policy as UnverifiedPolicy))
    bad(`on_unverified must be ${UNVERIFIED_POLICIES.join(' or ')}`, 'on_unverified');
  return {
    mode: v.mode as RelayMode,
    objective: text(v.objective, 'objective', SESSION_LIMITS.objectiveChars),
    remaining,
    success_test:
      v.success_test === undefined || v.success_test === null
        ? null
        : text(v.success_test, 'success_test', SESSION_LIMITS.objectiveChars),
    max_revisions: maxRevisions as number,
    on_unverified: policy as UnverifiedPolicy,
    air_explicit:
      v.air_mode !== undefined ||
      v.air_iap_budget !== undefined ||
      airInHeader(policyHeader ?? null),
    air: resolveAirPolicy(
      {
        options: {
          ...(v.air_mode !== undefined ? { mode: v.air_mode as never } : {}),
          ...(v.air_iap_budget !== undefined ? { iap_budget: v.air_iap_budget as never } : {}),
        },
        header: policyHeader ?? null,
      },
      DEFAULT_AIR_POLICY,
    ),
  };
}

/** Whether a CRP-Safety-Policy header names an AIR directive (it is checked when resolved). */
function airInHeader(header: string | null): boolean {
  if (header === null) return false;
  const policy = parseSafetyPolicy(header);
  return policy.air_mode !== undefined || policy.air_iap_budget !== undefined;
}
