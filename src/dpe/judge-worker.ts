import { parentPort } from 'node:worker_threads';
import { type AnalyseOptions, analyseWindow } from './analyse.js';
import type { DpeInput } from './types.js';

/** What the judge thread is asked: one window, by the caller's number for it. */
export interface JudgeRequest {
  readonly id: number;
  readonly input: DpeInput;
  readonly options?: AnalyseOptions;
}

/**
 * The DPE's thread: analyses each window it is sent, in order, and answers with its signals or
 * with the failure the engine threw (its message), so a window's text of 262,144 characters against
 * a thousand facts — most of a second of work — never holds the server's thread.
 */
const port = parentPort;
if (port === null) throw new Error('the DPE judge runs only as a worker thread');
port.on('message', ({ id, input, options }: JudgeRequest) => {
  try {
    port.postMessage({ id, signals: analyseWindow(input, options) });
  } catch (err) {
    port.postMessage({ id, failed: err instanceof Error ? err.message : String(err) });
  }
});
