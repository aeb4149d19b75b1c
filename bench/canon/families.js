// @ts-check
/**
 * Scenario families for issue 12's failure modes: cascades (depth 1–5, diamonds, an unaffected
 * branch, the fact moving by a correction, a restore, a successor or a dispute, a dependent revised
 * against the moved fact), disputes with and without resolution, hedged suggestions cited as
 * decisions, tool corrections, and approvals retried after canon moved. Generates them with a seeded
 * PRNG (bench/canon/corpus/families.jsonl; the expectations come from each generator's own graph and
 * story, never from canonry), then asks every strategy the family's question: the full transcript,
 * the rolling summary and BM25 top-8 answer by the rules of lib/families/baselines.js; canonry
 * answers from a real runtime (lib/families/canonry.js). `node bench/canon/families.js [--json]`;
 * progress on stderr.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { progress } from '../lib/measure.js';
import { runIfMain, table } from '../lib/report.js';
import { FamilyReplay } from './lib/families/canonry.js';
import { evaluate, probeCascade, share } from './lib/families/evaluate.js';
import { FAMILY_SEED, generateFamilies } from './lib/families/plan.js';
import { BASELINES, summarise } from './lib/families/summary.js';
import { openRuntime } from './lib/replay.js';

const SCOPE = 'canon/families';
export const FAMILIES_CORPUS = fileURLToPath(new URL('./corpus/families.jsonl', import.meta.url));

/** @param {number | null} x */
const pct = (x) => (x === null ? '–' : `${(100 * x).toFixed(1)} %`);
const NOT = 'not measured';

