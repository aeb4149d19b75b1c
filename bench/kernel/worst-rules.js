// @ts-check
/**
 * The worst JsonLogic rules we could build, over artifacts of up to 1 MiB, run against the rules
 * step budget: how long spending it takes (the budget must hold the event loop ≤ ~15 ms on a
 * 2-core machine) and how many nanoseconds one step costs in each shape. Markdown on stdout,
 * progress on stderr. `RULES_BUDGET=n` overrides the budget (for calibration).
 *
 *   npm run build && node bench/kernel/worst-rules.js
 *
 * Times are CPU milliseconds of this process (robust to other processes; they include V8's
 * helper threads) in the steady state: the JIT warmed up by three runs of each rule. `COLD=1`
 * also runs each rule once in a fresh process (interpreter and JIT compilation included).
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { canonicalize } from 'canonry/core';
import {
  compileProtocol,
  compileRule,
  EVALUATION_BUDGET,
  isBudgetExhausted,
  resolve,
  StepBudget,
} from 'canonry/kernel';

import { EMPTY_METADATA_HASH } from '../lib/hostile.js';

const LIMIT = Number(process.env.RULES_BUDGET ?? EVALUATION_BUDGET.rules);
const ROUNDS = Number(process.env.ROUNDS ?? 15);
/**
 * Array sizes: as large as a request body may carry (32,768 values, an object member counting twice,
 * and 4,096 distinct member names: see DEFAULT_MAX_JSON_VALUES in canonry/core).
 */
const N = 30_000;
const MiB = 1 << 20;

const range = (n, f) => Array.from({ length: n }, (_, i) => f(i));
const up = (levels, key) => ({ val: [[levels], key] });

/** Artifacts, each at most 1 MiB of canonical JSON. */
const ARTIFACTS = {
  numbers: { xs: range(N, (i) => i % 10) },
  text: { s: 'a'.repeat(MiB - 400), xs: range(64, (i) => i) },
  texts: { s: 'a'.repeat(MiB / 2 - 400), t: 'a'.repeat(MiB / 2 - 400), xs: range(64, (i) => i) },
  numeric: { n: '1'.repeat(MiB - 400), xs: range(64, (i) => i) },
  keys: { keys: range(N, (i) => `k${i}`), xs: range(8, (i) => i) },
  object: {
    o: Object.fromEntries(range(4_000, (i) => [`k${i}`, i])),
    xs: range(N / 10, (i) => i),
  },
  strings: { xs: range(N / 2, () => 'abcdefghijklmn') },
  nulls: { ns: range(N, () => null), xs: range(64, (i) => i) },
  nested: { xs: range(N / 2, (i) => [i % 10]) },
};

