// @ts-check
/**
 * The LCSM §13 evaluation: replays every scenario of bench/canon/corpus/scenarios.jsonl through four
 * context strategies and scores what each would hand a model resuming the project:
 *   (a) the full transcript of the main project, (b) a rolling extractive summary under 1,000 tokens,
 *   (c) BM25 top-8 retrieval over one store holding both projects' messages, and (d) canonry: the
 *   events replayed through a real runtime (SQLite in a temporary directory, the scripted classifier
 *   with the scenario's subjects), then `workingSet(canon, project, { objective: resume_question })`.
 * Sensitivity rows (not targets): canonry with a generic objective and with none, and retrieval
 * filtered to the project. Writes bench/canon/plot.svg; `--json` for bench/run.js, `--only <id>` for
 * one scenario, `--capsule` to print canonry's capsule of each scenario run. Progress on stderr.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { workingSet } from 'canonry/canon';
import { countTokens } from 'canonry/core';
import { median, progress } from '../lib/measure.js';
import { runIfMain, table } from '../lib/report.js';
import { CORPUS } from './generate.js';
import { openRuntime, Replay } from './lib/replay.js';
import { scoreCapsule, scoreTranscript } from './lib/score.js';
import {
  archive,
  fullTranscript,
  RETRIEVAL_K,
  retrieval,
  retrievalStore,
  rollingSummary,
  SUMMARY_BUDGET,
} from './lib/strategies.js';
import { plot } from './lib/svg.js';

const SCOPE = 'canon/run';
/** Timing runs per strategy and scenario (the median is reported). */
const RUNS = 5;
export const TARGETS = { retention: 1, superseded: 0, leaks: 0, tokenRatio: 10 };
const LONG = 200;
const GENERIC_OBJECTIVE = 'Resume the project where we left off.';

/** The strategies, in table order. */
export const STRATEGIES = /** @type {const} */ ([
  { key: 'transcript', label: '(a) full transcript' },
  {
    key: 'summary',
    label: `(b) rolling summary (${SUMMARY_BUDGET.toLocaleString('en-US')} tokens)`,
  },
  { key: 'retrieval', label: `(c) BM25 top-${RETRIEVAL_K} over both projects` },
  { key: 'canonry', label: '(d) canonry working set' },
]);
export const SENSITIVITY = /** @type {const} */ ([
  { key: 'canonryGeneric', label: `canonry, objective "${GENERIC_OBJECTIVE}"` },
  { key: 'canonryAll', label: 'canonry, no objective (whole project)' },
  { key: 'retrievalProject', label: `BM25 top-${RETRIEVAL_K}, filtered to the project` },
]);

/** Median wall time of `RUNS` calls, in ms. @template T @param {() => Promise<T> | T} f */
async function timed(f) {
  /** @type {number[]} */
  const times = [];
  /** @type {T | undefined} */
  let out;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    out = await f();
    times.push(performance.now() - t0);
  }
  return { value: /** @type {T} */ (out), ms: median(times) };
}

