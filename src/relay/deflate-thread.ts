import { Worker } from 'node:worker_threads';
import { deflateRawSync } from 'node:zlib';
import { ANSWER_LIMITS } from './limits.js';

/**
 * A raw answer's deflate, done on a thread of its own while the window's own work goes on.
 *
 * A window journals its model's raw answer deflated (`answers.ts`): a 1,000-fact answer is 125 KB
 * or more of text and ~0.5 ms of deflate, half as much as the window's whole merge. The answer is
 * known before the merge starts, so `completeWindow` starts its deflate first and takes it when it
 * builds the record. The caller encodes the answer's two sides as UTF-8 into the job's shared
 * buffer (~0.05 ms for 125 KB) and posts only the buffer: posting the text itself cost less on the
 * caller's side, but the thread got a 125 KB message ~1 ms after it was posted (a copy into fresh
 * memory, page by page), and the deflate ended after the window's own work. The thread
 * answers through shared memory: the taker waits on an `Atomics` word, not on the event loop, so
 * taking a finished deflate costs no turn of the loop. Taken at once, a deflate costs the
 * hand-over (~0.1 ms) more than on the caller's thread; which is why `journaledAnswer`, taken at
 * once, never uses the thread.
 *
 * The result is the same bytes either way (the same zlib, the same level). With no thread ready
 * (the first long answer of a process starts it) or below {@link OFF_THREAD_FROM_CHARS}, the
 * caller deflates on its own thread; when the thread fails, or does not answer within 100 ms and a
 * millisecond a 10 KB (at three bytes a character), `take` does (a thread that did not answer is
 * stopped; another starts after a pause). Two job buffers are kept for the next jobs, the largest
 * seen: at most ~7 MB, for two answers at the bound of `ANSWER_LIMITS`.
 */

/** The zlib level of every answer's deflate, here or on the thread. */
const LEVEL = 1;

/** Inputs of fewer characters are deflated by the caller: the hand-over would cost what it saves. */
export const OFF_THREAD_FROM_CHARS = 16_384;

/** A deflate started with {@link deflateSoon}. */
export interface Deflation {
  /** The deflated bytes as base64; waits for the thread when it is not done. Call it once. */
  take(): string;
}

/** Where a job stands: the first word of its shared buffer. */
const PENDING = 0;
const DONE = 1;
const FAILED = 2;
/** Given up on by the taker (the thread did not answer in time): the thread's answer is dropped. */
const ABANDONED = 3;

/**
 * A job's buffer: four words (state, input bytes, output offset, output length), then the input as
 * UTF-8 (written by the caller) and the output as base64 (written by the thread).
 */
const HEAD_BYTES = 16;

/**
 * The thread's program: evaluated source rather than a module file, so the same code runs from the
 * compiled package and from the TypeScript sources under the test runner.
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { deflateRawSync } = require('node:zlib');
parentPort.on('message', (sab) => {
  if (sab === 'close') {
    parentPort.close();
    return;
  }
  const head = new Int32Array(sab, 0, 4);
  let code = ${FAILED};
  try {
    const text = deflateRawSync(Buffer.from(sab, ${HEAD_BYTES}, head[1]), { level: ${LEVEL} }).toString('base64');
    const at = head[2];
    if (at + text.length <= sab.byteLength) {
      Buffer.from(sab, at, text.length).write(text, 'latin1');
      head[3] = text.length;
      code = ${DONE};
    }
  } catch {}
  if (Atomics.compareExchange(head, 0, ${PENDING}, code) === ${PENDING}) Atomics.notify(head, 0);
});
Atomics.store(new Int32Array(workerData.ready), 0, 1);
`;

interface Thread {
  readonly worker: Worker;
  /** Set to 1 by the thread once it listens. */
  readonly ready: Int32Array;
}

let thread: Thread | undefined;
/**
 * After a thread died or hung: no new one before this time (the pause doubles with each death
 * since the last job a thread finished, 0.1 s to 30 s).
 */
let retryAt = 0;
let deaths = 0;

/** Buffers of finished jobs, kept for the next ones (a window's answer is the same size as the last). */
const spare: SharedArrayBuffer[] = [];
const SPARE_KEPT = 2;

/**
 * Starts deflating `a` then `b` (as UTF-8, one input; raw, level 1, as base64) on the thread, or
 * returns undefined when the caller should deflate them itself (short, or no thread ready).
 */
