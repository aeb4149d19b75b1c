import { describe, expect, it } from 'vitest';
import { Journal } from '../../src/journal/index.js';
import { ENGINES } from '../helpers/stores.js';

const entry = (kind: string, n: number) => ({ kind, body: { n }, actor: 'test' });

describe.each(ENGINES)('Journal.stats on $name', (engine) => {
  it.runIf(engine.available)(
    'counts appended entries by kind, duplicates not, and appends waiting to commit',
    async () => {
      const fresh = await engine.fresh();
      try {
        const journal = new Journal(fresh.store);
        expect(journal.stats()).toEqual({
          appended: new Map(),
          queued: 0,
          forwarded: { sent: 0, received: 0, refused: { handshake: 0, token: 0, capacity: 0 } },
        });

        // Appends queue synchronously and commit together on the next turn: all five wait now.
        const pending = [1, 2, 3].map((n) => journal.append('p', entry('test.a', n)));
        pending.push(journal.append('q', entry('test.b', 4)));
        pending.push(journal.append('q', { ...entry('test.b', 5), idempotency_key: 'once' }));
        expect(journal.stats().queued).toBe(5);
        await Promise.all(pending);
        expect(journal.stats().queued).toBe(0);

        // The same idempotency key again appends nothing, and is not counted.
        const again = await journal.append('q', { ...entry('test.b', 5), idempotency_key: 'once' });
        expect(again.duplicate).toBe(true);
        await journal.appendAll('p', [entry('test.c', 6), entry('test.a', 7)]);
        expect(journal.stats()).toEqual({
          appended: new Map([
            ['test.a', 4],
            ['test.b', 2],
            ['test.c', 1],
          ]),
          queued: 0,
          forwarded: { sent: 0, received: 0, refused: { handshake: 0, token: 0, capacity: 0 } },
        });
        await journal.close();
      } finally {
        await fresh.store.close();
        await fresh.cleanup();
      }
    },
  );
});
