// @ts-check
/**
 * The side-by-side harness: every target of a bench runs in the same process, in alternating order,
 * for several rounds, and is compared to its baseline round by round (a ratio, never an absolute).
 */
import { Bench } from 'tinybench';

/**
 * One thing to time. `fn(i)` handles ONE input; `i` increases by one per call, so a target picks
 * `inputs[i & MASK]` and cycles through its pre-generated inputs.
 * @typedef {{ name: string, fn: (i: number) => unknown, async?: boolean }} Target
 */

/**
 * @typedef {object} Measured
 * @property {number} opsPerSec median over the timed rounds
 * @property {number[]} perRound ops/s of each timed round, in round order
 */

/**
 * @typedef {object} CompareOptions
 * @property {number} [rounds] timed rounds, each running every target once (default 15)
 * @property {number} [time] timed milliseconds per target per round (default 400)
 * @property {number} [warmup] milliseconds per target of the untimed first round (default 500)
 * @property {number} [batch] calls of `fn` per timed iteration, so the timer's own cost is negligible
 */

/** Keeps results alive so the engine cannot drop a call whose value is never used. */
export let sink = /** @type {unknown} */ (undefined);

/** One progress line on stderr. @param {string} scope @param {string} message */
export function progress(scope, message) {
  process.stderr.write(`${scope}: ${message}\n`);
}

/** 41203.7 → "41,204". @param {number} n */
export const fmtInt = (n) => Math.round(n).toLocaleString('en-US');

/** The q-quantile (0…1) by linear interpolation. @param {number[]} values @param {number} q */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const lo = sorted[Math.floor(at)] ?? Number.NaN;
  const hi = sorted[Math.ceil(at)] ?? Number.NaN;
  return lo + (hi - lo) * (at - Math.floor(at));
}

/** @param {number[]} values */
export const median = (values) => quantile(values, 0.5);

/**
 * Times one target for `time` ms; returns its ops/s.
 * @param {Target} target @param {number} time @param {number} batch
 */
async function timeOnce(target, time, batch) {
  let i = 0;
  const { fn } = target;
  const run = target.async
    ? async () => {
        for (let k = 0; k < batch; k++) sink = await fn(i++);
      }
    : () => {
        for (let k = 0; k < batch; k++) sink = fn(i++);
      };
  const bench = new Bench({ time, warmupTime: 20, warmupIterations: 4, throws: true });
  bench.add(target.name, run);
  await bench.run();
  const result = bench.tasks[0]?.result;
  if (!result || result.error) throw result?.error ?? new Error(`${target.name}: no result`);
  return (batch * 1000) / result.latency.mean;
}

/**
 * Runs every target once untimed (warm-up), then `rounds` times in short slices, alternating the
 * order each round so neither side always runs first. Many short rounds rather than a few long
 * ones: on a shared machine a burst of outside load then spoils a few rounds, not the median.
 * Progress goes to stderr, one line per run.
 * @param {string} scope @param {Target[]} targets @param {CompareOptions} [options]
 * @returns {Promise<Record<string, Measured>>}
 */
export async function compare(scope, targets, options = {}) {
  const { rounds, time, warmup, batch } = {
    rounds: 15,
    time: 400,
    warmup: 500,
    batch: 64,
    ...options,
  };
  for (const target of targets) {
    const ops = await timeOnce(target, warmup, batch);
    progress(scope, `warm-up · ${target.name}… ${fmtInt(ops)} ops/s`);
  }
  /** @type {Record<string, number[]>} */
  const runs = Object.fromEntries(targets.map((t) => [t.name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    for (const target of order) {
      const ops = await timeOnce(target, time, batch);
      runs[target.name]?.push(ops);
      progress(scope, `round ${round + 1}/${rounds} · ${target.name}… ${fmtInt(ops)} ops/s`);
    }
  }
  return Object.fromEntries(
    Object.entries(runs).map(([name, ops]) => [name, { opsPerSec: median(ops), perRound: ops }]),
  );
}

/** Per-round ratios `a / b`; each round's two runs were close in time, so drift cancels. */
function roundRatios(
  /** @type {Record<string, Measured>} */ results,
  /** @type {string} */ a,
  /** @type {string} */ b,
) {
  const rb = results[b]?.perRound ?? [];
  return (results[a]?.perRound ?? []).map((x, r) => x / (rb[r] ?? Number.NaN));
}

/**
 * The median over rounds of `a / b`.
 * @param {Record<string, Measured>} results @param {string} a @param {string} b
 */
export const ratio = (results, a, b) => median(roundRatios(results, a, b));

/**
 * The interquartile range of the per-round ratios `a / b`: how much to trust {@link ratio}.
 * @param {Record<string, Measured>} results @param {string} a @param {string} b
 * @returns {[number, number]}
 */
export function ratioSpread(results, a, b) {
  const ratios = roundRatios(results, a, b);
  return [quantile(ratios, 0.25), quantile(ratios, 0.75)];
}