/** Runs one scenario through every strategy. @param {any} s */
export async function evaluate(s) {
  const [project, distractor] = s.projects;
  const expect = s.expect;
  const subjects = s.classifier[project].subjects;
  const titles = new Map(
    s.events
      .filter((/** @type {any} */ e) => e.kind === 'artifact')
      .map((/** @type {any} */ e) => [e.artifact_id, e.title]),
  );
  const units = archive(s.events);
  const transcriptScore = (/** @type {import('./lib/strategies.js').Context} */ c) =>
    scoreTranscript(c, expect, subjects, titles);

  /** @type {Record<string, { text: string, ms: number, score: import('./lib/score.js').Score }>} */
  const out = {};
  const baseline = async (
    /** @type {string} */ key,
    /** @type {() => import('./lib/strategies.js').Context} */ build,
  ) => {
    const { value, ms } = await timed(build);
    out[key] = { text: value.text, ms, score: transcriptScore(value) };
  };
  await baseline('transcript', () => fullTranscript(units, project));
  await baseline('summary', () => rollingSummary(units, project));
  // The index is built once, as the store would hold it; the query is what is timed.
  const shared = retrievalStore(units);
  await baseline('retrieval', () => retrieval(shared, expect.resume_question));
  const own = retrievalStore(units.filter((u) => u.project === project));
  await baseline('retrievalProject', () => retrieval(own, expect.resume_question));

  const { runtime, close } = await openRuntime();
  let ingestMs = 0;
  const failures = [];
  try {
    const replay = new Replay(runtime, s.classifier);
    const t0 = performance.now();
    for (const e of s.events) {
      const r = await replay.apply(e);
      if (r.error) failures.push(`${e.id} ${e.kind}: ${r.error}`);
    }
    ingestMs = performance.now() - t0;
    const capsule = async (
      /** @type {string} */ key,
      /** @type {import('canonry/canon').WorkingSetRequest} */ request,
    ) => {
      const { value, ms } = await timed(() => workingSet(runtime.canon, project, request));
      out[key] = { text: value.capsule, ms, score: scoreCapsule(value.capsule, expect) };
    };
    await capsule('canonry', { objective: expect.resume_question });
    await capsule('canonryGeneric', { objective: GENERIC_OBJECTIVE });
    await capsule('canonryAll', {});
    // Isolation at the source: the distractor's own working set must not carry the main project either.
    const other = await workingSet(runtime.canon, distractor, {});
    const mainValues = expect.accepted.map((/** @type {any} */ a) => a.must_contain);
    if (mainValues.some((/** @type {string} */ v) => other.capsule.includes(v)))
      failures.push('main values in the distractor capsule');
  } finally {
    await close();
  }
  const mainEvents = s.events.filter((/** @type {any} */ e) => e.project === project).length;
  /** @type {Record<string, { messages: number, tokens: number }>} */
  const speakers = {};
  for (const u of units.filter((x) => x.project === project)) {
    const k = speakers[u.speaker] ?? { messages: 0, tokens: 0 };
    k.messages++;
    k.tokens += countTokens(u.text);
    speakers[u.speaker] = k;
  }
  /** @type {Record<string, { tokens: number, ms: number } & import('./lib/score.js').Score>} */
  const results = {};
  for (const [key, r] of Object.entries(out))
    results[key] = { tokens: countTokens(r.text), ms: r.ms, ...r.score };
  return {
    id: s.id,
    domain: s.domain,
    events: s.events.length,
    mainEvents,
    accepted: expect.accepted.length,
    supersededItems: expect.superseded.length,
    staleItems: expect.stale_artifacts.length,
    ingestMs,
    failures,
    results,
    speakers,
    capsuleSections: capsuleSections(/** @type {any} */ (out.canonry).text),
    contexts: Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.text])),
  };
}

/**
 * Tokens of each part of a capsule: the header, each `## ` section, and apart from each section's
 * statements the second line of its notes (mutation, authority, gate, source span). @param {string} capsule
 */
export function capsuleSections(capsule) {
  /** @type {Record<string, string[]>} */
  const parts = {};
  let section = 'header';
  for (const line of capsule.split('\n')) {
    if (line.startsWith('## ')) section = line.slice(3).replace(/ \(.*\)$/, '');
    // A note's second line is indented: its mutation, who, gate and source.
    const part = line.startsWith('  ') ? `${section}: mutation, who, gate, source` : section;
    parts[part] = [...(parts[part] ?? []), line];
  }
  return Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, countTokens(v.join('\n'))]));
}

/** @param {number} x */
const pct = (x) => `${(100 * x).toFixed(1)} %`;
/** @param {number} x */
const num = (x, digits = 2) => x.toFixed(digits);
/** @param {number} x */
const int = (x) => Math.round(x).toLocaleString('en-US');

/** Aggregates per strategy over some scenarios. @param {Awaited<ReturnType<typeof evaluate>>[]} runs @param {string} key */
function aggregate(runs, key) {
  const rows = runs.map(
    (r) => /** @type {NonNullable<(typeof r.results)[string]>} */ (r.results[key]),
  );
  const mean = (/** @type {(x: (typeof rows)[number]) => number} */ f) =>
    rows.reduce((a, x) => a + f(x), 0) / Math.max(1, rows.length);
  const withStale = runs.map((r, i) => ({ r, x: rows[i] })).filter(({ r }) => r.staleItems > 0);
  return {
    scenarios: rows.length,
    retention: mean((x) => x.retention),
    retentionMin: Math.min(...rows.map((x) => x.retention)),
    recency: mean((x) => x.recency),
    superseded: mean((x) => x.superseded),
    supersededTotal: rows.reduce((a, x) => a + x.superseded, 0),
    supersededAsCurrent: mean((x) => x.supersededAsCurrent),
    supersededAsCurrentTotal: rows.reduce((a, x) => a + x.supersededAsCurrent, 0),
    authority: mean((x) => x.authority),
    leaks: mean((x) => x.leaks),
    leaksTotal: rows.reduce((a, x) => a + x.leaks, 0),
    stale: withStale.length
      ? withStale.reduce((a, { x }) => a + (x?.stale ?? 0), 0) / withStale.length
      : 1,
    falseStale: rows.reduce((a, x) => a + x.falseStale, 0),
    tokens: mean((x) => x.tokens),
    ms: median(rows.map((x) => x.ms)),
  };
}

