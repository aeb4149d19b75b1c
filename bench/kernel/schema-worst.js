// @ts-check
/**
 * The costliest constraints found for the kernel's step budget: each case is a protocol (within the
 * registration policy) and an artifact (under the 1 MiB body limit) built to spend steps as slowly
 * as possible, most of them so the evaluation runs out of budget. Prints, per case, the compile time
 * (a fresh protocol each run) and the resolve time (min and median over runs), and the verdict
 * reason. `node bench/kernel/schema-worst.js [--json] [--runs N] [--only name]` after `npm run build`.
 * `schemaWorstCases()` is exported for bench/kernel/worst-case.js.
 */
import { canonicalize, hashBytes } from 'canonry/core';
import {
  compileConstraints,
  compileProtocol,
  EVALUATION_BUDGET,
  resolve,
  StepBudget,
} from 'canonry/kernel';
import { EMPTY_METADATA_HASH } from '../lib/hostile.js';
import { median, progress } from '../lib/measure.js';
import { machine, runIfMain, table } from '../lib/report.js';

const SCOPE = 'kernel/schema-worst';

/** A seeded generator, so every run builds the same artifacts. @param {number} seed */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const range = (/** @type {number} */ n) => Array.from({ length: n }, (_, i) => i);

/** @param {number} n @param {string} alphabet */
function randomText(n, alphabet, seed = 1) {
  const next = prng(seed);
  let out = '';
  for (let i = 0; i < n; i++) out += alphabet[Math.floor(next() * alphabet.length)];
  return out;
}

/** A binary anyOf tree whose last leaf accepts integers: every other leaf fails first. */
function anyOfTree(/** @type {number} */ depth, last = true) {
  /** @type {any} */
  const leaf = last ? { type: 'integer' } : { type: 'string' };
  if (depth === 0) return leaf;
  return { anyOf: [anyOfTree(depth - 1, false), anyOfTree(depth - 1, last)] };
}

/** `$defs` d0…dN, each applying the next twice (anyOf failing then passing): 2^N at one location. */
function fanOutDag(/** @type {number} */ levels) {
  /** @type {Record<string, unknown>} */
  const defs = {};
  for (let i = 0; i < levels; i++) {
    defs[`d${i}`] = {
      // The first branch evaluates the next level in full, then fails: both branches always run.
      anyOf: [{ allOf: [{ $ref: `#/$defs/d${i + 1}` }, false] }, { $ref: `#/$defs/d${i + 1}` }],
    };
  }
  defs[`d${levels}`] = { type: 'integer' };
  return { $defs: defs, items: { $ref: '#/$defs/d0' } };
}

const bigObject = (/** @type {number} */ n, prefix = 'k') =>
  Object.fromEntries(range(n).map((i) => [`${prefix}${i}`, i]));

/**
 * @typedef {{ name: string, what: string, constraints: unknown, artifact: unknown,
 *   formatAssertion?: boolean }} WorstCase
 */

