import { CanonryError, isCanonryError } from '../core/index.js';
import { isWaitedOut, type Queryable, type Store } from '../store/index.js';
import type { Head } from './types.js';

/** Pauses before the reads that settle an outcome: the first connection a pool hands out after a
 * loss is often one the loss broke too. A read that waited out its bound is not tried again: the
 * store is silent, and another read would wait the same bound. */
const SETTLE_PAUSES_MS = [0, 50, 200];

/**
 * Whether a batch whose commit's outcome is unknown is stored: its last entry of each project, with
 * the hash it was built with. A batch commits whole (its heads, rows and checkpoints in one
 * transaction or statement), so `all` means it committed and `none` that it had not when read;
 * `mixed` cannot happen short of a broken store. Reads that keep failing settle nothing (undefined).
 */
export async function storedTails(
  store: Queryable,
  tails: Iterable<Head>,
): Promise<'all' | 'none' | 'mixed' | undefined> {
  const wanted = [...tails];
  for (const pause of SETTLE_PAUSES_MS) {
    if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    let found = 0;
    try {
      for (const tail of wanted) {
        const rows = await store.all<{ hash: string }>(
          'SELECT hash FROM journal_entries WHERE project = $1 AND seq = $2',
          [tail.project, tail.seq],
        );
        if (rows[0]?.hash === tail.hash) found++;
      }
    } catch (err) {
      if (isWaitedOut(err)) return undefined;
      continue;
    }
    return found === wanted.length ? 'all' : found === 0 ? 'none' : 'mixed';
  }
  return undefined;
}

/**
 * What a write whose outcome is unknown (`err`: its connection lost before the answer) did, read
 * back: `stored` when every tail is; `absent` when none is and the session that ran it has ended —
 * `ended` when it is known gone (a writer thread that exited), else once `Store.endLostSession`
 * ended it — so running it again writes it once; undefined when nothing settles it: the store
 * cannot end that session, or cannot be read.
 */
export async function settleLost(
  store: Store,
  tails: Iterable<Head>,
  err: unknown,
  ended = false,
): Promise<'stored' | 'absent' | undefined> {
  const wanted = [...tails];
  const first = await storedTails(store, wanted);
  if (first === 'all') return 'stored';
  if (ended) return first === 'none' ? 'absent' : undefined;
  // Not there yet: the session may still be running it. Once ended, what it did is final.
  if (first !== 'none' || !(await store.endLostSession?.(err))) return undefined;
  const then = await storedTails(store, wanted);
  return then === 'all' ? 'stored' : then === 'none' ? 'absent' : undefined;
}

/**
 * Appends that failed with their outcome unknown, by their failure: the store they went to, their
 * tails, and whether the session that wrote them is known to be gone (`ended`: a writer thread that
 * exited) — else only the store can end it (`Store.endLostSession`).
 */
const doubts = new WeakMap<
  object,
  { readonly store: Store; readonly tails: readonly Head[]; readonly ended: boolean }
>();

/** Marks `err` as the failure of appends whose outcome is unknown (`tails` theirs); returns it. */
export function inDoubt<E>(err: E, store: Store, tails: Iterable<Head>, ended = false): E {
  if (typeof err === 'object' && err !== null) doubts.set(err, { store, tails: [...tails], ended });
  return err;
}

/**
 * Whether the appends `err` failed with their outcome unknown on `store` can be told later
 * ({@link settleDoubt}): as stored or absent, once the store can be read and, for absent, once the
 * session that wrote them is gone or the store can end it.
 */
export function isSettleable(err: unknown, store: Store): boolean {
  const doubt = typeof err === 'object' && err !== null ? doubts.get(err) : undefined;
  return (
    doubt !== undefined &&
    doubt.store === store &&
    (doubt.ended || store.namesLostSession?.(err) === true)
  );
}

/** What the appends `err` left in doubt on `store` did, read back now ({@link settleLost}). */
export async function settleDoubt(
  err: unknown,
  store: Store,
): Promise<'stored' | 'absent' | undefined> {
  const doubt = typeof err === 'object' && err !== null ? doubts.get(err) : undefined;
  if (doubt === undefined || doubt.store !== store) return undefined;
  return settleLost(store, doubt.tails, err, doubt.ended);
}

/**
 * After an autocommit statement that appends (`tail` its last entry) failed with `err`: a store
 * that became unreachable may have run it all the same ({@link settleLost}). `stored`: the answer
 * was lost, not the write. `absent`: it never committed and never will, so it may run again.
 * Unsettled, `err` is rethrown as STORE_UNAVAILABLE with `outcome: 'unknown'`, so no caller takes
 * it for a write that never happened. Other failures are rethrown as they are.
 */
export async function settleStatement(
  store: Store,
  tail: Head,
  err: unknown,
): Promise<'stored' | 'absent'> {
  if (!isCanonryError(err, 'STORE_UNAVAILABLE')) throw err;
  const settled = await settleLost(store, [tail], err);
  if (settled !== undefined) return settled;
  throw inDoubt(
    new CanonryError('STORE_UNAVAILABLE', err.message, { outcome: 'unknown' }, { cause: err }),
    store,
    [tail],
  );
}