/** @type {[string, keyof typeof ARTIFACTS, unknown][]} */
const CASES = [
  [
    'nested some, N² (30k × 30k)',
    'numbers',
    { some: [{ var: 'xs' }, { some: [up(2, 'xs'), false] }] },
  ],
  [
    'nested map, 3 levels',
    'numbers',
    { map: [{ var: 'xs' }, { map: [up(2, 'xs'), { map: [up(4, 'xs'), 1] }] }] },
  ],
  [
    'nested filter, identity predicate',
    'numbers',
    { filter: [{ var: 'xs' }, { filter: [up(2, 'xs'), { var: '' }] }] },
  ],
  [
    'reduce with merge (accumulator copied each step)',
    'numbers',
    { reduce: [{ var: 'xs' }, { merge: [{ var: 'accumulator' }, { var: 'current' }] }, []] },
  ],
  [
    'reduce with cat (accumulator doubled)',
    'numbers',
    { reduce: [{ var: 'xs' }, { cat: [{ var: 'accumulator' }, { var: 'accumulator' }] }, 'ab'] },
  ],
  [
    'reduce with cat (one char per step)',
    'numbers',
    { reduce: [{ var: 'xs' }, { cat: [{ var: 'accumulator' }, 'x'] }, ''] },
  ],
  [
    'cat of the 1 MiB string in a loop',
    'text',
    { map: [{ var: 'xs' }, { cat: [{ substr: [up(2, 's'), 0, 65_000] }, 'x'] }] },
  ],
  ['in over a 1 MiB string (miss)', 'text', { map: [{ var: 'xs' }, { in: ['b', up(2, 's')] }] }],
  [
    'in over a 1 MiB string, long needle (a…ab)',
    'text',
    {
      map: [
        { var: 'xs' },
        { in: [{ cat: [{ substr: [up(2, 's'), 0, 60_000] }, 'b'] }, up(2, 's')] },
      ],
    },
  ],
  [
    'in over a 30k array (miss), per element',
    'numbers',
    { all: [{ var: 'xs' }, { in: [-1, up(2, 'xs')] }] },
  ],
  [
    'in over strings of equal length',
    'strings',
    { all: [{ var: 'xs' }, { '!': { in: ['abcdefghijklmX', up(2, 'xs')] } }] },
  ],
  [
    '== of two 512 KiB strings',
    'texts',
    { map: [{ var: 'xs' }, { '==': [up(2, 's'), up(2, 't')] }] },
  ],
  [
    '< of two 512 KiB strings',
    'texts',
    { map: [{ var: 'xs' }, { '<': [up(2, 's'), up(2, 't')] }] },
  ],
  ['+ of a 1 MiB numeric string', 'numeric', { map: [{ var: 'xs' }, { '+': [up(2, 'n'), 1] }] }],
  ['substr of the 1 MiB string', 'text', { map: [{ var: 'xs' }, { substr: [up(2, 's'), 1] }] }],
  ['var with a 1 MiB dynamic key', 'text', { map: [{ var: 'xs' }, { var: up(2, 's') }] }],
  [
    'var with a fresh 64k key (cat)',
    'text',
    { map: [{ var: 'xs' }, { var: { cat: [{ substr: [up(2, 's'), 0, 65_000] }, { var: '' }] } }] },
  ],
  ['missing over 30k keys', 'keys', { map: [{ var: 'xs' }, { missing: up(2, 'keys') }] }],
  ['val with 30k keys', 'keys', { map: [{ var: 'xs' }, { val: up(2, 'keys') }] }],
  ['max over a 30k array, per element', 'numbers', { map: [{ var: 'xs' }, { max: up(2, 'xs') }] }],
  ['+ over a 30k array, per element', 'numbers', { map: [{ var: 'xs' }, { '+': up(2, 'xs') }] }],
  ['?? over 30k nulls, per element', 'nulls', { map: [{ var: 'xs' }, { '??': up(2, 'ns') }] }],
  [
    'merge of a 30k slice, per element',
    'numbers',
    {
      map: [
        { var: 'xs' },
        { merge: [{ filter: [up(2, 'xs'), { '<': [{ val: [[1], 'index'] }, 30_000] }] }] },
      ],
    },
  ],
  [
    'cat of a joined 30k array (text of an array)',
    'numbers',
    { map: [{ var: 'xs' }, { in: [up(2, 'xs'), 'abc'] }] },
  ],
  [
    'reduce over a 4k-key object accumulator',
    'object',
    { reduce: [{ var: 'xs' }, { var: 'accumulator' }, { var: 'o' }] },
  ],
  [
    'try around throw, per element',
    'numbers',
    { map: [{ var: 'xs' }, { try: [{ throw: 'x' }, { var: 'type' }] }] },
  ],
  [
    'try around an expensive failure',
    'numbers',
    { map: [{ var: 'xs' }, { try: [{ '+': [{ map: [up(2, 'xs'), 1] }] }, 0] }] },
  ],
  [
    'throw of an array, text in try',
    'numbers',
    { map: [{ var: 'xs' }, { try: [{ throw: [[up(2, 'xs')]] }, { var: 'type' }] }] },
  ],
  ['scope climb 64, per element', 'numbers', { map: [{ var: 'xs' }, { val: [[64], 'x'] }] }],
  [
    'deep climbs in 3 nested maps',
    'numbers',
    { map: [{ var: 'xs' }, { map: [up(2, 'xs'), { map: [[1, 2, 3], { val: [[6], 'xs', 0] }] }] }] },
  ],
  [
    'nested arrays as accumulator check',
    'nested',
    { all: [{ var: 'xs' }, { some: [up(2, 'xs'), { '==': [{ var: '0' }, 99] }] }] },
  ],
  [
    'array literal of 1,900 items, per element',
    'numbers',
    { map: [{ var: 'xs' }, range(1900, (i) => i)] },
  ],
  [
    'if-chain of 380 conditions, per element',
    'numbers',
    { map: [{ var: 'xs' }, { if: [...range(380, (i) => ({ '==': [{ var: '' }, -i - 1] })), 0] }] },
  ],
];

