import type { Node, Scope } from './types.js';

/** Evaluates to the argument list of an eager operator. */
export type Args = (scope: Scope) => unknown[];

/** True for a JSON scalar written in the rule (it evaluates to itself). */
export function isScalar(node: unknown): node is string | number | boolean | null {
  return node === null || (typeof node !== 'object' && node !== undefined);
}

/** True for an operation (a one-key object) written in the rule. */
export function isOperation(node: unknown): node is Record<string, unknown> {
  return node !== null && typeof node === 'object' && !Array.isArray(node);
}

/**
 * The argument list of an eager operator, as json-logic-engine builds it: an array in the rule is
 * the list (each element evaluated; one step per element), an operation's value is the list when
 * it is an array and a list of one otherwise, and a scalar is a list of one.
 */
export function compileArgs(argument: unknown, compile: (node: unknown) => Node): Args {
  if (Array.isArray(argument)) {
    const items = argument.map(compile);
    const count = items.length;
    return (scope) => {
      scope.budget.spend(count);
      const values = new Array<unknown>(count);
      for (let i = 0; i < count; i++) values[i] = (items[i] as Node)(scope);
      return values;
    };
  }
  if (isOperation(argument)) {
    const node = compile(argument);
    return (scope) => {
      const value = node(scope);
      return Array.isArray(value) ? value : [value];
    };
  }
  // Operators only read their argument list, so a scalar's list of one is shared.
  const single = Object.freeze([argument]) as unknown[];
  return () => single;
}
