// @ts-check
/**
 * The DPE and the IAP build for one window of 2,000 words against 1,000 context facts (issue #15):
 * median (IQR) of `analyseWindow` and of `airStep`, against the relay's own per-window work on a CSO
 * of the same 1,000 facts (merge + verify + seal, as bench/relay/window.js times it, and the
 * extractor on the same 2,000-word text), all in the same run, interleaved sample by sample.
 *
 * The state is bench/relay's generated CSO (seed 7: 1,000 facts, 500 decisions, 5,000 edges). The
 * window restates facts, changes the numbers of some (distortions), adds unsupported figures and
 * plain prose, and copies sentences from the four earlier windows it is measured against — so every
 * stage of the engine has work to do. AIR steps from the state three earlier windows left.
 */
import { airStep, DEFAULT_AIR_POLICY, initialAirState } from 'canonry/air';
import { analyseWindow } from 'canonry/dpe';
import {
  extractFromText,
  goalFor,
  mergeContribution,
  mergeExtracted,
  sealCso,
  sessionGenesis,
  verifyCso,
} from 'canonry/relay';
import { HmacKeyring } from 'canonry/trust';
import { fmtInt, median, progress, quantile } from '../lib/measure.js';
import { runIfMain, table } from '../lib/report.js';
import { generateState, setupContributions, windowContribution } from '../relay/lib/cso.js';
import { rng } from './lib/plan.js';

const SCOPE = 'air/speed';
const QUICK = Boolean(process.env.BENCH_QUICK);
const WARMUP = QUICK ? 3 : 10;
const SAMPLES = QUICK ? 15 : 60;
const WORDS = 2_000;
const OBJECTIVE = 'Migrate the platform to the new region';
const REMAINING = Array.from({ length: 12 }, (_, i) => `migrate service group ${i + 1}`);
const PROSE = [
  'The team reviewed the rollout plan with the operators before the change window opened.',
  'Each step is reversible, and the runbook names the person who owns it.',
  'Monitoring stays on the old dashboards until the cut-over is confirmed.',
  'Questions from the review are tracked in the migration channel.',
];

/**
 * A window of about `words` words over the facts: restated facts, distorted numbers, unsupported
 * figures, plain prose, and `copies` sentences from `earlier` windows.
 * @param {number} seed @param {{ statement: string }[]} facts @param {number} words @param {string[]} earlier
 */
export function windowText(seed, facts, words, earlier = []) {
  const r = rng(seed);
  const pool = earlier.flatMap((t) => t.split(/(?<=\.)\s+/)).filter((s) => s.length > 20);
  const out = [];
  let count = 0;
  while (count < words) {
    const roll = r();
    const f = /** @type {{ statement: string }} */ (facts[Math.floor(r() * facts.length)]);
    let s;
    if (roll < 0.5) s = `${f.statement.replace(/ \(observation \d+\)$/, '')}.`;
    else if (roll < 0.6)
      s = `${f.statement.replace(/\d+/, (n) => String(Number(n) + 3)).replace(/ \(observation \d+\)$/, '')}.`;
    else if (roll < 0.7)
      s = `${f.statement.split(' ').slice(0, 3).join(' ')} handles ${Math.floor(r() * 900) + 100} requests per second.`;
    else if (roll < 0.8 && pool.length > 0)
      s = /** @type {string} */ (pool[Math.floor(r() * pool.length)]);
    else s = /** @type {string} */ (PROSE[Math.floor(r() * PROSE.length)]);
    s = s.charAt(0).toUpperCase() + s.slice(1);
    out.push(s);
    count += s.split(/\s+/).length;
  }
  // Paragraphs of about eight sentences.
  const paras = [];
  for (let i = 0; i < out.length; i += 8) paras.push(out.slice(i, i + 8).join(' '));
  return paras.join('\n\n');
}

/** @param {number[]} xs */
const stats = (xs) => ({
  median: median(xs),
  iqr: /** @type {[number, number]} */ ([quantile(xs, 0.25), quantile(xs, 0.75)]),
  p90: quantile(xs, 0.9),
});
const ms = (/** @type {number} */ x) => x.toFixed(x < 1 ? 3 : 2);
const row = (/** @type {string} */ name, /** @type {number[]} */ xs) => {
  const s = stats(xs);
  return [name, ms(s.median), `${ms(s.iqr[0])}–${ms(s.iqr[1])}`, ms(s.p90)];
};

