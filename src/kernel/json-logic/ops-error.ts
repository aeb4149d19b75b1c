import { BUDGET_EXHAUSTED, type StepBudget } from '../budget.js';
import { scalarText, toText } from './coerce.js';
import { STEP_COSTS } from './cost.js';
import { INVALID_ARGUMENTS } from './errors.js';
import { ErrorContext, type Node, type OperatorCompiler, Scope } from './types.js';

/** A deep-frozen private copy of a literal, so nothing can change what `preserve` returns. */
function frozenCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const copy: unknown = Array.isArray(value)
    ? value.map(frozenCopy)
    : Object.fromEntries(Object.entries(value).map(([key, item]) => [key, frozenCopy(item)]));
  return Object.freeze(copy);
}

/** `preserve`: its argument as data, not evaluated. */
const preserve: OperatorCompiler = (argument) => {
  const value = frozenCopy(argument);
  return (scope) => {
    scope.budget.spend(1);
    return value;
  };
};

/**
 * `throw`: raises an object as it is, anything else as `{ type: value }`; given an array, its first
 * element. It can never raise the budget's sentinel, which only the budget itself throws.
 */
const compileThrow: OperatorCompiler = (argument, compile) => {
  // A list of one non-array element stands for the element (json-logic-engine's unary form).
  const single = Array.isArray(argument) && argument.length === 1 && !Array.isArray(argument[0]);
  const value = compile(single ? (argument as unknown[])[0] : argument);
  return (scope) => {
    scope.budget.spend(1);
    let raised = value(scope);
    if (Array.isArray(raised)) raised = raised[0];
    if (raised === BUDGET_EXHAUSTED) throw { type: BUDGET_EXHAUSTED.type };
    throw typeof raised === 'object' ? raised : { type: raised };
  };
};

/** The `type` a `try` fallback sees: `type`, else `message`, else the text of the thrown value. */
function errorType(thrown: unknown, budget: StepBudget): unknown {
  // JavaScript cannot read a member of null: the error escapes the `try`.
  if (thrown === null || thrown === undefined) throw INVALID_ARGUMENTS;
  if (typeof thrown !== 'object') return scalarText(thrown, budget);
  const record = thrown as Record<string, unknown>;
  const own = (key: string) => (Object.hasOwn(record, key) ? record[key] : undefined);
  return own('type') || own('message') || toText(thrown, budget);
}

/**
 * `try`: the first argument that does not throw. After a failure the next argument runs with the
 * error `{ type }` as its data (its scope's parent is the scope of the `try`). It never catches
 * the budget running out, nor a JavaScript Error (a bug, never a rule's doing).
 */
const compileTry: OperatorCompiler = (argument, compile) => {
  const items = Array.isArray(argument) ? argument : [argument];
  // A constant failure in one argument fails that argument only, as json-logic-engine compiles it.
  const attempts: Node[] = items.map((item) => {
    try {
      return compile(item);
    } catch (failure) {
      if (failure instanceof Error) throw failure;
      return (scope: Scope) => {
        scope.budget.spend(1);
        throw failure;
      };
    }
  });
  const last = attempts.length - 1;
  return (scope) => {
    const budget = scope.budget;
    budget.spend(1);
    let current = scope;
    for (let i = 0; i <= last; i++) {
      budget.spend(1);
      try {
        return (attempts[i] as Node)(current);
      } catch (thrown) {
        if (thrown === BUDGET_EXHAUSTED || budget.exhausted || thrown instanceof Error)
          throw thrown;
        if (i === last && i > 0) throw thrown;
        budget.spend(STEP_COSTS.caught);
        const context = new ErrorContext(errorType(thrown, budget));
        if (i === last) throw thrown;
        current = new Scope(context, scope, budget, null);
      }
    }
    throw INVALID_ARGUMENTS;
  };
};

/** `preserve throw try`. */
export const ERROR_OPERATORS: Record<string, OperatorCompiler> = {
  preserve,
  throw: compileThrow,
  try: compileTry,
};
