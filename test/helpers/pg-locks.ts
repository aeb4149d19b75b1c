// Holding a lock in a transaction of its own, to stop a statement of the code under test on the
// server (PostgreSQL), and telling when it waits there.
import type { Store } from '../../src/store/index.js';

export interface HeldLock {
  /** Resolves once the lock is taken. */
  readonly held: Promise<void>;
  /** Lets the holding transaction end (commit). */
  release(): void;
  /** Resolves once the holding transaction has ended. */
  readonly done: Promise<void>;
}

/** Runs `lock` (SQL that takes a lock) in a transaction on `store`, held until `release`. */
export function holdLock(store: Store, lock: string): HeldLock {
  let release!: () => void;
  const released = new Promise<void>((r) => {
    release = r;
  });
  let taken!: () => void;
  const held = new Promise<void>((r) => {
    taken = r;
  });
  const done = store.transaction(async (tx) => {
    await tx.exec(lock);
    taken();
    await released;
  });
  return { held, release, done };
}

/** Resolves once a session of `store`'s database waits for a lock. */
export async function untilWaitingForALock(store: Store): Promise<void> {
  for (;;) {
    const [row] = await store.all<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
    );
    if (row!.n > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}