/** @returns {Promise<import('../lib/report.js').BenchResult>} */
export async function main() {
  const state = generateState(7);
  const context = state.facts.map((f) => ({
    id: f.fact_id,
    statement: f.statement,
    source: 'cso',
  }));
  const earlier = [1, 2, 3, 4].map((i) => windowText(100 + i, state.facts, WORDS));
  const text = windowText(7, state.facts, WORDS, earlier);
  const words = text.split(/\s+/).length;
  const input = { window_number: 5, text, context, remaining: REMAINING, earlier };
  const task = { objective: OBJECTIVE, remaining: REMAINING };

  // AIR's state after windows 2–4, so the step merges into a realistic state.
  let air = initialAirState();
  for (let w = 2; w <= 4; w++) {
    const signals = analyseWindow({
      window_number: w,
      text: /** @type {string} */ (earlier[w - 1]),
      context,
      remaining: REMAINING,
      earlier: earlier.slice(0, w - 1),
    });
    air = airStep(air, { signals, context, task }, DEFAULT_AIR_POLICY).state;
  }

  // The relay's state of the same facts, built in process as bench/relay/window.js does.
  const keyring = HmacKeyring.inMemory();
  const key = await keyring.current('bench');
  const seal = (/** @type {Uint8Array} */ b) => `hmac-sha256:${key.keyId}:${key.sign(b)}`;
  const session_id = 'rs-air-speed';
  const genesis = sessionGenesis({
    session_id,
    project: 'bench',
    mode: 'AGENTIC',
    objective: OBJECTIVE,
  });
  const ctx = (/** @type {number} */ n) => ({
    session_id,
    window_number: n,
    genesis,
    goal_state: goalFor('AGENTIC', {
      objective: OBJECTIVE,
      remaining: REMAINING,
      window_number: n,
    }),
  });
  /** @type {any} */
  let prior = null;
  for (const [k, c] of setupContributions(state).entries()) {
    const merged = mergeContribution(prior, /** @type {any} */ (c), ctx(k + 1));
    const { cso } = verifyCso(prior, merged.draft, {
      uncapturedClaims: [],
      retired: merged.retired,
    });
    prior = sealCso({ ...cso, verified: true }, seal);
  }
  const { contribution } = windowContribution(state, {
    restate: 244,
    newFacts: 10,
    newDecisions: 5,
    seed: 8,
  });
  const wctx = ctx(5);

  const signalsOnce = analyseWindow(input);
  const stepOnce = airStep(air, { signals: signalsOnce, context, task }, DEFAULT_AIR_POLICY);
  progress(
    SCOPE,
    `window: ${fmtInt(words)} words, ${signalsOnce.claims.length} claims (${signalsOnce.distortion_count} distortions, ${signalsOnce.fabrication_count} fabrications), repetition ${signalsOnce.repetition.ratio.toFixed(2)}; IAP ${stepOnce.tokens} tokens`,
  );

  /** @type {Record<string, number[]>} */
  const t = { dpe: [], air: [], merge: [], verify: [], seal: [], relay: [], extract: [] };
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const a0 = performance.now();
    const signals = analyseWindow(input);
    const a1 = performance.now();
    airStep(air, { signals, context, task }, DEFAULT_AIR_POLICY);
    const a2 = performance.now();
    const merged = mergeContribution(prior, /** @type {any} */ (contribution), wctx);
    const r1 = performance.now();
    const { cso } = verifyCso(prior, merged.draft, {
      uncapturedClaims: [],
      retired: merged.retired,
    });
    const r2 = performance.now();
    sealCso({ ...cso, verified: true }, seal);
    const r3 = performance.now();
    mergeExtracted(/** @type {any} */ (contribution), extractFromText(text, { window_number: 5 }));
    const r4 = performance.now();
    if (i < WARMUP) continue;
    t.dpe?.push(a1 - a0);
    t.air?.push(a2 - a1);
    t.merge?.push(r1 - a2);
    t.verify?.push(r2 - r1);
    t.seal?.push(r3 - r2);
    t.relay?.push(r3 - a2);
    t.extract?.push(r4 - r3);
    if ((i - WARMUP + 1) % 20 === 0) progress(SCOPE, `${i - WARMUP + 1}/${SAMPLES} samples`);
  }
  const dpe = median(t.dpe ?? []);
  const relay = median(t.relay ?? []);
  const airMs = median(t.air ?? []);
  return {
    name: 'speed',
    title: `The DPE and the IAP build for one window of ${fmtInt(words)} words against ${fmtInt(context.length)} context facts`,
    tables: [
      table(
        ['the window', 'value'],
        [
          ['words', fmtInt(words)],
          ['context facts (the CSO of bench/relay, seed 7)', fmtInt(context.length)],
          ['earlier windows measured against (2,000 words each)', earlier.length],
          ['claims read', signalsOnce.claims.length],
          [
            'distortions / fabrications found',
            `${signalsOnce.distortion_count} / ${signalsOnce.fabrication_count}`,
          ],
          ['6-gram repetition ratio', signalsOnce.repetition.ratio.toFixed(3)],
          ['signals truncated (over a DPE limit)', signalsOnce.truncated ? 'yes' : 'no'],
          ['IAP tokens (budget 512)', stepOnce.tokens],
        ],
      ),
      table(
        [`ms per window (${SAMPLES} samples, interleaved)`, 'median', 'IQR', 'p90'],
        [
          row('**analyseWindow (the DPE)**', t.dpe ?? []),
          row('**airStep (aggregate, detect, IAP build, budget fit)**', t.air ?? []),
          row('relay: mergeContribution (restates 244 of 1,000 facts)', t.merge ?? []),
          row('relay: verifyCso (verify + repair)', t.verify ?? []),
          row('relay: sealCso (canonical bytes, HMAC, schema check)', t.seal ?? []),
          row('**relay: merge + verify + seal**', t.relay ?? []),
          row('relay: extractFromText + mergeExtracted on the same text', t.extract ?? []),
          ['DPE ÷ relay merge + verify + seal (medians)', `${(dpe / relay).toFixed(1)}×`, '', ''],
          [
            'airStep ÷ relay merge + verify + seal (medians)',
            `${(airMs / relay).toFixed(2)}×`,
            '',
            '',
          ],
        ],
      ),
    ],
    data: {
      words,
      facts: context.length,
      claims: signalsOnce.claims.length,
      samples: SAMPLES,
      iapTokens: stepOnce.tokens,
      ...Object.fromEntries(Object.entries(t).map(([k, v]) => [k, stats(v)])),
    },
  };
}

runIfMain(import.meta.url, main);
