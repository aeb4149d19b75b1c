import { afterEach, describe, expect, it } from 'vitest';
import { CanonryError, contentHash } from '../../src/core/index.js';
import {
  entryHash,
  genesisHash,
  Journal,
  rebuildProject,
  verifyCheckpoint,
  verifyProject,
} from '../../src/journal/index.js';
import type { Store } from '../../src/store/index.js';
import {
  COUNTERS,
  count,
  createCounters,
  projectionRows,
  suiteKeyring,
} from '../helpers/journal.js';
import { ENGINES } from '../helpers/stores.js';

const { signer, anchor } = suiteKeyring();

async function codeOf(promise: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (err) {
    return err instanceof CanonryError ? err.code : `untyped: ${err}`;
  }
  return 'OK';
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`journal on ${engine.name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    let journal: Journal;
    afterEach(async () => {
      await store.close();
      await cleanup();
    });
    const open = async (checkpointEvery = 1_000) => {
      ({ store, cleanup } = await engine.fresh());
      await createCounters(store);
      journal = new Journal(store, {
        projections: [COUNTERS],
        signer,
        checkpointEvery,
      });
      return journal;
    };

    it('chains entries from the project genesis with hash = sha256(JCS(entry without hash))', async () => {
      await open();
      const a = await journal.append('alpha', count('x'));
      const b = await journal.append('alpha', count('x', 2, { correlation_id: 'c-1' }));
      expect(a.entry.seq).toBe(1);
      expect(a.entry.prev_hash).toBe(genesisHash('alpha'));
      expect(b.entry.prev_hash).toBe(a.entry.hash);
      const { hash, ...rest } = b.entry;
      expect(hash).toBe(entryHash(rest));
      expect(hash).toBe(contentHash(rest));
      expect(await journal.head('alpha')).toEqual({ project: 'alpha', seq: 2, hash });
      const [stored] = await journal.read('alpha', { after: 1, limit: 5 });
      expect(stored).toEqual(b.entry);
    });

    it('writes an LCSM §7 receipt for each entry', async () => {
      await open();
      const result = await journal.append('alpha', {
        ...count('x'),
        idempotency_key: 'req-1',
        receipt: {
          checks: [{ name: 'gate', result: 'pass' }],
          warnings: ['w'],
          affected_dependents: ['art-1'],
        },
      });
      const { receipt, entry } = result;
      // Serialised (an HTTP response, a log line), a result carries its receipt.
      expect(JSON.parse(JSON.stringify(result))).toEqual({ entry, receipt, duplicate: false });
      expect(Object.keys(receipt).sort()).toEqual(
        [
          'receipt_id',
          'request_ref',
          'prior_state_ref',
          'result_state_ref',
          'checks',
          'warnings',
          'uncertainty',
          'affected_dependents',
          'rollback_route',
          'acceptance_state',
          'hash_chain_parent',
          'receipt_hash',
        ].sort(),
      );
      expect(receipt.request_ref).toBe('req-1');
      expect(receipt.hash_chain_parent).toBe(entry.prev_hash);
      expect(receipt.result_state_ref).toEqual({ seq: 1, hash: entry.hash });
      expect(receipt.checks.map((c) => c.name)).toEqual(['hash-chain', 'gate']);
      const { receipt_hash, ...rest } = receipt;
      expect(receipt_hash).toBe(contentHash(rest));
      expect(await journal.receipt('alpha', 1)).toEqual(receipt);
    });

    it('returns the first result for a repeated idempotency key, also when sent concurrently', async () => {
      await open();
      const first = await journal.append('alpha', count('x', 1, { idempotency_key: 'k1' }));
      const again = await journal.append('alpha', count('x', 5, { idempotency_key: 'k1' }));
      expect(again.duplicate).toBe(true);
      expect(again.entry).toEqual(first.entry);
      const racing = await Promise.all(
        Array.from({ length: 16 }, () =>
          journal.append('alpha', count('y', 1, { idempotency_key: 'k2' })),
        ),
      );
      expect(new Set(racing.map((r) => r.entry.seq)).size).toBe(1);
      expect(racing.filter((r) => !r.duplicate)).toHaveLength(1);
      expect((await journal.head('alpha')).seq).toBe(2);
    });

    it('rejects a stale expected seq with CONFLICT carrying the current head', async () => {
      await open();
      await journal.append('alpha', count('x'));
      const ok = await journal.append('alpha', count('x'), { expectedSeq: 1 });
      expect(ok.entry.seq).toBe(2);
      try {
        await journal.append('alpha', count('x'), { expectedSeq: 1 });
        expect.unreachable();
      } catch (err) {
        expect((err as CanonryError).code).toBe('CONFLICT');
        expect((err as CanonryError).details?.head).toEqual(await journal.head('alpha'));
      }
      expect((await journal.head('alpha')).seq).toBe(2);
    });

    it('keeps seq gapless and unique under 200 concurrent appends, group-committed', async () => {
      await open();
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) => journal.append('alpha', count(`n${i % 7}`))),
      );
      const seqs = results.map((r) => r.entry.seq).sort((a, b) => a - b);
      expect(seqs).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
      expect((await verifyProject(journal, 'alpha')).ok).toBe(true);
      const total = await store.all<{ s: number }>(
        'SELECT SUM(value) AS s FROM test_counters WHERE project = $1',
        ['alpha'],
      );
      expect(Number(total[0]!.s)).toBe(200);
    });

    it('appends atomically: one bad entry in a batch writes nothing', async () => {
      await open();
      expect(
        await codeOf(() =>
          journal.appendAll('alpha', [count('x'), { ...count('x'), kind: 'Bad Kind' }]),
        ),
      ).toBe('INVALID_ENTRY');
      const failing = new Journal(store, {
        projections: [
          {
            name: 'boom',
            kinds: ['test.boom'],
            tables: [],
            apply: async () => Promise.reject(new Error('boom')),
          },
        ],
      });
      await expect(
        failing.appendAll('alpha', [count('x'), { kind: 'test.boom', body: null, actor: 'a' }]),
      ).rejects.toThrow('boom');
      expect((await journal.head('alpha')).seq).toBe(0);
      expect(await store.all('SELECT * FROM journal_entries')).toEqual([]);
      expect(await store.all('SELECT * FROM test_counters')).toEqual([]);
    });

    it('refuses bad input with typed errors and writes nothing', async () => {
      await open();
      const cases: Array<[() => unknown, string]> = [
        [() => journal.append('Bad Project', count('x')), 'INVALID_PROJECT'],
        [() => journal.append('../etc', count('x')), 'INVALID_PROJECT'],
        [() => journal.append('alpha', { ...count('x'), kind: 'DROP TABLE' }), 'INVALID_ENTRY'],
        [() => journal.append('alpha', { ...count('x'), actor: '' }), 'INVALID_ENTRY'],
        // A text column on PostgreSQL cannot hold NUL: refused on every engine, never a database error.
        [() => journal.append('alpha', { ...count('x'), actor: 'a\u0000b' }), 'INVALID_ENTRY'],
        [
          () => journal.append('alpha', { ...count('x'), correlation_id: '\u0000' }),
          'INVALID_ENTRY',
        ],
        [() => journal.append('alpha', { ...count('x'), body: Number.NaN }), 'INVALID_ENTRY'],
        [() => journal.append('alpha', { ...count('x'), extra: 1 } as never), 'INVALID_ENTRY'],
        [
          () =>
            journal.append('alpha', {
              ...count('x'),
              receipt: { checks: [{ name: 'x', result: 'maybe' }] },
            } as never),
          'INVALID_ENTRY',
        ],
        [() => journal.append('alpha', count('x'), { expectedSeq: -1 }), 'INVALID_ENTRY'],
        [() => journal.read('alpha', { limit: 0 }), 'INVALID_ARGUMENT'],
        [() => journal.read('alpha', { after: -3 }), 'INVALID_ARGUMENT'],
      ];
      for (const [call, code] of cases) expect(await codeOf(call)).toBe(code);
      expect(await store.all('SELECT * FROM journal_entries')).toEqual([]);
    });

    it('rebuild replays into exactly the live projections and repairs a corrupted one', async () => {
      await open();
      for (let i = 0; i < 60; i++)
        await journal.append(i % 3 === 0 ? 'beta' : 'alpha', count(`c${i % 4}`, i));
      const live = await projectionRows(store, 'alpha');
      const beta = await projectionRows(store, 'beta');
      await rebuildProject(journal, 'alpha');
      expect(await projectionRows(store, 'alpha')).toEqual(live);
      await store.run('UPDATE test_counters SET value = 999 WHERE project = $1', ['alpha']);
      await store.run('DELETE FROM test_counters WHERE project = $1 AND name = $2', [
        'alpha',
        'c1',
      ]);
      expect(await projectionRows(store, 'alpha')).not.toEqual(live);
      const result = await rebuildProject(journal, 'alpha');
      expect(result.entries).toBe(40);
      expect(await projectionRows(store, 'alpha')).toEqual(live);
      expect(await projectionRows(store, 'beta')).toEqual(beta);
    });

    it('rebuild reads in pages: replays every page and refuses a break in a later one', async () => {
      await open();
      // 700 entries span several replay pages; the breaks sit past the first page and on a boundary.
      for (let i = 0; i < 7; i++)
        await journal.appendAll(
          'alpha',
          Array.from({ length: 100 }, (_, j) => count(`c${(i * 100 + j) % 5}`, j)),
        );
      const live = await projectionRows(store, 'alpha');
      await store.run('DELETE FROM test_counters WHERE project = $1', ['alpha']);
      expect((await rebuildProject(journal, 'alpha')).entries).toBe(700);
      expect(await projectionRows(store, 'alpha')).toEqual(live);

      await store.run('UPDATE test_counters SET value = 0 WHERE project = $1', ['alpha']);
      const zeroed = await projectionRows(store, 'alpha');
      await store.run(
        `UPDATE journal_entries SET body = REPLACE(body, '"by":', '"by": ') WHERE project = $1 AND seq = $2`,
        ['alpha', 611],
      );
      await expect(rebuildProject(journal, 'alpha')).rejects.toMatchObject({
        code: 'CHAIN_BROKEN',
        details: { seq: 611, reason: 'hash-mismatch' },
      });
      // Refused as a whole: the 610 entries replayed before the break were rolled back.
      expect(await projectionRows(store, 'alpha')).toEqual(zeroed);

      await store.run('DELETE FROM journal_entries WHERE project = $1 AND seq >= $2', [
        'alpha',
        600,
      ]);
      await store.run('DELETE FROM journal_entries WHERE project = $1 AND seq = $2', [
        'alpha',
        257,
      ]);
      await expect(rebuildProject(journal, 'alpha')).rejects.toMatchObject({
        code: 'CHAIN_BROKEN',
        details: { seq: 257, reason: 'missing-entry' },
      });
    });

    it('signs checkpoints every N entries and on demand', async () => {
      await open(10);
      for (let i = 0; i < 25; i++) await journal.append('alpha', count('x'));
      const stored = await journal.checkpoints('alpha');
      expect(stored.map((c) => (c as { seq: number }).seq)).toEqual([10, 20]);
      for (const c of stored) expect(verifyCheckpoint(c, anchor()).ok).toBe(true);
      const now = await journal.checkpoint('alpha');
      expect(now.seq).toBe(25);
      expect(now.head_hash).toBe((await journal.head('alpha')).hash);
      const report = await verifyProject(journal, 'alpha', anchor());
      expect(report).toMatchObject({ ok: true, checked: 25, checkpoints: 3 });
    });

    it('isolates projects: no read path returns another project', async () => {
      await open();
      for (let i = 0; i < 5; i++) {
        await journal.append('alpha', count('a'));
        await journal.append('beta', count('b', 1, { idempotency_key: `k${i}` }));
      }
      const alpha = await journal.read('alpha', { limit: 1000 });
      expect(alpha.every((e) => e.project === 'alpha')).toBe(true);
      expect(alpha).toHaveLength(5);
      const dup = await journal.append('alpha', count('a', 1, { idempotency_key: 'k0' }));
      expect(dup.duplicate).toBe(false);
      expect(dup.entry.project).toBe('alpha');
      expect(await journal.receipt('alpha', 6)).toMatchObject({ receipt_id: 'rcpt:alpha:6' });
      expect(await journal.read('gamma')).toEqual([]);
      expect((await journal.head('gamma')).seq).toBe(0);
    });
  });
}
