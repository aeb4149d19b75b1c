import type { Worker } from 'node:worker_threads';
import { spawnThread } from '../core/index.js';
import { type AnalyseOptions, analyseWindow } from './analyse.js';
import type { DpeJudge } from './judge.js';
import type { JudgeRequest } from './judge-worker.js';
import type { DpeInput, WindowSignals } from './types.js';

const ENTRY = new URL(
  import.meta.url.endsWith('.ts') ? './judge-worker.ts' : './judge-worker.js',
  import.meta.url,
);

type Answer = { id: number; signals: WindowSignals } | { id: number; failed: string };

interface Waiting {
  readonly input: DpeInput;
  readonly options: AnalyseOptions | undefined;
  readonly resolve: (s: WindowSignals) => void;
  readonly reject: (e: unknown) => void;
}

/** The process's one judge thread, while it runs, and the windows it has in hand, by number. */
let thread: Worker | undefined;
let next = 0;
const waiting = new Map<number, Waiting>();

/** A window analysed on the caller's thread: the same engine, so the same signals or error. */
function here(w: Waiting): void {
  try {
    w.resolve(analyseWindow(w.input, w.options));
  } catch (err) {
    w.reject(err);
  }
}

/** The thread is gone: the windows it had are analysed here; the next window starts a new one. */
function lost(dead: Worker): void {
  if (thread !== dead) return;
  thread = undefined;
  const orphans = [...waiting.values()];
  waiting.clear();
  for (const w of orphans) here(w);
}

function answered(w: Worker, answer: Answer): void {
  const job = waiting.get(answer.id);
  if (!job) return;
  waiting.delete(answer.id);
  // Only a thread with windows in hand keeps the process alive (their callers await them).
  if (waiting.size === 0) w.unref();
  if ('signals' in answer) job.resolve(answer.signals);
  // The engine threw there: it throws the same here, with its own error.
  else here(job);
}

function started(): Worker | undefined {
  if (thread) return thread;
  try {
    const w = spawnThread(ENTRY);
    w.unref();
    w.on('message', (answer: Answer) => answered(w, answer));
    w.on('error', () => lost(w));
    w.on('exit', () => lost(w));
    w.on('messageerror', () => {
      lost(w);
      void w.terminate();
    });
    thread = w;
    return w;
  } catch {
    return undefined;
  }
}

/**
 * The deterministic engine ({@link analyseWindow}) on a thread of its own: the same signals, the
 * same name, without holding the caller's thread while it works (a window of 262,144 characters
 * against a thousand facts is most of a second). One thread for the process, started with the
 * first window and keeping the process alive only while it has windows in hand; they are analysed
 * in order. A thread that cannot start, or dies with windows in hand, fails none of them: they are
 * analysed on the caller's thread, and the next window starts a new thread.
 */
export function threadedJudge(options?: AnalyseOptions): DpeJudge {
  return {
    name: 'deterministic',
    judge: (input) =>
      new Promise<WindowSignals>((resolve, reject) => {
        const job: Waiting = { input, options, resolve, reject };
        const w = started();
        if (!w) return here(job);
        const id = next++;
        waiting.set(id, job);
        w.ref();
        const request: JudgeRequest = { id, input, ...(options ? { options } : {}) };
        try {
          w.postMessage(request);
        } catch {
          waiting.delete(id);
          here(job);
        }
      }),
  };
}

/** Ends the judge thread (its windows in hand are analysed here); the next window starts another. */
export async function stopJudgeThread(): Promise<void> {
  const w = thread;
  if (!w) return;
  lost(w);
  await w.terminate();
}
