/**
 * canonry's JsonLogic evaluator for the closed operator set: a condition is compiled once into a
 * tree of closures; every evaluation charges a deterministic {@link StepBudget} (see `cost.ts`).
 */
import { compileCondition, type Evaluator } from './compile.js';
import { OPERATORS } from './operators.js';

export { isTruthy } from './coerce.js';
export type { Evaluator } from './compile.js';
export { CHARS_PER_STEP, STEP_COSTS } from './cost.js';
export { EXCEEDED_DEPTH, INVALID_ARGUMENTS, NOT_A_NUMBER } from './errors.js';
export { BUILD_LIMITS } from './ops-text.js';
export { splitPath } from './path.js';

/** The operators this evaluator implements (the kernel's `ALLOWED_OPERATORS`). */
export const EVALUATOR_OPERATORS: readonly string[] = Object.freeze(Object.keys(OPERATORS));

/**
 * Compiles a condition whose shape is already checked (one-key operations from
 * {@link EVALUATOR_OPERATORS}; `ruleIssues` in the kernel does it). The result evaluates against
 * `data`, charging `budget`, and throws the rule's error (`INVALID_ARGUMENTS`, `NOT_A_NUMBER`, a
 * thrown value …) or `BUDGET_EXHAUSTED`. A constant failure makes an evaluator that always throws.
 */
export function compileLogic(condition: unknown): Evaluator {
  return compileCondition(condition);
}