/**
 * Every case as a whole `POST /v1/validate` body: the rule first, a catch-all after it (so a rule
 * that does not match is no drift), over its artifact. For bench/kernel/worst-case.js.
 * @returns {{ name: string, body: { artifact: unknown, agentic_protocol: Record<string, unknown>, generation_metadata_hash: string } }[]}
 */
/**
 * The same rules over artifacts cut to a few KiB, so that with the protocol registered and named by
 * hash the body is small enough for the server to decide it in its own thread (see
 * IN_PROCESS_MAX_BYTES in canonry/server): what the step budget alone bounds there.
 */
const SMALL_ARTIFACTS = {
  numbers: { xs: range(2_000, (i) => i % 10) },
  text: { s: 'a'.repeat(12_000), xs: range(64, (i) => i) },
  texts: { s: 'a'.repeat(6_000), t: 'a'.repeat(6_000), xs: range(64, (i) => i) },
  numeric: { n: '1'.repeat(12_000), xs: range(64, (i) => i) },
  keys: { keys: range(1_200, (i) => `k${i}`), xs: range(8, (i) => i) },
  object: { o: Object.fromEntries(range(800, (i) => [`k${i}`, i])), xs: range(300, (i) => i) },
  strings: { xs: range(700, () => 'abcdefghijklmn') },
  nulls: { ns: range(2_000, () => null), xs: range(64, (i) => i) },
  nested: { xs: range(1_500, (i) => [i % 10]) },
};