/** @returns {WorstCase[]} */
export function schemaWorstCases() {
  return [
    {
      name: 'regex-nfa',
      what: 'pattern .*a.{1000}$ (1,006 instructions, NFA) on a 200 KB random a/b string',
      constraints: { pattern: '.*a.{1000}$' },
      artifact: randomText(200_000, 'ab'),
    },
    {
      name: 'regex-small',
      what: 'pattern ^(a+)+$ on 10,000 strings of 64 a then b',
      constraints: { items: { pattern: '^(a+)+$' } },
      artifact: range(10_000).map(() => `${'a'.repeat(64)}b`),
    },
    {
      name: 'pattern-properties',
      what: '16 patternProperties × 20,000 keys of 24 characters',
      constraints: {
        patternProperties: Object.fromEntries(range(16).map((i) => [`^(x|y)*${i}z$`, true])),
      },
      artifact: Object.fromEntries(range(20_000).map((i) => [randomText(24, 'xy', i), i])),
    },
    {
      name: 'anyof-tree',
      what: 'items: a binary anyOf tree of 2,047 schemas (last leaf passes) over 20,000 integers',
      constraints: { items: anyOfTree(10) },
      artifact: range(20_000),
    },
    {
      name: 'fan-out-dag',
      what: 'items: $ref/anyOf DAG, 2^14 schemas at one location, over 1,000 integers',
      constraints: fanOutDag(14),
      artifact: range(1_000),
    },
    {
      name: 'keys-dictionary',
      what: 'minProperties + propertyNames + additionalProperties on one object of 60,000 keys',
      constraints: {
        minProperties: 1,
        propertyNames: { minLength: 1 },
        additionalProperties: { type: 'integer' },
      },
      artifact: bigObject(60_000),
    },
    {
      name: 'unique-objects',
      what: 'uniqueItems over 20,000 distinct objects of 3 keys',
      constraints: { uniqueItems: true },
      artifact: range(20_000).map((i) => ({ a: i, b: [i, 'x'], c: { d: null } })),
    },
    {
      name: 'enum-objects',
      what: 'items: enum of 2,000 objects, over 20,000 objects matching the last member',
      constraints: { items: { enum: range(2_000).map((i) => ({ id: i, tag: 'member' })) } },
      artifact: range(20_000).map(() => ({ id: 1_999, tag: 'member' })),
    },
    {
      name: 'const-deep',
      what: 'items: const of 100 numbers and a string, over 2,400 equal arrays',
      constraints: { items: { const: [...range(100), 'x'.repeat(100)] } },
      artifact: range(2_400).map(() => [...range(100), 'x'.repeat(100)]),
    },
    {
      name: 'format-date-time',
      what: 'format date-time (asserted) on 500 KB of spaces',
      constraints: { format: 'date-time' },
      artifact: `0${' '.repeat(500_000)}:`,
      formatAssertion: true,
    },
    {
      name: 'format-url',
      what: 'format url (asserted, quadratic) on 2 KB of ":@"',
      constraints: { items: { format: 'url' } },
      artifact: range(100).map(() => `http://${':@'.repeat(1_000)} `),
      formatAssertion: true,
    },
    {
      name: 'multiple-of',
      what: 'items: multipleOf 0.0001 over 40,000 numbers near 1e300 (exact decimal arithmetic)',
      constraints: { items: { multipleOf: 0.0001 } },
      artifact: range(40_000).map((i) => 1e300 + i * 1e285),
    },
    {
      name: 'code-points',
      what: 'items: minLength over 10 strings of 25,000 emoji',
      constraints: { items: { minLength: 1 } },
      artifact: range(10).map(() => '😀'.repeat(25_000)),
    },
    {
      name: 'unevaluated',
      what: 'allOf of properties and patternProperties, then unevaluatedProperties, on 40,000 keys',
      constraints: {
        allOf: [
          { properties: Object.fromEntries(range(50).map((i) => [`k${i}`, true])) },
          { patternProperties: { '^k': true } },
        ],
        unevaluatedProperties: false,
      },
      artifact: bigObject(40_000),
    },
    {
      name: 'dynamic-ref',
      what: '$dynamicRef recursion 60 deep (scope walks), over 2,000 such trees',
      constraints: {
        $id: 'https://example.com/tree',
        $dynamicAnchor: 'node',
        items: { $dynamicRef: '#node' },
      },
      artifact: range(2_000).map(() => {
        /** @type {unknown} */
        let value = 1;
        for (let i = 0; i < 60; i++) value = [value];
        return value;
      }),
    },
  ];
}

/**
 * Schemas at the registration limits (10,000 values, 64 levels, pattern weights), built to cost the
 * most to compile; `ajvValue` is a small value that sends the first evaluation to Ajv, whose code
 * generation is lazy. `salt` changes every pattern, so none comes from the pattern cache.
 * @typedef {{ name: string, what: string, constraints: unknown, ajvValue?: unknown }} CompileCase
 * @returns {CompileCase[]}
 */
export function schemaCompileCases(salt = 0) {
  // As large as a schema may be (CONSTRAINT_LIMITS.maxNodes, 4,096 values).
  const props = Object.fromEntries(range(1_360).map((i) => [`p${i}`, { type: 'integer' }]));
  return [
    {
      name: 'properties',
      what: '1,360 properties, each a schema (4,081 values)',
      constraints: { properties: props },
    },
    {
      name: 'anyof-tree',
      what: 'a binary anyOf tree of 2,047 schemas (4,094 values)',
      constraints: anyOfTree(10),
    },
    {
      name: 'defs-refs',
      what: '800 $defs chained by $ref inside anyOf (4,002 values)',
      constraints: {
        $defs: Object.fromEntries(
          range(800).map((i) => [
            `d${i}`,
            i === 799 ? true : { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, true] },
          ]),
        ),
        items: { $ref: '#/$defs/d0' },
      },
    },
    {
      name: 'patterns',
      what: '380 distinct small patterns (the schema pattern weight limit)',
      constraints: {
        properties: Object.fromEntries(
          range(380).map((i) => [`p${i}`, { pattern: `^v${i}-[a-z]+$` }]),
        ),
      },
    },
    {
      name: 'unicode-patterns',
      what: 'patterns of \\p{L} classes up to the weight limit',
      constraints: {
        patternProperties: Object.fromEntries(
          range(4).map((i) => [`^\\p{L}{1,${30 + i}}${salt}$`, { type: 'string' }]),
        ),
      },
    },
    {
      name: 'ajv-largest',
      what: '499 values on Ajv: 166 typed properties (code generation on first use)',
      constraints: {
        properties: Object.fromEntries(range(166).map((i) => [`p${i}`, { type: 'integer' }])),
      },
      ajvValue: { p0: 1 },
    },
  ];
}

/**
 * Every worst case and compile case as a whole `POST /v1/validate` body, for
 * bench/kernel/worst-case.js (which gives each request a fresh protocol version).
 * @returns {{ name: string, body: { artifact: unknown, agentic_protocol: Record<string, unknown>, generation_metadata_hash: string } }[]}
 */
