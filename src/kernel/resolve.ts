import { type ContentHash, canonicalize, hashBytes } from '../core/index.js';
import { EVALUATION_BUDGET, isBudgetExhausted, StepBudget } from './budget.js';
import { describeThrown } from './issues.js';
import { type CompiledParts, type CompiledProtocol, compiledParts } from './protocol.js';
import { isTruthy } from './rules.js';
import type { Verdict, VerdictClass, VerdictDetail } from './verdict.js';

type Make = (verdictClass: VerdictClass, label: string | null, detail: VerdictDetail) => Verdict;

type Rule = (data: unknown, budget: StepBudget) => unknown;

/**
 * Runs one rule; any throw (Error or not) becomes an error message, never an exception, and running
 * out of steps is reported as such.
 */
function evaluate(
  rule: Rule,
  data: unknown,
  budget: StepBudget,
): { matched: boolean } | { error: string } | { exhausted: true } {
  try {
    const result = rule(data, budget);
    if (result instanceof Promise) return { error: 'the rule returned a promise' };
    return { matched: isTruthy(result) };
  } catch (error) {
    if (isBudgetExhausted(error) || budget.exhausted) return { exhausted: true };
    return { error: describeThrown(error) };
  }
}

/**
 * first-match: rules in order until one is truthy; exclusive: every rule, then exactly one distinct
 * label. Either way a rule that errors before the outcome is known is drift, never skipped.
 */
function resolveRules(parts: CompiledParts, data: unknown, make: Make): Verdict {
  const matched: { rule: number; label: string }[] = [];
  let first: string | undefined;
  let ambiguous = false;
  // One budget for every rule of the evaluation, so 256 rules cannot each spend a whole one.
  const budget = new StepBudget(EVALUATION_BUDGET.rules);
  for (let rule = 0; rule < parts.rules.length; rule++) {
    const outcome = evaluate(parts.rules[rule] as Rule, data, budget);
    if ('exhausted' in outcome) {
      return make('INTERPRETATION_DRIFT', null, {
        reason: 'budget-exhausted',
        budget: { phase: 'rules', limit: budget.limit, rule },
      });
    }
    if ('error' in outcome) {
      const ruleError = { rule, message: outcome.error };
      return make('INTERPRETATION_DRIFT', null, { reason: 'rule-error', ruleError });
    }
    const label = parts.ruleLabels[rule];
    if (!outcome.matched || label === undefined || !parts.labels.has(label)) continue;
    matched.push({ rule, label });
    if (first === undefined) first = label;
    else if (label !== first) ambiguous = true;
    if (parts.resolution === 'first-match') break;
  }
  if (first === undefined) return make('INTERPRETATION_DRIFT', null, { reason: 'no-match' });
  if (ambiguous) return make('INTERPRETATION_DRIFT', null, { reason: 'ambiguous', matched });
  return make('CONFORMANT', first, { reason: 'matched', matched });
}

/**
 * Resolves an artifact against a compiled protocol (TCP/AP §5). Never throws for any artifact; the
 * verdict depends only on the artifact's canonical JSON and the protocol. `detail` is private.
 * `protocol` must come from `compileProtocol` (anything else is a bug: INVALID_PROTOCOL).
 *
 * @example resolve({ amount: 20 }, compileProtocol(refund)) // { class: 'CONFORMANT', label: 'AUTO_APPROVE', … }
 */
export function resolve(artifact: unknown, protocol: CompiledProtocol): Verdict {
  const parts = compiledParts(protocol);
  const protocolHash = protocol.hash;
  let text: string;
  try {
    text = canonicalize(artifact);
  } catch {
    const detail: VerdictDetail = { reason: 'not-json' };
    return Object.freeze({
      class: 'INVALID_REQUEST',
      label: null,
      protocolHash,
      artifactHash: null,
      detail,
    });
  }
  const artifactHash: ContentHash = hashBytes(text);
  const make: Make = (verdictClass, label, detail) =>
    Object.freeze({ class: verdictClass, label, protocolHash, artifactHash, detail });
  try {
    // Evaluate a fresh parse of the canonical text, never the caller's object: no getters, no
    // `undefined` members, no -0, keys in one order, so only the canonical JSON can matter.
    const data: unknown = JSON.parse(text);
    const budget = new StepBudget(EVALUATION_BUDGET.constraints);
    const check = parts.constraints(data, budget);
    if (check.exhausted === true || budget.exhausted) {
      return make('INVALID_REQUEST', null, {
        reason: 'budget-exhausted',
        budget: { phase: 'constraints', limit: budget.limit },
      });
    }
    if (!check.valid) {
      return make('INVALID_REQUEST', null, {
        reason: 'constraints',
        constraintErrors: check.errors,
        ...(check.omittedErrors ? { omittedErrors: check.omittedErrors } : {}),
      });
    }
    return resolveRules(parts, data, make);
  } catch (error) {
    // Unreachable by design (checks and rules catch their own failures); fail closed regardless.
    const ruleError = { rule: -1, message: describeThrown(error) };
    return make('INTERPRETATION_DRIFT', null, { reason: 'rule-error', ruleError });
  }
}