/** @param {ReturnType<typeof aggregate>} a @param {string} label */
const aggRow = (label, a) => [
  label,
  pct(a.retention),
  pct(a.recency),
  `${num(a.superseded)} (${int(a.supersededTotal)})`,
  pct(a.authority),
  `${num(a.leaks)} (${int(a.leaksTotal)})`,
  pct(a.stale),
  int(a.falseStale),
  int(a.tokens),
  num(a.ms, 3),
];
const AGG_HEAD = [
  'strategy',
  'retention',
  'latest-mention reading',
  'superseded per scenario (total)',
  'authority',
  'leak markers per scenario (total)',
  'stale detected',
  'false stale flags',
  'tokens to resume (mean)',
  'ms to build (median)',
];

async function main() {
  const only = process.argv.includes('--only')
    ? process.argv[process.argv.indexOf('--only') + 1]
    : null;
  const scenarios = readFileSync(CORPUS, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((s) => !only || s.id === only);
  if (scenarios.length === 0)
    throw new Error(`no scenarios${only ? ` with id ${only}` : ''} in ${CORPUS}`);
  /** @type {Awaited<ReturnType<typeof evaluate>>[]} */
  const runs = [];
  for (const [i, s] of scenarios.entries()) {
    const r = await evaluate(s);
    runs.push(r);
    const c = /** @type {any} */ (r.results.canonry);
    const t = /** @type {any} */ (r.results.transcript);
    progress(
      SCOPE,
      `[${i + 1}/${scenarios.length}] ${s.id} (${r.events} events): transcript ${int(t.tokens)} tok · canonry ${int(c.tokens)} tok (${num(t.tokens / c.tokens, 1)}×), retention ${pct(c.retention)}, superseded ${c.superseded} (${c.supersededAsCurrent} as current), leaks ${c.leaks}, authority ${pct(c.authority)}, stale ${pct(c.stale)}; replay ${int(r.ingestMs)} ms${r.failures.length ? `; FAILURES ${r.failures.join(', ')}` : ''}`,
    );
    if (process.argv.includes('--capsule')) process.stderr.write(`${r.contexts.canonry}\n\n`);
  }

  const long = runs.filter((r) => r.events >= LONG);
  const keys = [...STRATEGIES, ...SENSITIVITY];
  const all = Object.fromEntries(keys.map((k) => [k.key, aggregate(runs, k.key)]));
  const longAgg = Object.fromEntries(keys.map((k) => [k.key, aggregate(long, k.key)]));
  const ratios = long.map(
    (r) =>
      /** @type {any} */ (r.results.transcript).tokens /
      /** @type {any} */ (r.results.canonry).tokens,
  );
  const canonry = runs.map((r) => /** @type {any} */ (r.results.canonry));
  const targets = {
    retention: {
      value: Math.min(...canonry.map((c) => c.retention)),
      met: canonry.every((c) => c.retention >= TARGETS.retention),
    },
    superseded: {
      value: canonry.reduce((a, c) => a + c.superseded, 0),
      met: canonry.every((c) => c.superseded === 0),
    },
    leaks: {
      value: canonry.reduce((a, c) => a + c.leaks, 0),
      met: canonry.every((c) => c.leaks === 0),
    },
    tokenRatio: {
      min: ratios.length ? Math.min(...ratios) : 0,
      median: ratios.length ? median(ratios) : 0,
      met: ratios.length > 0 && ratios.every((x) => x >= TARGETS.tokenRatio),
    },
  };
  const yes = (/** @type {boolean} */ met) => (met ? 'met' : '**NOT met**');
  const targetTable = table(
    ['target (canonry working set)', 'measured', 'result'],
    [
      [
        'keeps 100 % of accepted items, every scenario',
        `min ${pct(targets.retention.value)}`,
        yes(targets.retention.met),
      ],
      [
        '0 superseded positions in the capsule, every scenario',
        `${targets.superseded.value} in total`,
        yes(targets.superseded.met),
      ],
      [
        '0 cross-project leakage, every scenario',
        `${targets.leaks.value} in total`,
        yes(targets.leaks.met),
      ],
      [
        `transcript ÷ canonry tokens ≥ ${TARGETS.tokenRatio} on each 200+-event scenario (${long.length})`,
        `min ${num(targets.tokenRatio.min, 1)}×, median ${num(targets.tokenRatio.median, 1)}×`,
        yes(targets.tokenRatio.met),
      ],
    ],
  );
  const svg = plot(runs, STRATEGIES, all);
  writeFileSync(fileURLToPath(new URL('./plot.svg', import.meta.url)), svg);
  progress(SCOPE, 'wrote bench/canon/plot.svg');
  for (const line of targetTable.split('\n')) progress(SCOPE, line);

  // Where the capsule's tokens go, and how verbose the transcripts are (200+-event scenarios).
  /** @type {Record<string, number>} */
  const sections = {};
  for (const r of long)
    for (const [k, v] of Object.entries(r.capsuleSections)) sections[k] = (sections[k] ?? 0) + v;
  const capsuleTotal = Object.values(sections).reduce((a, b) => a + b, 0);
  /** @type {Record<string, { messages: number, tokens: number }>} */
  const speakers = {};
  for (const r of long)
    for (const [k, v] of Object.entries(r.speakers)) {
      const x = speakers[k] ?? { messages: 0, tokens: 0 };
      x.messages += v.messages;
      x.tokens += v.tokens;
      speakers[k] = x;
    }
  const perMessage = long.map(
    (r) => /** @type {any} */ (r.results.transcript).tokens / r.mainEvents,
  );
  const breakEven = long.map(
    (r) => (TARGETS.tokenRatio * /** @type {any} */ (r.results.canonry).tokens) / r.mainEvents,
  );
  const verbosity = {
    sections,
    speakers,
    tokensPerMainMessage: median(perMessage),
    breakEvenTokensPerMainMessage: median(breakEven),
  };
  const events = runs.reduce((a, r) => a + r.events, 0);
  const replayMs = runs.reduce((a, r) => a + r.ingestMs, 0);
  const failures = runs.flatMap((r) => r.failures.map((f) => `${r.id} ${f}`));
  const tables = [
    targetTable,
    `**All ${runs.length} scenarios** (${events.toLocaleString('en-US')} events; shares are means over scenarios; superseded and leak markers are counts)\n\n${table(
      AGG_HEAD,
      STRATEGIES.map((k) => aggRow(k.label, /** @type {any} */ (all[k.key]))),
    )}`,
    `**The ${long.length} scenarios with 200+ events**\n\n${table(
      AGG_HEAD,
      STRATEGIES.map((k) => aggRow(k.label, /** @type {any} */ (longAgg[k.key]))),
    )}`,
    `**Sensitivity** (not targets; all scenarios)\n\n${table(AGG_HEAD, [...SENSITIVITY.map((k) => aggRow(k.label, /** @type {any} */ (all[k.key]))), aggRow('(d) canonry working set, for reference', /** @type {any} */ (all.canonry))])}`,
    `![retention, superseded and leakage per strategy; tokens to resume against scenario length](canon/plot.svg)`,
    `Canonry's replay of the corpus (ingest, not timed above): ${events.toLocaleString('en-US')} events in ${num(replayMs / 1000, 1)} s, ${num(replayMs / events, 1)} ms per event (SQLite, synchronous commits). Board actions that failed in the replay: ${failures.length === 0 ? 'none' : failures.join('; ')}.`,
    `**Where the tokens go** (the ${long.length} scenarios with 200+ events). Canonry's capsule, by part:\n\n${table(
      ['part of the capsule', 'tokens', 'share'],
      Object.entries(sections)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => [k, int(v), pct(v / capsuleTotal)]),
    )}\n\nThe main project's transcript, by speaker:\n\n${table(
      ['speaker', 'messages', 'tokens', 'tokens per message'],
      Object.entries(speakers).map(([k, v]) => [
        k,
        int(v.messages),
        int(v.tokens),
        num(v.tokens / v.messages, 1),
      ]),
    )}\n\nThe transcript averages ${num(verbosity.tokensPerMainMessage, 1)} tokens per main-project message (median over these scenarios); the ${TARGETS.tokenRatio}× ratio would need ${num(verbosity.breakEvenTokensPerMainMessage, 1)} at today's capsule sizes.`,
    table(
      [
        'scenario',
        'events',
        'accepted',
        'transcript tok',
        'summary tok',
        'retrieval tok',
        'canonry tok',
        'ratio',
        'canonry retention',
        'superseded (as current)',
        'authority',
        'stale',
      ],
      runs.map((r) => {
        const c = /** @type {any} */ (r.results.canonry);
        const t = /** @type {any} */ (r.results.transcript);
        return [
          r.id,
          r.events,
          r.accepted,
          int(t.tokens),
          int(/** @type {any} */ (r.results.summary).tokens),
          int(/** @type {any} */ (r.results.retrieval).tokens),
          int(c.tokens),
          `${num(t.tokens / c.tokens, 1)}×`,
          pct(c.retention),
          `${c.superseded} (${c.supersededAsCurrent})`,
          pct(c.authority),
          r.staleItems ? pct(c.stale) : '–',
        ];
      }),
    ),
  ];
  return {
    name: 'contexts',
    title: 'Context strategies against the corpus',
    tables,
    data: {
      targets,
      aggregate: { all, long: longAgg },
      scenarios: runs.map(({ contexts: _contexts, ...r }) => r),
      replay: { events, ms: replayMs, failures },
      verbosity,
    },
  };
}

runIfMain(import.meta.url, main);
