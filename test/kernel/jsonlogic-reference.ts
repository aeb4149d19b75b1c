/**
 * The reference for the differential test: json-logic-engine 5 configured as canonry's kernel used
 * it before it had its own evaluator (closed operator table, own-property data operators,
 * all/some/none over arrays only, bounded cat and merge), with canonry's documented departures
 * applied ({@link CANONRY_FIXES}). Test-only.
 */
import { Constants, defaultMethods, LogicEngine, splitPath } from 'json-logic-engine';

const Compiled = Symbol.for('json_logic_compiled');

import { ALLOWED_OPERATORS, RULE_LIMITS } from '../../src/kernel/rules.js';

const INVALID_ARGUMENTS = Object.freeze({ type: 'Invalid Arguments' });
const ARRAY_ONLY = 'canonry:array';
const MAX_SCOPE_CLIMB = 64;
const ABSENT = Symbol('absent');

type Method = (args: unknown, context: unknown, above: unknown, engine: unknown) => unknown;
type Compile = (data: unknown, state: unknown) => unknown;
type MethodObject = Record<string | symbol, unknown> & { method: Method; compile: Compile };

function member(container: unknown, key: unknown): unknown {
  if (typeof key !== 'string' && typeof key !== 'number') return ABSENT;
  if (container === null || (typeof container !== 'object' && typeof container !== 'string')) {
    return ABSENT;
  }
  const name = String(key);
  return Object.hasOwn(container as object, name)
    ? (container as Record<string, unknown>)[name]
    : ABSENT;
}

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

const dataOperators = {
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
  missing_some: {
    method: (args: unknown, context: unknown) => {
      const [needed, keys] = Array.isArray(args) ? args : [];
      if (!Array.isArray(keys)) throw INVALID_ARGUMENTS;
      const missing = missingOp(keys, context);
      return keys.length - missing.length >= Number(needed) ? [] : missing;
    },
  },
};

function arrayOnlyOperand(name: string): MethodObject {
  const original = defaultMethods[name as keyof typeof defaultMethods] as unknown as MethodObject;
  const guard = (input: unknown) =>
    Array.isArray(input) && input.length > 0
      ? [{ [ARRAY_ONLY]: [input[0]] }, ...input.slice(1)]
      : input;
  return {
    ...original,
    method: (input, context, above, engine) =>
      original.method(guard(input), context, above, engine),
    compile: (data, state) => original.compile(guard(data), state),
  };
}

function boundedLength<T extends { length: number }>(value: T, limit: number): T {
  if (value.length > limit) throw INVALID_ARGUMENTS;
  return value;
}

