import { isCanonryError } from '../core/index.js';

/** Store failures that came of a bound on waiting, marked where the adapter makes them. */
const waitedOut = new WeakSet<object>();

/** Marks `err` as a failure that waited out a bound ({@link isWaitedOut}); returns it. */
export function markWaitedOut<E>(err: E): E {
  if (typeof err === 'object' && err !== null) waitedOut.add(err);
  return err;
}

/**
 * Whether `err` is the store giving up on a wait: a lock not granted within its bound
 * (`STORE_BUSY`: SQLite's busy timeout, PostgreSQL's `lock_timeout`, collisions still refused after
 * the retries), a statement the database cancelled (`statement_timeout`), an answer or a connection
 * that did not come in time. Nothing of the work was kept, and the same work sent again at once
 * would wait out the same bound again: a caller that holds several jobs answers them all with it
 * rather than trying each again. A lost connection is not one of these (a fresh one may serve).
 */
export function isWaitedOut(err: unknown): boolean {
  if (isCanonryError(err, 'STORE_BUSY')) return true;
  for (let at = err, depth = 0; typeof at === 'object' && at !== null && depth < 8; depth++) {
    if (waitedOut.has(at)) return true;
    at = (at as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Whether `err` is the store out of reach (`STORE_UNAVAILABLE`) or giving up on a wait
 * ({@link isWaitedOut}): no fault of the work, and more of it sent now would meet the same outage,
 * so a caller with several steps left stops at the first.
 */
export function isStoreOutage(err: unknown): boolean {
  return isCanonryError(err, 'STORE_UNAVAILABLE') || isWaitedOut(err);
}
