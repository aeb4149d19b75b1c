import type { Worker } from 'node:worker_threads';
import { CanonryError, type ContentHash } from '../../core/index.js';
import type { Decision } from '../../kernel/index.js';
import type { FromWorker, ToWorker } from './messages.js';
import { spawnEvaluator } from './spawn.js';
import { fromWire, toWire } from './wire-error.js';

/** What a pool needs from the server. */
export interface ValidatePoolOptions {
  /** Evaluation threads (at least 1). */
  readonly size: number;
  /** A registered bundle by hash, not compiled (the registry's `source`): the thread compiles it. */
  readonly source: (hash: ContentHash) => Promise<unknown>;
  /** Told when a thread fails (its requests are answered EVALUATOR_UNAVAILABLE). */
  readonly onThreadError?: (err: unknown) => void;
  /**
   * A thread that has not answered a request for this long is stopped as a crash would be (its
   * requests: 503). Not a verdict — the step budgets end every evaluation in tens of ms — but the
   * guard against a thread that hangs, so no request waits forever. Default 10 s.
   */
  readonly stuckMs?: number;
}

interface Pending {
  readonly resolve: (decision: Decision) => void;
  readonly reject: (err: CanonryError) => void;
  /** When it was sent (performance.now()), for the watchdog. */
  readonly sent: number;
}

/** One evaluation thread and the requests it has not answered. */
interface Thread {
  readonly worker: Worker;
  readonly pending: Map<number, Pending>;
  dead: boolean;
  /** Being stopped (terminate sent, exit not yet seen): it gets no new requests. */
  stopping: boolean;
  /** When its program had loaded (performance.now()); undefined while it loads. */
  ready: number | undefined;
}

/**
 * Evaluation threads for `POST /v1/validate`: a body's bytes go to a thread (transferred, not
 * copied), which parses, checks and decides it with the same functions as `Kernel.validate` and
 * answers with the decision; the caller's thread signs and audits it (`Kernel.attest`). So a request
 * holds the server's event loop only for its transport and its signature, never for its parse,
 * compile or evaluation. A thread that dies (a crash, `terminate`) answers its requests
 * EVALUATOR_UNAVAILABLE (503) and is replaced by the next request. Threads start on first use.
 */
export class ValidatePool {
  readonly #options: ValidatePoolOptions;
  readonly #threads: (Thread | undefined)[];
  #nextId = 0;
  #closed = false;
  #watchdog: NodeJS.Timeout | undefined;

  constructor(options: ValidatePoolOptions) {
    if (!Number.isSafeInteger(options.size) || options.size < 1) {
      throw new CanonryError('INVALID_ARGUMENT', 'an evaluation pool needs at least one thread');
    }
    this.#options = options;
    this.#threads = new Array(options.size).fill(undefined);
  }

  /** Threads running now (started, not dead). */
  get running(): number {
    return this.#threads.filter((t) => t !== undefined && !t.dead).length;
  }

  /**
   * Decides one request body. Rejects with the typed errors `Kernel.validate` throws (INVALID_BODY,
   * INVALID_HASH, UNKNOWN_PROTOCOL, INVALID_PROTOCOL, the body parser's), or EVALUATOR_UNAVAILABLE.
   */
  decide(bytes: Uint8Array): Promise<Decision> {
    if (this.#closed) {
      return Promise.reject(new CanonryError('EVALUATOR_UNAVAILABLE', 'the server is closing'));
    }
    const thread = this.#pick();
    const id = ++this.#nextId;
    const buffer = ownBuffer(bytes);
    this.#watch();
    return new Promise((resolve, reject) => {
      thread.pending.set(id, { resolve, reject, sent: performance.now() });
      const message: ToWorker = { type: 'decide', id, bytes: buffer };
      thread.worker.postMessage(message, [buffer]);
    });
  }

