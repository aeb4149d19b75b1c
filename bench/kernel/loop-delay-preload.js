// @ts-check
/**
 * Loaded into `canonry serve` by bench/kernel/worst-case.js (`--import`): measures the server's own
 * event-loop delay at 1 ms resolution and, on SIGUSR2, writes the longest delay since the last
 * signal to stderr (`loop-delay-max <ms>`) and starts over. It sees what a request cost the
 * server's event loop, without the scheduling noise a client thread on the same two cores adds.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();
process.on('SIGUSR2', () => {
  process.stderr.write(`loop-delay-max ${(histogram.max / 1e6).toFixed(3)}\n`);
  histogram.reset();
});