const RELATIONS: Record<string, string> = {
  '==': '==',
  '===': '===',
  '!=': '!=',
  '!==': '!==',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

/** Wraps an operator's compile (and method, used when the engine folds constants) with a check. */
function guarded(
  name: string,
  check: (args: unknown) => void,
  base = defaultMethods[name as keyof typeof defaultMethods] as unknown as MethodObject,
): MethodObject {
  return {
    ...base,
    method: (args, context, above, engine) => {
      check(args);
      return base.method(args, context, above, engine);
    },
    compile: (data, state) => {
      check(data);
      return base.compile(data, state);
    },
  };
}

const requireArrayAndMapper = (args: unknown) => {
  if (!Array.isArray(args)) return;
  if (args[0] === undefined || args[0] === null || args[1] === undefined || args[1] === null) {
    throw INVALID_ARGUMENTS;
  }
};

/**
 * Where canonry departs from json-logic-engine on purpose (kernel README, "Rules"), as patches of
 * the reference, so that the differential test checks everything else:
 * - `and`/`or` with no arguments are false (the community suite), not null;
 * - `substr` reads a number or boolean as its text (the community suite), not an error;
 * - `map`/`filter`/`reduce` with a missing or literal-null array or mapper are errors (the suite);
 * - `all`/`some`/`none` with no arguments are errors, like a missing array;
 * - comparisons check each operand against its real left neighbour: the engine's compiled code
 *   keeps the left operand in one variable (`prev`) shared by the whole rule, which a nested
 *   operation in the right operand overwrites (`{"==": [["r"], {"!==": [1, 2]}]}` was false, not
 *   NaN);
 * - a `reduce` accumulator is checked for nesting unless it is an object of the artifact (or a
 *   `preserve` literal): canonry does not enumerate objects it did not build (see the kernel
 *   README);
 * - and the engine's code generation is parenthesised: `and`, `or`, `all` and `/` compile to
 *   bare `?:` / `&&` chains, so `{"map": [{"and": …}, …]}` read `(a ? b : c || [])` and `??`
 *   beside `all` or `/` was a SyntaxError.
 */
function canonryFixes(methods: Record<string, unknown>): void {
  for (const name of ['and', 'or']) {
    const base = methods[name] as MethodObject;
    methods[name] = {
      ...base,
      method: (args: unknown, context: unknown, above: unknown, engine: unknown) =>
        Array.isArray(args) && args.length === 0
          ? false
          : base.method(args, context, above, engine),
      compile: (data: unknown, state: unknown) =>
        Array.isArray(data) && data.length === 0 ? 'false' : base.compile(data, state),
    };
  }
  const substr = defaultMethods.substr as unknown as (args: unknown[]) => unknown;
  methods.substr = Object.assign(
    (args: unknown[]) => {
      const [source, ...rest] = args;
      const text =
        typeof source === 'number' || typeof source === 'boolean' ? String(source) : source;
      return substr([text, ...rest]);
    },
    { [Constants.Sync]: true, deterministic: true },
  );
  const reduce = methods.reduce as MethodObject;
  methods.reduce = {
    ...reduce,
    compile: (data: unknown, state: unknown) => {
      const code = reduce.compile(data, state);
      return typeof code === 'string'
        ? code.replaceAll('assertAllowedDepth(', 'engine.canonryFlat(')
        : code;
    },
  };
  for (const name of ['map', 'filter', 'reduce']) {
    methods[name] = guarded(name, requireArrayAndMapper, methods[name] as MethodObject);
  }
  for (const name of ['all', 'some', 'none']) {
    const base = methods[name] as MethodObject;
    methods[name] = {
      ...base,
      method: (args: unknown, context: unknown, above: unknown, engine: unknown) => {
        if (Array.isArray(args) && args.length === 0) throw INVALID_ARGUMENTS;
        return base.method(args, context, above, engine);
      },
      compile: (data: unknown, state: unknown) =>
        Array.isArray(data) && data.length === 0
          ? `engine.methods[${JSON.stringify(ARRAY_ONLY)}].method(null)`
          : base.compile(data, state),
    };
  }
  for (const [name, js] of Object.entries(RELATIONS)) {
    const base = methods[name] as MethodObject;
    const strict = name.length === 3;
    methods[name] = {
      ...base,
      compile: (data: unknown, state: Template) => {
        if (!Array.isArray(data) || data.length < 2) return false;
        // Each operand in a parameter of its own: (p0, t0, t1…) => p0 OP (q = check(t0(), p0)) && …
        const thunks = data.slice(1).map((operand) => state.compile`() => ${operand}`);
        let code = state.compile`((p0`;
        for (let i = 0; i < thunks.length; i++) code = state.compile`${code}, ${raw(`t${i}`)}`;
        code = state.compile`${code}) => { let p = p0, q; `;
        for (let i = 0; i < thunks.length; i++) {
          code = state.compile`${code} q = compareCheck(${raw(`t${i}`)}(), p, ${strict}); if (!(p ${raw(js)} q)) return false; p = q;`;
        }
        code = state.compile`${code} return true; })(${data[0]}`;
        for (const thunk of thunks) code = state.compile`${code}, ${thunk}`;
        return state.compile`${code})`;
      },
    };
  }
  for (const [name, method] of Object.entries(methods)) {
    const base = method as MethodObject;
    if (typeof base.compile !== 'function') continue;
    const compile = (data: unknown, state: Template) => {
      const code = base.compile(data, state);
      if (code === false) return false;
      return state.compile`(${typeof code === 'string' ? raw(code) : code})`;
    };
    methods[name] =
      typeof method === 'function'
        ? Object.assign(
            (...args: unknown[]) => (method as (...a: unknown[]) => unknown)(...args),
            method,
            { compile },
          )
        : { ...base, compile };
  }
}

type Template = { compile: (s: TemplateStringsArray, ...v: unknown[]) => unknown };

/** Code passed through the engine's code templates as it is. */
const raw = (code: string) => ({ [Compiled]: code });

function buildEngine(disableInline: boolean): LogicEngine {
  const methods: Record<string, unknown> = Object.create(null);
  for (const name of ALLOWED_OPERATORS)
    methods[name] = defaultMethods[name as keyof typeof defaultMethods];
  const cat = defaultMethods.cat.method as (args: unknown) => string;
  const merge = defaultMethods.merge as (args: unknown) => unknown[];
  Object.assign(methods, dataOperators, {
    all: arrayOnlyOperand('all'),
    some: arrayOnlyOperand('some'),
    none: arrayOnlyOperand('none'),
    cat: { method: (args: unknown) => boundedLength(cat(args), RULE_LIMITS.maxStringLength) },
    merge: { method: (args: unknown) => boundedLength(merge(args), RULE_LIMITS.maxArrayLength) },
    [ARRAY_ONLY]: {
      method: (args: unknown) => {
        const value = Array.isArray(args) ? args[0] : args;
        if (!Array.isArray(value)) throw INVALID_ARGUMENTS;
        return value;
      },
      deterministic: true,
    },
  });
  canonryFixes(methods);
  const engine = new LogicEngine(methods, {
    disableInline,
    disableInterpretedOptimization: true,
    maxDepth: 0,
    maxArrayLength: RULE_LIMITS.maxArrayLength,
    maxStringLength: RULE_LIMITS.maxStringLength,
  });
  Object.setPrototypeOf(engine.methods, null);
  Object.assign(engine, { canonryFlat: flatUnlessTrusted });
  engine.truthy = (value: unknown) => (Array.isArray(value) ? value.length > 0 : Boolean(value));
  return engine;
}

/** Objects of the data and of the condition's literals, which the accumulator check skips. */
let trusted = new WeakSet<object>();

function trust(value: unknown): void {
  if (value === null || typeof value !== 'object' || trusted.has(value)) return;
  trusted.add(value);
  for (const item of Object.values(value)) trust(item);
}

function flatUnlessTrusted(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  if (!Array.isArray(value) && trusted.has(value)) return value;
  for (const item of Object.values(value)) {
    if (item !== null && typeof item === 'object') throw { type: 'Exceeded Allowed Depth' };
  }
  return value;
}

const engines = { folding: buildEngine(false), compiled: buildEngine(true) };

/**
 * Builds a condition with the reference engine: `folding` is the kernel's configuration as it was
 * (constant sub-expressions evaluated at build time by the engine's interpreter); `compiled`
 * turns that folding off, so every operator runs the engine's compiled code.
 */
export function referenceRule(
  condition: unknown,
  mode: keyof typeof engines = 'folding',
): (data: unknown) => unknown {
  let built: (data: unknown) => unknown;
  try {
    built = engines[mode].build(condition) as (data: unknown) => unknown;
  } catch (error) {
    return () => {
      throw error;
    };
  }
  if ((built as unknown as Record<symbol, unknown>)[Constants.Sync] !== true) {
    throw new Error('a rule compiled to an asynchronous function');
  }
  return (data) => {
    trusted = new WeakSet();
    trust(data);
    trust(condition);
    return built(data);
  };
}