/** The worst rules as §6 bodies with an inline protocol; `small` cuts the artifacts (see above). */
export function ruleWorstCases({ small = false } = {}) {
  const artifacts = small ? SMALL_ARTIFACTS : ARTIFACTS;
  return CASES.map(([name, artifact, condition]) => ({
    name: `rule: ${name}`,
    body: {
      artifact: artifacts[artifact],
      agentic_protocol: {
        slug: 'worst-rules',
        version: '1',
        constraints: true,
        labels: ['HIT', 'MISS'],
        rules: [
          { label: 'HIT', condition },
          { label: 'MISS', condition: true },
        ],
      },
      generation_metadata_hash: EMPTY_METADATA_HASH,
    },
  }));
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** CPU milliseconds of this process since `start` (robust to other processes on the machine). */
function cpuSince(start) {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

/** One evaluation, timed in CPU (this process, all threads) and wall-clock milliseconds. */
function once(rule, data) {
  const budget = new StepBudget(LIMIT);
  const wall = performance.now();
  const cpu = process.cpuUsage();
  let outcome = 'value';
  try {
    rule(data, budget);
  } catch (error) {
    outcome = isBudgetExhausted(error) ? 'exhausted' : 'error';
  }
  return {
    ms: cpuSince(cpu),
    wall: performance.now() - wall,
    used: Math.min(budget.used, LIMIT),
    outcome,
  };
}

/** Steady state: three runs to warm the JIT up, then ROUNDS runs (garbage collected as it comes). */
function measure(name, rule, data) {
  for (let i = 0; i < 3; i++) once(rule, data);
  const runs = [];
  for (let i = 0; i < ROUNDS; i++) runs.push(once(rule, data));
  const ms = runs.map((r) => r.ms);
  const { used, outcome } = runs[0] ?? { used: 0, outcome: '' };
  const row = {
    name,
    outcome,
    used,
    median: median(ms),
    max: Math.max(...ms),
    wall: median(runs.map((r) => r.wall)),
  };
  process.stderr.write(`[worst-rules] ${name}: ${outcome}, ${row.median.toFixed(2)} ms CPU\n`);
  return row;
}

/** 256 rules, each a nested iteration, in one protocol (one budget for them all). */
function protocolRow() {
  const artifact = ARTIFACTS.numbers;
  const rules = range(256, (i) => ({
    label: 'L',
    condition: { some: [{ var: 'xs' }, { some: [up(2, 'xs'), { '==': [{ var: '' }, 100 + i] }] }] },
  }));
  const compiled = compileProtocol({
    slug: 'worst',
    version: '1',
    constraints: true,
    labels: ['L'],
    rules,
  });
  const parse = () => JSON.parse(canonicalize(artifact));
  const total = [];
  const decode = [];
  for (let i = 0; i < 3; i++) resolve(artifact, compiled);
  for (let i = 0; i < ROUNDS; i++) {
    let start = process.cpuUsage();
    const verdict = resolve(artifact, compiled);
    total.push(cpuSince(start));
    if (verdict.detail.reason !== 'budget-exhausted') throw new Error('expected budget-exhausted');
    start = process.cpuUsage();
    parse();
    decode.push(cpuSince(start));
  }
  return { total: median(total), max: Math.max(...total), decode: median(decode) };
}

function main() {
  for (const [name, artifact] of Object.entries(ARTIFACTS)) {
    const size = canonicalize(artifact).length;
    if (size > MiB) throw new Error(`artifact ${name} is ${size} bytes`);
  }
  const data = Object.fromEntries(
    Object.entries(ARTIFACTS).map(([name, artifact]) => [name, JSON.parse(canonicalize(artifact))]),
  );
  const rows = [];
  const only = process.env.CASE;
  for (const [name, artifact, condition] of CASES) {
    if (only !== undefined && !name.includes(only)) continue;
    rows.push(measure(name, compileRule(/** @type {any} */ (condition)), data[artifact]));
  }
  const out = [];
  out.push(
    `Rules budget ${LIMIT.toLocaleString('en')} steps · Node ${process.version} · ${ROUNDS} rounds after 3 warm-up runs per rule\n`,
  );
  out.push(
    '| rule | outcome | steps | CPU ms (median) | CPU ms (max) | wall ms (median) | ns/step |',
  );
  out.push('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows) {
    out.push(
      `| ${r.name} | ${r.outcome} | ${r.used.toLocaleString('en')} | ${r.median.toFixed(2)} | ${r.max.toFixed(2)} | ${r.wall.toFixed(2)} | ${((r.median * 1e6) / Math.max(r.used, 1)).toFixed(1)} |`,
    );
  }
  const worst = rows.reduce((a, b) => (b.median > a.median ? b : a));
  out.push(
    `\nSlowest (median CPU): ${worst.name}, ${worst.median.toFixed(2)} ms (max ${worst.max.toFixed(2)} ms).`,
  );
  const p = only === undefined ? protocolRow() : { total: 0, max: 0, decode: 0 };
  out.push(
    `256 costly rules in one protocol: resolve ${p.total.toFixed(2)} ms CPU median (max ${p.max.toFixed(2)}), of which canonicalize + parse of the artifact ≈ ${p.decode.toFixed(2)} ms.`,
  );
  if (process.env.COLD === '1') {
    out.push(
      '\nFirst evaluation in a fresh process (interpreter, JIT compilation on helper threads):\n',
    );
    out.push('| rule | steps | CPU ms | wall ms |');
    out.push('| --- | ---: | ---: | ---: |');
    for (const r of coldRows()) {
      out.push(
        `| ${r.name} | ${r.used?.toLocaleString('en')} | ${r.ms?.toFixed(2)} | ${r.wall?.toFixed(2)} |`,
      );
    }
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

/** The first evaluation of one rule in this fresh process (`COLD_CASE=index`), as JSON. */
function coldCase(index) {
  const [, artifact, condition] = CASES[index] ?? [];
  if (artifact === undefined) throw new Error(`no case ${index}`);
  const data = JSON.parse(canonicalize(ARTIFACTS[artifact]));
  const rule = compileRule(/** @type {any} */ (condition));
  process.stdout.write(`${JSON.stringify(once(rule, data))}\n`);
}

/** Each rule's first evaluation, each in a fresh Node process. */
function coldRows() {
  return CASES.map(([name], index) => {
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], {
      env: { ...process.env, COLD_CASE: String(index) },
      encoding: 'utf8',
    });
    const run = JSON.parse(child.stdout.trim().split('\n').pop() ?? '{}');
    process.stderr.write(`[worst-rules] cold ${name}: ${run.ms?.toFixed(2)} ms CPU\n`);
    return { name, ...run };
  });
}

// Run only as a script: bench/kernel/worst-case.js imports the cases.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.env.COLD_CASE !== undefined) coldCase(Number(process.env.COLD_CASE));
  else main();
}
