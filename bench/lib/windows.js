// @ts-check
/**
 * Side by side for I/O-bound targets (durable appends, inserts, checkpoints): each target runs for a
 * fixed window of wall-clock time and reports how many operations it completed, so a target may run
 * many producers at once (concurrency) or a single awaited loop. Rounds alternate the order, and the
 * result has the shape of `compare` in measure.js, so `ratio` and `ratioSpread` apply unchanged.
 */
import { fmtInt, median, progress } from './measure.js';

/**
 * One thing to time. `run(deadline)` keeps working until `performance.now() >= deadline`, then
 * resolves to the number of operations it completed (work started before the deadline is finished
 * and counted; the window is measured until `run` resolves).
 * @typedef {{ name: string, run: (deadline: number) => Promise<number> }} WindowTarget
 */

/**
 * @typedef {object} WindowOptions
 * @property {number} [rounds] timed rounds, each running every target once (default 9)
 * @property {number} [time] milliseconds per target per round (default 1,500)
 * @property {number} [warmup] milliseconds per target of the untimed first round (default 1,000)
 * @property {(round: number) => Promise<void> | void} [between] called before every window, untimed
 */

/**
 * Runs one target for `time` ms; returns its ops/s over the time it really took.
 * @param {WindowTarget} target @param {number} time @param {WindowOptions['between']} between
 * @param {number} round
 */
async function window(target, time, between, round) {
  if (between) await between(round);
  const start = performance.now();
  const ops = await target.run(start + time);
  const elapsed = performance.now() - start;
  return { ops, opsPerSec: (ops * 1000) / elapsed };
}

/**
 * Every target once untimed (warm-up), then `rounds` rounds alternating the order. Progress goes to
 * stderr, one line per window.
 * @param {string} scope @param {WindowTarget[]} targets @param {WindowOptions} [options]
 * @returns {Promise<Record<string, import('./measure.js').Measured>>}
 */
export async function compareWindows(scope, targets, options = {}) {
  let { rounds = 9, time = 1_500, warmup = 1_000, between } = options;
  // BENCH_QUICK=1: a smoke test of the bench itself (2 short rounds); its numbers mean nothing.
  if (process.env.BENCH_QUICK) [rounds, time, warmup] = [2, Math.min(time, 400), 200];
  for (const target of targets) {
    const { ops, opsPerSec } = await window(target, warmup, between, -1);
    progress(scope, `warm-up · ${target.name}… ${fmtInt(ops)} ops, ${fmtInt(opsPerSec)} ops/s`);
  }
  /** @type {Record<string, number[]>} */
  const runs = Object.fromEntries(targets.map((t) => [t.name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    for (const target of order) {
      const { ops, opsPerSec } = await window(target, time, between, round);
      runs[target.name]?.push(opsPerSec);
      progress(
        scope,
        `round ${round + 1}/${rounds} · ${target.name}… ${fmtInt(ops)} ops, ${fmtInt(opsPerSec)} ops/s`,
      );
    }
  }
  return Object.fromEntries(
    Object.entries(runs).map(([name, ops]) => [name, { opsPerSec: median(ops), perRound: ops }]),
  );
}

/**
 * `producers` concurrent loops, each awaiting `op(producer, i)` until the deadline; resolves to the
 * total number of completed operations.
 * @param {number} producers @param {number} deadline
 * @param {(producer: number, i: number) => Promise<unknown>} op
 */
export async function concurrently(producers, deadline, op) {
  let done = 0;
  await Promise.all(
    Array.from({ length: producers }, async (_, p) => {
      for (let i = 0; performance.now() < deadline; i++) {
        await op(p, i);
        done++;
      }
    }),
  );
  return done;
}
