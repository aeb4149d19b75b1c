// @ts-check
/**
 * How long one window's DPE holds the server's event loop, at the relay's limits: a window of
 * 262,144 characters (the most `completeWindow` takes), measured against four earlier windows of the
 * same size and the 1,000 facts of bench/relay's generated CSO (seed 7). The engine on the caller's
 * thread (`deterministicJudge`) against the relay's default, the same engine on a thread of its own
 * (`threadedJudge`), interleaved sample by sample: the judge's wall time, and the longest gap a 1 ms
 * timer on the caller's thread saw while the window was judged (what every other request waits).
 * Both answer the same signals (checked on the first sample).
 */
import { isDeepStrictEqual } from 'node:util';
import { deterministicJudge, stopJudgeThread, threadedJudge } from 'canonry/dpe';
import { fmtInt, median, progress, quantile } from '../lib/measure.js';
import { runIfMain, table } from '../lib/report.js';
import { generateState } from '../relay/lib/cso.js';
import { windowText } from './speed.js';

const SCOPE = 'air/stall';
const QUICK = Boolean(process.env.BENCH_QUICK);
const WARMUP = QUICK ? 1 : 3;
const SAMPLES = QUICK ? 4 : 15;
const MAX_CHARS = 262_144;
const WORDS = 48_000;

/** @param {import('canonry/dpe').DpeJudge} judge @param {import('canonry/dpe').DpeInput} input */
async function judged(judge, input) {
  let last = performance.now();
  let stall = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
  }, 1);
  const t0 = performance.now();
  const signals = await judge.judge(input);
  const took = performance.now() - t0;
  clearInterval(tick);
  stall = Math.max(stall, performance.now() - last);
  return { signals, took, stall };
}

/** @param {number[]} xs */
const cells = (xs) => [
  median(xs).toFixed(1),
  `${quantile(xs, 0.25).toFixed(1)}–${quantile(xs, 0.75).toFixed(1)}`,
  Math.max(...xs).toFixed(1),
];

/** @returns {Promise<import('../lib/report.js').BenchResult>} */
export async function main() {
  const state = generateState(7);
  const context = state.facts.map((f) => ({
    id: f.fact_id,
    statement: f.statement,
    source: 'cso',
  }));
  const earlier = [1, 2, 3, 4].map((i) =>
    windowText(100 + i, state.facts, WORDS).slice(0, MAX_CHARS),
  );
  const text = windowText(7, state.facts, WORDS, earlier).slice(0, MAX_CHARS);
  const input = {
    window_number: 5,
    text,
    context,
    remaining: ['migrate service group 1'],
    earlier,
  };
  const here = deterministicJudge();
  const threaded = threadedJudge();
  progress(
    SCOPE,
    `window: ${fmtInt(text.length)} characters against ${fmtInt(context.length)} facts`,
  );

  /** @type {Record<'hereTook' | 'hereStall' | 'threadTook' | 'threadStall', number[]>} */
  const t = { hereTook: [], hereStall: [], threadTook: [], threadStall: [] };
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const a = await judged(here, input);
    const b = await judged(threaded, input);
    if (i === 0 && !isDeepStrictEqual(a.signals, b.signals))
      throw new Error('the threaded judge answered other signals than the engine on this thread');
    if (i < WARMUP) continue;
    t.hereTook.push(a.took);
    t.hereStall.push(a.stall);
    t.threadTook.push(b.took);
    t.threadStall.push(b.stall);
    progress(SCOPE, `${i - WARMUP + 1}/${SAMPLES} samples`);
  }
  await stopJudgeThread();
  const ratio = median(t.hereStall) / median(t.threadStall);
  return {
    name: 'stall',
    title: `How long one window's DPE holds the event loop: ${fmtInt(text.length)} characters against ${fmtInt(context.length)} facts`,
    tables: [
      table(
        [`ms per window (${SAMPLES} samples, interleaved)`, 'median', 'IQR', 'max'],
        [
          ['on the caller’s thread: the judge’s wall time', ...cells(t.hereTook)],
          ['on the caller’s thread: **longest event-loop stall**', ...cells(t.hereStall)],
          ['on its own thread (the relay’s default): wall time', ...cells(t.threadTook)],
          ['on its own thread: **longest event-loop stall**', ...cells(t.threadStall)],
          ['stall on the caller’s thread ÷ on its own (medians)', `${ratio.toFixed(0)}×`, '', ''],
        ],
      ),
    ],
    data: { characters: text.length, facts: context.length, samples: SAMPLES, ...t },
  };
}

runIfMain(import.meta.url, main);
