import { CanonryError, type JsonValue } from '../core/index.js';
import { EVALUATION_BUDGET, StepBudget } from './budget.js';
import { compileLogic } from './json-logic/index.js';
import { ruleIssues } from './rule-check.js';

export { isTruthy } from './json-logic/index.js';
export { ALLOWED_OPERATORS, EXCLUDED_OPERATORS, RULE_LIMITS, ruleIssues } from './rule-check.js';

/** A compiled rule: its value for `data`, charging `budget` (a fresh full rules budget if omitted). */
export type CompiledRule = (data: unknown, budget?: StepBudget) => unknown;

/** A private deep copy, so later changes by the caller cannot reach the compiled rule. */
function copyOf(condition: JsonValue): unknown {
  return JSON.parse(JSON.stringify(condition));
}

/**
 * Compiles a JsonLogic condition with canonry's evaluator (`json-logic/`). Throws INVALID_PROTOCOL
 * when the condition is outside the operator set or the bounds. Every evaluation charges `budget`
 * and throws BUDGET_EXHAUSTED once it is spent. A condition whose constant part already fails
 * while compiling (e.g. `{"/":[1,0]}`) compiles to a function that throws that failure when called.
 *
 * @example compileRule({ '<=': [{ var: 'amount' }, 50] })({ amount: 20 }) // true
 */
export function compileRule(condition: JsonValue): CompiledRule {
  const issues = ruleIssues(condition);
  if (issues.length > 0) {
    throw new CanonryError('INVALID_PROTOCOL', `invalid rule: ${issues[0]?.message}`, { issues });
  }
  const evaluate = compileLogic(copyOf(condition));
  return (data, budget = new StepBudget(EVALUATION_BUDGET.rules)) => evaluate(data, budget);
}
