// Tampering with the SQLite store's background writer threads (worker_threads), for the suites that
// need a thread to die with a batch unanswered: a commit whose answer is lost, or a batch lost on
// its way.
import { Worker } from 'node:worker_threads';
import { vi } from 'vitest';

/**
 * Replies of the writer threads started meanwhile are dropped while `drop.on`, and the batches
 * posted while `swallow.on` never reach their thread: a commit whose answer is lost, and a batch
 * lost on its way. `threads` are the threads started.
 */
export function tamperWriterThreads() {
  const drop = { on: false };
  const swallow = { on: false };
  const threads: Worker[] = [];
  const on = Worker.prototype.on;
  const onSpy = vi.spyOn(Worker.prototype, 'on').mockImplementation(function (
    this: Worker,
    event: string | symbol,
    listener: (...args: unknown[]) => void,
  ) {
    if (event !== 'message') return on.call(this, event, listener);
    threads.push(this);
    return on.call(this, event, (...args: unknown[]) => {
      if (!drop.on) listener(...args);
    });
  } as typeof Worker.prototype.on);
  const post = Worker.prototype.postMessage;
  const postSpy = vi.spyOn(Worker.prototype, 'postMessage').mockImplementation(function (
    this: Worker,
    message: unknown,
  ) {
    if (swallow.on && message !== 'close') return;
    post.call(this, message);
  });
  const restore = () => {
    onSpy.mockRestore();
    postSpy.mockRestore();
  };
  return { drop, swallow, threads, restore };
}