export function deflateSoon(a: string, b: string): Deflation | undefined {
  if (a.length + b.length < OFF_THREAD_FROM_CHARS) return;
  const ready = readyThread();
  if (!ready) return;
  // Room for the input at its longest (three bytes a UTF-16 unit) and for its deflate's base64 at
  // its longest (stored blocks: 5 bytes of header each 16 KB).
  const most = 3 * (a.length + b.length);
  const outAt = HEAD_BYTES + most;
  const size = outAt + 4 * Math.ceil((most + 5 * Math.ceil(most / 16_384) + 64) / 3);
  let sab = takeSpare(size);
  try {
    sab ??= new SharedArrayBuffer(size);
  } catch {
    return; // No memory for it now: the caller deflates on its own thread.
  }
  const head = new Int32Array(sab, 0, 4);
  head[0] = PENDING;
  const bytes = Buffer.from(sab);
  const n = bytes.write(a, HEAD_BYTES, 'utf8');
  const length = n + bytes.write(b, HEAD_BYTES + n, 'utf8');
  head[1] = length;
  head[2] = outAt;
  try {
    ready.worker.postMessage(sab);
  } catch {
    giveBack(sab);
    return;
  }
  let taken = false;
  return {
    take() {
      if (taken) throw new Error('a deflation is taken once');
      taken = true;
      // Generous: level 1 deflates tens of MB a second on any host this runs on.
      Atomics.wait(head, 0, PENDING, 100 + most / 10_000);
      const code = Atomics.compareExchange(head, 0, PENDING, ABANDONED);
      if (code === DONE) {
        const text = bytes.toString('latin1', outAt, outAt + head[3]!);
        giveBack(sab);
        deaths = 0;
        return text;
      }
      if (code === PENDING) hung(ready);
      // Failed, or abandoned (the thread may still write its output: that buffer is not reused).
      // The input is there, encoded: the caller deflates it as it stands.
      const text = deflated(bytes.subarray(HEAD_BYTES, HEAD_BYTES + length));
      if (code === FAILED) giveBack(sab);
      return text;
    },
  };
}

const deflated = (bytes: Uint8Array): string =>
  deflateRawSync(bytes, { level: LEVEL }).toString('base64');

/** Deflates `a` then `b` (as UTF-8, one input; raw, level 1, as base64) on the caller's thread. */
export function deflateHere(a: string, b: string): string {
  return deflated(utf8Of(a, b));
}

/**
 * Where an answer's two sides are encoded before they are deflated: one buffer kept for the
 * process (at most three bytes a character of the longest answer), so a window pays neither a
 * fresh allocation's page faults for its 100+ KB nor a copy to join the sides.
 */
let scratch = Buffer.allocUnsafeSlow(0);

/** The most the scratch buffer grows to: an answer within `ANSWER_LIMITS`, all three-byte. */
const SCRATCH_BYTES = 3 * ANSWER_LIMITS.answerChars;

/** `a` then `b` as UTF-8 in the scratch buffer (past its bound, their own); valid until next call. */
function utf8Of(a: string, b: string): Buffer {
  const most = 3 * (a.length + b.length);
  if (scratch.length < most) {
    if (most > SCRATCH_BYTES)
      return Buffer.concat([Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')]);
    scratch = Buffer.allocUnsafeSlow(Math.min(SCRATCH_BYTES, Math.max(most, 2 * scratch.length)));
  }
  const n = scratch.write(a, 0, 'utf8');
  return scratch.subarray(0, n + scratch.write(b, n, 'utf8'));
}

/** The thread when it listens; else undefined, starting it when none runs (and none is paused). */
function readyThread(): Thread | undefined {
  if (thread) return Atomics.load(thread.ready, 0) === 1 ? thread : undefined;
  if (Date.now() < retryAt) return undefined;
  try {
    const ready = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(THREAD, { eval: true, workerData: { ready: ready.buffer } });
    // The thread must not keep a process alive on its own.
    worker.unref();
    const started: Thread = { worker, ready };
    const died = () => {
      if (thread !== started) return;
      thread = undefined;
      pause();
    };
    worker.on('error', died);
    worker.on('exit', died);
    thread = started;
  } catch {
    pause();
  }
  return undefined;
}

function pause(): void {
  retryAt = Date.now() + Math.min(30_000, 100 * 2 ** deaths);
  deaths++;
}

/**
 * Asks a thread to end once the job in hand is done. Never `terminate`: a thread stopped inside a
 * synchronous deflate brings the whole process down as it is torn down (Node's zlib cleanup, a
 * fatal error seen about one stop in six with a job in flight). Its answer to that job, if any
 * caller still waits, is kept; an abandoned one is dropped, as ever.
 */
function retire(old: Thread): Promise<void> {
  const exited = new Promise<void>((done) => old.worker.once('exit', () => done()));
  old.worker.postMessage('close');
  return exited;
}

/** A thread that did not answer in time is retired; a new one starts after the pause. */
function hung(stuck: Thread): void {
  if (thread !== stuck) return;
  thread = undefined;
  pause();
  void retire(stuck);
}

/** The smallest kept buffer that fits `size` bytes. */
function takeSpare(size: number): SharedArrayBuffer | undefined {
  let at = -1;
  for (let i = 0; i < spare.length; i++) {
    const length = spare[i]!.byteLength;
    if (length >= size && (at < 0 || length < spare[at]!.byteLength)) at = i;
  }
  return at < 0 ? undefined : spare.splice(at, 1)[0];
}

function giveBack(sab: SharedArrayBuffer): void {
  // The largest are kept: a buffer that fits a long answer fits the shorter ones too.
  if (spare.length < SPARE_KEPT) spare.push(sab);
  else {
    const smallest = spare.reduce((at, s, i) => (s.byteLength < spare[at]!.byteLength ? i : at), 0);
    if (spare[smallest]!.byteLength < sab.byteLength) spare[smallest] = sab;
  }
}

/**
 * Starts the thread and resolves once it listens (false when it cannot start). Not needed — the
 * first long answer starts it — but a process that wants its first window's deflate off its
 * thread too (and the tests) can call it first.
 */
export async function startDeflateThread(): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    if (readyThread()) return true;
    if (!thread) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
}

/** Stops the thread (the next long answer starts another); jobs in flight are deflated by `take`. */
export async function stopDeflateThread(): Promise<void> {
  const running = thread;
  thread = undefined;
  if (running) await retire(running);
}
