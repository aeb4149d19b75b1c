import { splitPath } from 'json-logic-engine';

/**
 * The data-access operators (`var`, `val`, `exists`, `missing`, `missing_some`), reimplemented so
 * that a path only ever follows OWN properties of objects, arrays and strings. The engine's versions
 * index with `data[key]`, which reaches `__proto__`, `constructor.name` and other prototype members.
 */

/** What the engine throws for bad arguments; `try` reads its `type`. */
export const INVALID_ARGUMENTS = Object.freeze({ type: 'Invalid Arguments' });

/** A `val` scope climb further than this can never land on a scope (rules nest at most 32 deep). */
const MAX_SCOPE_CLIMB = 64;

const ABSENT = Symbol('absent');

/** The own member `key` of `container`, or ABSENT. */
function member(container: unknown, key: unknown): unknown {
  if (typeof key !== 'string' && typeof key !== 'number') return ABSENT;
  if (container === null || (typeof container !== 'object' && typeof container !== 'string')) {
    return ABSENT;
  }
  const name = String(key);
  // Object.hasOwn boxes strings, whose own members are their indices and `length`.
  return Object.hasOwn(container as object, name)
    ? (container as Record<string, unknown>)[name]
    : ABSENT;
}

/** Follows a dotted `var` path; ABSENT when any step is missing. */
function followPath(context: unknown, path: string | number): unknown {
  let current = context;
  for (const step of splitPath(String(path))) {
    if (current === null || current === undefined) return ABSENT;
    current = member(current, step);
    if (current === ABSENT) return ABSENT;
  }
  return current;
}

function varOp(args: unknown, context: unknown): unknown {
  const [key, fallback] = Array.isArray(args) ? args : [args];
  if (key === undefined || key === null || key === '') return context;
  const notFound = fallback === undefined ? null : fallback;
  if (typeof key !== 'string' && typeof key !== 'number') return notFound;
  const found = followPath(context, key);
  return found === ABSENT ? notFound : found;
}

/** Resolves `val` arguments: keys one per step, optionally after a `[n]` scope climb. */
function lookup(args: unknown, context: unknown, above: unknown): unknown {
  let keys = args;
  if (Array.isArray(keys) && keys.length === 1 && !Array.isArray(keys[0])) keys = keys[0];
  if (keys === null) return context;
  if (!Array.isArray(keys)) return member(context, keys);
  let result = context;
  let start = 0;
  const climb = keys[0];
  if (Array.isArray(climb) && climb.length === 1) {
    start = 1;
    const levels = Math.abs(Number(climb[0]));
    if (levels > MAX_SCOPE_CLIMB) return ABSENT;
    // `above` is the engine's scope chain; its last entry may itself be a chain to continue in.
    let scopes: unknown = above;
    let position = 0;
    for (let i = 0; i < levels; i++) {
      if (!Array.isArray(scopes)) return ABSENT;
      result = scopes[position++];
      if (i === scopes.length - 1 && Array.isArray(result)) {
        scopes = result;
        result = result[0];
        position = 1;
      }
    }
  }
  for (let i = start; i < keys.length; i++) {
    if (keys[i] === null) continue;
    if (result === null || result === undefined || result === ABSENT) return ABSENT;
    result = member(result, keys[i]);
  }
  return result === undefined ? ABSENT : result;
}

function missingOp(args: unknown, context: unknown): unknown[] {
  const keys = Array.isArray(args) ? args : [args];
  const missing: unknown[] = [];
  for (const key of keys) {
    if (typeof key !== 'string' && typeof key !== 'number') {
      missing.push(key);
      continue;
    }
    let current: unknown = context;
    let found = true;
    for (const step of splitPath(String(key))) {
      current = current ? member(current, step) : ABSENT;
      if (current === ABSENT || current === undefined) {
        found = false;
        break;
      }
    }
    if (!found) missing.push(key);
  }
  return missing;
}

function missingSomeOp(args: unknown, context: unknown): unknown[] {
  const [needed, keys] = Array.isArray(args) ? args : [];
  if (!Array.isArray(keys)) throw INVALID_ARGUMENTS;
  const missing = missingOp(keys, context);
  return keys.length - missing.length >= Number(needed) ? [] : missing;
}

/** The own-property data operators, in the engine's method-object form (always called, never inlined). */
export const dataOperators = {
  var: { method: (args: unknown, context: unknown) => varOp(args, context) },
  val: {
    method: (args: unknown, context: unknown, above: unknown) => {
      const found = lookup(args, context, above);
      return found === ABSENT ? null : found;
    },
  },
  exists: {
    method: (args: unknown, context: unknown, above: unknown) =>
      lookup(args, context, above) !== ABSENT,
  },
  missing: { method: (args: unknown, context: unknown) => missingOp(args, context) },
  missing_some: { method: (args: unknown, context: unknown) => missingSomeOp(args, context) },
};
