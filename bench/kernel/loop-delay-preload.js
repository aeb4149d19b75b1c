// @ts-check
/**
 * Loaded into `canonry serve` by bench/kernel/worst-case.js (`--import`): measures the server's own
 * event-loop delay at 1 ms resolution and, on SIGUSR2, writes the longest delay since the last
 * signal to stderr (`loop-delay-max <ms>`) and starts over. It sees what a request cost the
 * server's event loop, without the scheduling noise a client thread on the same two cores adds.
 * With `CANONRY_BENCH_SCHEDSTAT=1` the same line also says how long the main thread ran and how
 * long it waited for a CPU since the last signal (`ran <ms> waited <ms>`, Linux schedstat): a delay
 * on a loaded machine is often the wait, not the thread's own work.
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const schedstat = () => {
    try {
      const [run, wait] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8')
        .split(' ')
        .map(Number);
      return { run: run ?? 0, wait: wait ?? 0 };
    } catch {
      return undefined;
    }
  };
  let last = process.env.CANONRY_BENCH_SCHEDSTAT ? schedstat() : undefined;
  process.on('SIGUSR2', () => {
    const now = process.env.CANONRY_BENCH_SCHEDSTAT ? schedstat() : undefined;
    const ms = (/** @type {number} */ ns) => (ns / 1e6).toFixed(1);
    const thread =
      now && last ? ` ran ${ms(now.run - last.run)} waited ${ms(now.wait - last.wait)}` : '';
    process.stderr.write(`loop-delay-max ${(histogram.max / 1e6).toFixed(3)}${thread}\n`);
    histogram.reset();
    last = now;
  });
}
