import {
  CanonryError,
  type ContentHash,
  contentHash,
  fail,
  type JsonObject,
  type JsonValue,
  LruCache,
  ok,
  type Result,
} from '../core/index.js';
import type { StepBudget } from './budget.js';
import type { ConstraintCheck } from './constraints.js';
import { describeThrown, type ProtocolIssue } from './issues.js';
import { analyzeProtocol } from './protocol-validate.js';

export type { ProtocolIssue } from './issues.js';
export { PROTOCOL_LIMITS } from './protocol-validate.js';

/** How rules combine: the first matching rule wins, or exactly one label may match. */
export type Resolution = 'first-match' | 'exclusive';

/** One rule: the label it declares when its JsonLogic condition is truthy. */
export interface ProtocolRule {
  label: string;
  condition: JsonValue;
}

/** An agentic protocol bundle (TCP/AP §4.2); its content hash is its identity. */
export interface AgenticProtocol {
  slug: string;
  version: string;
  /** JSON Schema 2020-12 the artifact must satisfy. */
  constraints: JsonObject | boolean;
  labels: string[];
  rules: ProtocolRule[];
  /** Defaults to 'first-match'. */
  resolution?: Resolution;
  description?: string;
  /** Treat JSON Schema `format` as an assertion rather than an annotation; defaults to false. */
  format_assertion?: boolean;
}

/** A validated, deeply frozen protocol with its constraints and rules compiled. */
export interface CompiledProtocol {
  readonly hash: ContentHash;
  readonly protocol: AgenticProtocol;
}

/** What resolve needs from a compiled protocol; kept off the public object. */
export interface CompiledParts {
  readonly constraints: ConstraintCheck;
  /** Each rule's condition; it charges `budget` and throws BUDGET_EXHAUSTED once it runs out. */
  readonly rules: readonly ((data: unknown, budget: StepBudget) => unknown)[];
  /** The label of each rule, by index. */
  readonly ruleLabels: readonly string[];
  readonly resolution: Resolution;
  readonly labels: ReadonlySet<string>;
}

/** Compiled protocols kept in memory, by hash. */
export const COMPILE_CACHE_SIZE = 1_000;

const parts = new WeakMap<CompiledProtocol, CompiledParts>();
const cache = new LruCache<ContentHash, CompiledProtocol>(COMPILE_CACHE_SIZE);

/** The protocol's identity: the content hash of the bundle exactly as given, which anyone can recompute. */
export function protocolHash(protocol: AgenticProtocol): ContentHash {
  return contentHash(protocol);
}

/** Validates a bundle whose every field may be hostile; never throws. */
export function validateProtocol(input: unknown): Result<AgenticProtocol, ProtocolIssue> {
  try {
    const analysis = analyzeProtocol(input);
    return analysis.protocol !== undefined ? ok(analysis.protocol) : fail(...analysis.issues);
  } catch (error) {
    return fail({
      path: '',
      message: `the bundle could not be validated: ${describeThrown(error)}`,
    });
  }
}

/**
 * Issues an INVALID_PROTOCOL error lists at most: a bundle with 100,000 unknown keys has as many, and
 * its refusal must not be five times the size of the bundle. `issues_total` counts them all.
 */
export const MAX_LISTED_ISSUES = 100;

/**
 * Validates and compiles a bundle once per hash (a bounded LRU cache). Throws INVALID_PROTOCOL with
 * its issues in `details.issues` (the first {@link MAX_LISTED_ISSUES}; `issues_total` when more).
 */
export function compileProtocol(input: unknown): CompiledProtocol {
  try {
    const cached = cache.get(contentHash(input));
    if (cached !== undefined) return cached;
  } catch {
    // not JSON: analyzeProtocol reports it
  }
  const analysis = analyzeProtocol(input);
  const { protocol, constraints, rules } = analysis;
  if (protocol === undefined || constraints === undefined || rules === undefined) {
    const issues = analysis.issues;
    const first = issues[0];
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    const where = first?.path === '' ? 'the bundle' : first?.path;
    throw new CanonryError(
      'INVALID_PROTOCOL',
      `invalid agentic protocol: ${where}: ${first?.message}${more}`,
      issues.length > MAX_LISTED_ISSUES
        ? { issues: issues.slice(0, MAX_LISTED_ISSUES), issues_total: issues.length }
        : { issues },
    );
  }
  // Hashed from the validated copy, so the hash always matches the protocol it is attached to.
  const hash = contentHash(protocol);
  const compiled: CompiledProtocol = Object.freeze({ hash, protocol });
  parts.set(compiled, {
    constraints,
    rules: Object.freeze(rules),
    ruleLabels: Object.freeze(protocol.rules.map((rule) => rule.label)),
    resolution: protocol.resolution ?? 'first-match',
    labels: new Set(protocol.labels),
  });
  cache.set(hash, compiled);
  return compiled;
}

/** The compiled internals of a protocol returned by {@link compileProtocol}; internal to the kernel. */
export function compiledParts(protocol: CompiledProtocol): CompiledParts {
  const found = parts.get(protocol);
  if (found === undefined)
    throw new CanonryError('INVALID_PROTOCOL', 'not a protocol returned by compileProtocol');
  return found;
}