async function main() {
  const scenarios = generateFamilies();
  // Same seed, same scenarios: the generator must not depend on anything but its seed.
  const again = JSON.stringify(generateFamilies());
  if (again !== JSON.stringify(scenarios))
    throw new Error('the family generator is not deterministic');
  mkdirSync(fileURLToPath(new URL('./corpus/', import.meta.url)), { recursive: true });
  writeFileSync(FAMILIES_CORPUS, `${scenarios.map((s) => JSON.stringify(s)).join('\n')}\n`);
  progress(SCOPE, `wrote ${scenarios.length} scenarios to ${FAMILIES_CORPUS}`);

  const { runtime, close } = await openRuntime();
  /** @type {any[]} */
  const runs = [];
  let probe;
  // Disputes that keep every claim come with the resolve mutation; without it, not measured.
  const disputeClaims = typeof (/** @type {any} */ (runtime.canon).resolve) === 'function';
  try {
    probe = await probeCascade(runtime);
    progress(
      SCOPE,
      `cascade probe: ${probe.flags ? 'this build flags notes' : `this build does not flag notes (${probe.errors.join(', ') || 'no error'})`}`,
    );
    for (const s of scenarios) {
      const replay = new FamilyReplay(runtime, s.project, s.events);
      for (const e of s.events) await replay.apply(e);
      const r = await evaluate(s, replay);
      runs.push({ ...r, truth: s.truth });
      progress(
        SCOPE,
        `${s.id} (${s.events.length} events): canonry ${JSON.stringify(r.answers.canonry, (k, v) => (k === 'receipt' || k === 'byDepth' ? undefined : v))}${r.errors.length ? `; errors ${r.errors.join(', ')}` : ''}`,
      );
    }
  } finally {
    await close();
  }
  const agg = summarise(runs);
  const cascadeMeasured = probe.flags;
  const c = agg.cascade;
  const met = (/** @type {boolean} */ ok) => (ok ? 'met' : '**NOT met**');
  const targets = [
    [
      'cascade recall (dependents flagged / dependents that should be)',
      cascadeMeasured ? `${pct(c.canonry.recall)} (${c.canonry.found}/${c.canonry.should})` : NOT,
      cascadeMeasured ? met(c.canonry.recall === 1) : NOT,
    ],
    [
      'cascade precision (no unaffected object flagged)',
      cascadeMeasured
        ? `${pct(c.canonry.precision)} (${c.canonry.falseFlags} unaffected flagged)`
        : NOT,
      cascadeMeasured ? met(c.canonry.falseFlags === 0) : NOT,
    ],
    [
      "the moving commit's receipt lists every dependent with its depth",
      cascadeMeasured ? pct(c.canonry.receiptExact) : NOT,
      cascadeMeasured ? met(c.canonry.receiptExact === 1) : NOT,
    ],
    [
      'the working set shows each dependent needing revision under a warning',
      cascadeMeasured
        ? `${pct(c.canonry.capsuleWarned)}; ${c.canonry.capsuleFalse} unaffected shown under one`
        : NOT,
      cascadeMeasured ? met(c.canonry.capsuleWarned === 1 && c.canonry.capsuleFalse === 0) : NOT,
    ],
    [
      "each flagged dependent's state names its distance to what moved (as the graph has it)",
      cascadeMeasured ? pct(c.canonry.depthRight) : NOT,
      cascadeMeasured ? met(c.canonry.depthRight === 1) : NOT,
    ],
    [
      'dispute retention, unresolved (both claims with their holders)',
      disputeClaims
        ? pct(agg.dispute.canonry.open)
        : `${NOT}: this build keeps no dispute claims (its working set held both in ${pct(agg.dispute.canonry.open)})`,
      disputeClaims ? met(agg.dispute.canonry.open === 1) : NOT,
    ],
    [
      'dispute retention, resolved (the version records the standing claim and why)',
      agg.dispute.canonry.resolved === null ? NOT : pct(agg.dispute.canonry.resolved),
      agg.dispute.canonry.resolved === null ? NOT : met(agg.dispute.canonry.resolved === 1),
    ],
    [
      'resolved: the working set shows the standing claim and why (not a target)',
      agg.dispute.canonry.whyInCapsule === null
        ? NOT
        : `${pct(agg.dispute.canonry.whyInCapsule)}; the set-aside claim shown in ${agg.dispute.canonry.losingShown}`,
      '–',
    ],
    [
      `suggestion_to_directive fired on hedged sources (${agg.hedged.scenarios})`,
      `${pct(agg.hedged.fired)}; ${agg.hedged.falseFires} on firm sources`,
      met(agg.hedged.fired === 1 && agg.hedged.falseFires === 0),
    ],
    [
      `tool corrections routed right (own fact commits, user's held; ${agg.tool.scenarios})`,
      agg.tool.routed === null ? NOT : `${pct(agg.tool.routed)} of ${agg.tool.measured}`,
      agg.tool.routed === null
        ? NOT
        : met(agg.tool.routed === 1 && agg.tool.measured === agg.tool.scenarios),
    ],
    [
      `approval after canon moved is STALE_APPROVAL (${agg.approval.scenarios})`,
      pct(agg.approval.stale),
      met(agg.approval.stale === 1),
    ],
    [
      'blind retry of a stale approval did not commit',
      `${agg.approval.retryCommitted} of ${agg.approval.scenarios} committed`,
      met(agg.approval.retryCommitted === 0),
    ],
    [
      'approval acknowledging the new head commits',
      pct(agg.approval.acknowledgedCommitted),
      met(agg.approval.acknowledgedCommitted === 1),
    ],
  ];
  const keys = [...BASELINES, { key: 'canonry', label: '(d) canonry' }];
  const cell = (/** @type {string} */ k, /** @type {string | null} */ v) =>
    k === 'canonry' && !cascadeMeasured && v !== null ? NOT : (v ?? '–');
  const compare = [
    ['cascade recall', ...keys.map((k) => cell(k.key, pct(c[k.key].recall)))],
    ['cascade precision', ...keys.map((k) => cell(k.key, pct(c[k.key].precision)))],
    ['unaffected items flagged', ...keys.map((k) => cell(k.key, String(c[k.key].falseFlags)))],
    [
      'dispute retention, unresolved',
      ...keys.map((k) =>
        k.key === 'canonry' && !disputeClaims ? NOT : pct(agg.dispute[k.key].open),
      ),
    ],
    [
      'dispute retention, resolved',
      ...keys.map((k) =>
        agg.dispute[k.key].resolved === null ? NOT : pct(agg.dispute[k.key].resolved),
      ),
    ],
    [
      'hedged source: decided or not, read right',
      ...keys.map((k) => pct(agg.hedged.notDecided[k.key])),
    ],
    ['current value after a tool correction', ...keys.map((k) => pct(agg.tool.value[k.key]))],
    ['current value after a stale approval', ...keys.map((k) => pct(agg.approval.value[k.key]))],
  ];
  const depths = [...new Set(Object.keys(c.transcript.byDepth))].sort();
  const depthRows = depths.map((d) => [
    `depth ${d}`,
    String(c.transcript.byDepth[d]?.[1] ?? 0),
    ...keys.map((k) => {
      const [f, n] = c[k.key].byDepth[d] ?? [0, 0];
      return cell(k.key, pct(share(f, n)));
    }),
  ]);
  // Recall and unaffected items flagged, by how the fact moved.
  const moveRows = ['update', 'restore', 'supersede', 'dispute'].map((how) => {
    const xs = runs.filter((r) => r.family === 'cascade' && r.truth.move === how);
    const sum = (/** @type {string} */ k, /** @type {string} */ f) =>
      xs.reduce(
        (a, r) => a + (f === 'falseFlags' ? r.answers[k].falseFlags.length : r.answers[k][f]),
        0,
      );
    return [
      how,
      String(xs.length),
      String(sum('transcript', 'should')),
      ...keys.map((k) =>
        cell(
          k.key,
          `${pct(share(sum(k.key, 'found'), sum(k.key, 'should')))} / ${sum(k.key, 'falseFlags')}`,
        ),
      ),
    ];
  });
  const mean = (/** @type {string} */ k) =>
    Math.round(runs.reduce((a, r) => a + r.tokens[k], 0) / runs.length);
  const families = ['cascade', 'dispute', 'hedged', 'tool', 'approval'];
  const corpus = families.map((f) => {
    const xs = scenarios.filter((s) => s.family === f);
    return [f, xs.length, xs.reduce((a, s) => a + s.events.length, 0)];
  });
  const items = scenarios.filter((s) => s.family === 'cascade');
  const failures = runs.flatMap((r) => r.errors.map((/** @type {string} */ e) => `${r.id} ${e}`));
  const tables = [
    table(['target (canonry)', 'measured', 'result'], targets),
    `**Every strategy on the same questions** (${runs.length} scenarios; canonry from a real runtime, the others by the answer rules in bench/canon/README.md)\n\n${table(['question', ...keys.map((k) => k.label)], compare)}`,
    `**Cascade recall by distance from the fact that moved** (${items.length} scenarios, ${items.reduce((a, s) => a + s.truth.diamonds, 0)} diamonds, ${c.transcript.should} dependents that need revision, ${items.reduce((a, s) => a + s.truth.unaffected.length, 0)} objects and artifacts that do not)\n\n${table(['depth', 'dependents', ...keys.map((k) => k.label)], depthRows)}`,
    `**Cascades by how the fact moved** (recall / unaffected items flagged)\n\n${table(['move', 'scenarios', 'dependents', ...keys.map((k) => k.label)], moveRows)}`,
    `**The family corpus** (seed ${FAMILY_SEED}; mean tokens of each context: ${keys.map((k) => `${k.label} ${mean(k.key).toLocaleString('en-US')}`).join(', ')})\n\n${table(['family', 'scenarios', 'events'], corpus)}`,
    `Cascade probe: ${cascadeMeasured ? 'this build flags a note resting on a moved fact' : `this build does not flag a note resting on a moved fact, so the cascade metrics are not measured${probe.errors.length ? ` (${probe.errors.join(', ')})` : ''}`}. Events canon refused in the replay (apart from the approvals the approval family expects refused): ${failures.length === 0 ? 'none' : failures.join('; ')}.`,
  ];
  return {
    name: 'families',
    title:
      'Scenario families: cascades, disputes, hedged suggestions, tool corrections, stale approvals',
    tables,
    data: {
      seed: FAMILY_SEED,
      cascadeMeasured,
      disputeClaims,
      aggregate: agg,
      scenarios: runs.map(({ truth: _t, ...r }) => r),
    },
  };
}

runIfMain(import.meta.url, main);