  /** Stops every thread as a crash would (their requests: EVALUATOR_UNAVAILABLE); new ones start on demand. */
  async terminate(): Promise<void> {
    await Promise.all(this.#threads.map((t) => (t ? stop(t) : undefined)));
  }

  /** Stops every thread for good; later requests are EVALUATOR_UNAVAILABLE. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#watchdog);
    await this.terminate();
  }

  /** Checks, while requests are in flight, that no thread sits on one past `stuckMs`. */
  #watch(): void {
    if (this.#watchdog !== undefined) return;
    const stuckMs = this.#options.stuckMs ?? 10_000;
    this.#watchdog = setInterval(
      () => {
        const now = performance.now();
        let inFlight = 0;
        for (const thread of this.#threads) {
          if (thread === undefined || thread.dead) continue;
          inFlight += thread.pending.size;
          if (thread.ready === undefined || thread.stopping) continue;
          // Map order is send order: the first is the oldest.
          const oldest = thread.pending.values().next().value;
          if (oldest !== undefined && now - Math.max(oldest.sent, thread.ready) > stuckMs) {
            this.#options.onThreadError?.(
              new Error(`an evaluation thread held a request for more than ${stuckMs} ms`),
            );
            void stop(thread);
          }
        }
        if (inFlight === 0) {
          clearInterval(this.#watchdog);
          this.#watchdog = undefined;
        }
      },
      Math.max(10, Math.min(1_000, stuckMs / 2)),
    );
    this.#watchdog.unref();
  }

  /** The live thread with the fewest requests in flight, starting one in an empty slot. */
  #pick(): Thread {
    let best: Thread | undefined;
    for (let slot = 0; slot < this.#threads.length; slot++) {
      let thread = this.#threads[slot];
      if (thread === undefined || thread.dead || thread.stopping) {
        thread = this.#start(slot);
        this.#threads[slot] = thread;
      }
      if (best === undefined || thread.pending.size < best.pending.size) best = thread;
      if (best.pending.size === 0) break;
    }
    return best as Thread;
  }

  #start(slot: number): Thread {
    const worker = spawnEvaluator();
    worker.unref();
    const thread: Thread = {
      worker,
      pending: new Map(),
      dead: false,
      stopping: false,
      ready: undefined,
    };
    const fail = (err?: unknown) => {
      if (thread.dead) return;
      thread.dead = true;
      if (this.#threads[slot] === thread) this.#threads[slot] = undefined;
      if (err !== undefined) this.#options.onThreadError?.(err);
      const unavailable = new CanonryError('EVALUATOR_UNAVAILABLE');
      for (const p of thread.pending.values()) p.reject(unavailable);
      thread.pending.clear();
    };
    worker.on('message', (message: FromWorker) => this.#answer(thread, message));
    worker.on('error', fail);
    worker.on('messageerror', fail);
    worker.on('exit', () => fail());
    return thread;
  }

  #answer(thread: Thread, message: FromWorker): void {
    if (message.type === 'ready') {
      thread.ready = performance.now();
      return;
    }
    if (message.type === 'source') {
      const hash = message.hash;
      this.#options.source(hash).then(
        (bundle) => post(thread, { type: 'source', hash, bundle }),
        (err) => post(thread, { type: 'source', hash, error: toWire(err) }),
      );
      return;
    }
    const pending = thread.pending.get(message.id);
    if (pending === undefined) return;
    thread.pending.delete(message.id);
    if (message.type === 'decided') pending.resolve(message.decision);
    else pending.reject(fromWire(message.error));
  }
}

/** Stops a thread; its exit answers its requests (see `#start`). */
async function stop(thread: Thread): Promise<void> {
  thread.stopping = true;
  await thread.worker.terminate();
}

function post(thread: Thread, message: ToWorker): void {
  if (!thread.dead) thread.worker.postMessage(message);
}

/**
 * An ArrayBuffer holding exactly `bytes`, safe to transfer: the body's own buffer when it has one,
 * a copy when it is a slice of a shared one (Node pools small buffers; transferring the pool would
 * detach every other buffer in it).
 */
function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  const { buffer } = bytes;
  if (
    buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === buffer.byteLength
  ) {
    return buffer;
  }
  return new Uint8Array(bytes).buffer;
}
