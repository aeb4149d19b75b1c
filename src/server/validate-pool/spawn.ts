import type { Worker } from 'node:worker_threads';
import { spawnThread } from '../../core/index.js';

/** The evaluation thread's program: `worker.js` beside this file, or `worker.ts` under the tests. */
const ENTRY = new URL(
  import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js',
  import.meta.url,
);

/** Starts one evaluation thread. */
export function spawnEvaluator(): Worker {
  return spawnThread(ENTRY);
}
