import { type ProtocolIssue, pointer } from './issues.js';
import { BUILD_LIMITS } from './json-logic/index.js';

/** The closed operator set: JsonLogic core (jsonlogic.com tests.json) plus the community operators. */
export const ALLOWED_OPERATORS: readonly string[] = Object.freeze([
  ...['==', '===', '!=', '!==', '>', '>=', '<', '<=', '!', '!!', 'and', 'or', 'if', '?:'],
  ...['+', '-', '*', '/', '%', 'min', 'max', 'cat', 'substr', 'in', 'merge'],
  ...['var', 'missing', 'missing_some', 'map', 'filter', 'reduce', 'all', 'none', 'some'],
  ...['val', '??', 'exists', 'throw', 'try', 'preserve'],
]);

/** Operators refused on purpose: other engines' extras, and I/O or host access found elsewhere. */
export const EXCLUDED_OPERATORS: readonly string[] = Object.freeze([
  ...['get', 'keys', 'pipe', 'eachKey', 'every', 'not', 'length'],
  ...['method', 'log'],
]);

/** Bounds on one rule: its shape (checked at registration) and what it may build (at evaluation). */
export const RULE_LIMITS = Object.freeze({
  /** Nested objects and arrays along any path of the condition. */
  maxDepth: 32,
  /** JSON values (containers and scalars) in the condition. */
  maxNodes: 2_000,
  /** Longest string `cat` may produce. */
  maxStringLength: BUILD_LIMITS.maxStringLength,
  /** Longest array `merge` may produce. */
  maxArrayLength: BUILD_LIMITS.maxArrayLength,
});

const ALLOWED = new Set(ALLOWED_OPERATORS);
const EXCLUDED = new Set(EXCLUDED_OPERATORS);

/**
 * Checks a JsonLogic condition against the closed operator set and the bounds, collecting every
 * issue; pointers start at `base`. An object is an operation and must have exactly one key, except
 * inside `preserve`, whose argument is returned unevaluated and so is plain data.
 */
export function ruleIssues(condition: unknown, base = ''): ProtocolIssue[] {
  const issues: ProtocolIssue[] = [];
  let nodes = 0;
  let stopped = false;
  const visit = (node: unknown, path: string, depth: number, literal: boolean): void => {
    if (stopped) return;
    if (++nodes > RULE_LIMITS.maxNodes) {
      issues.push({ path, message: `the condition has more than ${RULE_LIMITS.maxNodes} nodes` });
      stopped = true;
      return;
    }
    if (node === null || typeof node !== 'object') return;
    if (depth > RULE_LIMITS.maxDepth) {
      issues.push({
        path,
        message: `the condition nests deeper than ${RULE_LIMITS.maxDepth} levels`,
      });
      stopped = true;
      return;
    }
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) visit(node[i], pointer(path, i), depth + 1, literal);
      return;
    }
    const entries = Object.entries(node);
    if (literal) {
      for (const [key, value] of entries) visit(value, pointer(path, key), depth + 1, true);
      return;
    }
    const [first, ...others] = entries;
    if (first === undefined || others.length > 0) {
      const found =
        entries.length === 0 ? 'none' : entries.map(([k]) => JSON.stringify(k)).join(', ');
      issues.push({
        path,
        message: `an operation must have exactly one key (the operator), found ${found}`,
      });
      return;
    }
    const [operator, args] = first;
    if (!ALLOWED.has(operator)) {
      const why = EXCLUDED.has(operator)
        ? 'is excluded from the closed operator set'
        : 'is not a known operator';
      issues.push({ path, message: `operator ${JSON.stringify(operator)} ${why}` });
    }
    visit(args, pointer(path, operator), depth + 1, operator === 'preserve');
  };
  visit(condition, base, 1, false);
  return issues;
}