export function schemaWorstBodies() {
  return [
    ...schemaWorstCases().map((c) => ({
      name: `schema: ${c.what}`,
      body: {
        artifact: c.artifact,
        agentic_protocol: protocolOf(c),
        generation_metadata_hash: EMPTY_METADATA_HASH,
      },
    })),
    ...schemaCompileCases().map((c) => ({
      name: `compile: ${c.what}`,
      body: {
        artifact: c.ajvValue ?? {},
        agentic_protocol: protocolOf({ ...c, artifact: null }),
        generation_metadata_hash: EMPTY_METADATA_HASH,
      },
    })),
  ];
}

/** A protocol around constraints; `salt` makes a fresh hash, so it is compiled again. */
function protocolOf(/** @type {WorstCase} */ c, salt = 0) {
  return {
    slug: `schema-worst.${c.name}.${salt}`,
    version: '1',
    constraints: c.constraints,
    labels: ['OK'],
    rules: [{ label: 'OK', condition: true }],
    ...(c.formatAssertion ? { format_assertion: true } : {}),
  };
}

/** CPU milliseconds of one call (the machine is shared: wall time would count other processes). */
function cpuMs(/** @type {() => unknown} */ fn) {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function option(/** @type {string} */ name, /** @type {string} */ fallback) {
  const at = process.argv.indexOf(name);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

/** @returns {Promise<import('../lib/report.js').BenchResult>} */
export async function main() {
  const runs = Number(option('--runs', '15'));
  const only = option('--only', '');
  const rows = [];
  const data = [];
  for (const c of schemaWorstCases()) {
    if (only !== '' && c.name !== only) continue;
    progress(SCOPE, c.name);
    const compile = Math.min(
      ...range(5).map((i) => cpuMs(() => compileProtocol(protocolOf(c, i + 1)))),
    );
    const compiled = compileProtocol(protocolOf(c));
    const reason = resolve(c.artifact, compiled).detail.reason;
    // What resolve does before the constraints, outside the budget: canonical text, hash, parse.
    const text = canonicalize(c.artifact);
    const canonical = Math.min(
      ...range(5).map(() => cpuMs(() => JSON.parse(canonicalize(c.artifact)) && hashBytes(text))),
    );
    // The constraints alone, on the parsed canonical text, as resolve runs them.
    const check = compileConstraints(/** @type {any} */ (c.constraints), {
      formatAssertion: c.formatAssertion === true,
    });
    let steps = 0;
    let engine = '';
    const times = range(runs).map(() => {
      const parsed = JSON.parse(text); // fresh, as resolve evaluates it
      return cpuMs(() => {
        const budget = new StepBudget(EVALUATION_BUDGET.constraints);
        engine = check(parsed, budget).engine;
        steps = budget.used;
      });
    });
    const min = Math.min(...times);
    const med = median(times);
    const kib = Math.round(Buffer.byteLength(text) / 1024);
    const nsPerStep = (min * 1e6) / Math.max(1, steps);
    rows.push([
      c.name,
      c.what,
      kib,
      compile.toFixed(1),
      canonical.toFixed(1),
      min.toFixed(1),
      med.toFixed(1),
      steps.toLocaleString('en-US'),
      nsPerStep.toFixed(1),
      `${reason} (${engine})`,
    ]);
    data.push({
      name: c.name,
      artifactKiB: kib,
      compileMs: compile,
      canonicalMs: canonical,
      minMs: min,
      medianMs: med,
      steps,
      nsPerStep,
      reason,
      engine,
    });
  }
  const compileRows = [];
  for (const c of schemaCompileCases()) {
    if (only !== '' && c.name !== only) continue;
    progress(SCOPE, `compile ${c.name}`);
    const one = (/** @type {number} */ salt) => {
      const salted = schemaCompileCases(salt).find((other) => other.name === c.name) ?? c;
      const protocol = {
        ...protocolOf({ ...salted, artifact: null }, salt),
        slug: `compile.${c.name}.${salt}`,
      };
      const compile = cpuMs(() => compileProtocol(protocol));
      const compiled = compileProtocol(protocol);
      const first = c.ajvValue === undefined ? 0 : cpuMs(() => resolve(c.ajvValue, compiled));
      return [compile, first];
    };
    const samples = range(7).map((i) => one(i + 1));
    const compile = Math.min(...samples.map(([a]) => a ?? 0));
    const first = Math.min(...samples.map(([, b]) => b ?? 0));
    compileRows.push([
      c.name,
      c.what,
      compile.toFixed(1),
      c.ajvValue === undefined ? '' : first.toFixed(1),
    ]);
    data.push({ name: `compile:${c.name}`, compileMs: compile, firstAjvEvaluationMs: first });
  }
  return {
    name: 'schema-worst',
    title: `Constraints at their worst (budget ${EVALUATION_BUDGET.constraints.toLocaleString('en-US')} steps; CPU ms)`,
    tables: [
      table(
        [
          'case',
          'what',
          'KiB',
          'compile',
          'canonical',
          'constraints min',
          'median',
          'steps',
          'ns/step',
          'verdict (engine)',
        ],
        rows,
      ),
      table(['schema', 'what', 'compile', 'first evaluation (Ajv codegen)'], compileRows),
    ],
    data: { machine: machine(), budget: EVALUATION_BUDGET.constraints, cases: data },
  };
}

runIfMain(import.meta.url, main);
