import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { canonicalize } from '../../src/core/index.js';
import {
  entryHash,
  exportSegment,
  Journal,
  verifyProject,
  verifySegment,
} from '../../src/journal/index.js';
import type { Store } from '../../src/store/index.js';
import { Keyring } from '../../src/trust/index.js';
import { COUNTERS, count, createCounters } from '../helpers/journal.js';
import { tempDir } from '../helpers/runtime.js';
import { ENGINES } from '../helpers/stores.js';

let keyring: Keyring;
let other: Keyring;
const cleanups: Array<() => void> = [];
beforeAll(async () => {
  const a = tempDir();
  const b = tempDir();
  cleanups.push(a.cleanup, b.cleanup);
  keyring = await Keyring.init(a.dir);
  other = await Keyring.init(b.dir);
});
afterAll(() => {
  for (const c of cleanups) c();
});
const anchor = () => ({
  root: keyring.rootCertificatePem,
  revocationList: keyring.revocationListPem(),
});

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(
    `tampering with the real database is detected at the right seq: ${engine.name}`,
    () => {
      let store: Store;
      let cleanup: () => Promise<void>;
      let journal: Journal;
      afterEach(async () => {
        await store.close();
        await cleanup();
      });
      const seed = async (n = 12) => {
        ({ store, cleanup } = await engine.fresh());
        await createCounters(store);
        journal = new Journal(store, {
          projections: [COUNTERS],
          signer: () => keyring.signer(),
          checkpointEvery: 1_000,
        });
        for (let i = 1; i <= n; i++) await journal.append('alpha', count(`c${i}`, i));
        await journal.append('beta', count('other'));
      };
      const row = async (seq: number) =>
        (
          await store.all<Record<string, unknown>>(
            // The entry's own columns (PostgreSQL's table also has parked_id, outside the hash).
            `SELECT project, seq, format, at, kind, body, actor, authority, correlation_id,
               idempotency_key, receipt, prev_hash, hash
             FROM journal_entries WHERE project = $1 AND seq = $2`,
            ['alpha', seq],
          )
        )[0]!;
      const report = () => verifyProject(journal, 'alpha', anchor());

      it('a clean chain verifies', async () => {
        await seed();
        expect(await report()).toMatchObject({ ok: true, checked: 12, broken: null });
        expect((await verifyProject(journal, 'beta')).ok).toBe(true);
      });

      it('an edited body', async () => {
        await seed();
        await store.run(
          "UPDATE journal_entries SET body = $1 WHERE project = 'alpha' AND seq = 5",
          [canonicalize({ name: 'c5', by: 500 })],
        );
        expect((await report()).broken).toMatchObject({ seq: 5, reason: 'body-changed' });
      });

      it('a deleted row', async () => {
        await seed();
        await store.run("DELETE FROM journal_entries WHERE project = 'alpha' AND seq = 7");
        expect((await report()).broken).toMatchObject({ seq: 7, reason: 'missing-entry' });
      });

      it('the last row deleted', async () => {
        await seed();
        await store.run("DELETE FROM journal_entries WHERE project = 'alpha' AND seq = 12");
        expect((await report()).broken).toMatchObject({ seq: 12, reason: 'head-mismatch' });
      });

      it('two rows swapped', async () => {
        await seed();
        await store.run("UPDATE journal_entries SET seq = -1 WHERE project = 'alpha' AND seq = 4");
        await store.run("UPDATE journal_entries SET seq = 4 WHERE project = 'alpha' AND seq = 9");
        await store.run("UPDATE journal_entries SET seq = 9 WHERE project = 'alpha' AND seq = -1");
        expect((await report()).broken).toMatchObject({ seq: 4, reason: 'reordered' });
      });

      it('a rewritten hash', async () => {
        await seed();
        await store.run(
          "UPDATE journal_entries SET hash = $1 WHERE project = 'alpha' AND seq = 6",
          [`sha256:${'ab'.repeat(32)}`],
        );
        expect((await report()).broken).toMatchObject({ seq: 6, reason: 'hash-rewritten' });
      });

      it('a forged row (body changed and re-hashed to look consistent)', async () => {
        await seed();
        const r = await row(8);
        const body = { name: 'c8', by: 8000 };
        const forged = {
          project: r.project,
          seq: Number(r.seq),
          format: Number(r.format),
          at: r.at,
          kind: r.kind,
          body,
          actor: r.actor,
          authority: JSON.parse(r.authority as string),
          correlation_id: r.correlation_id,
          idempotency_key: r.idempotency_key,
          receipt: JSON.parse(r.receipt as string),
          prev_hash: r.prev_hash,
        } as Parameters<typeof entryHash>[0];
        await store.run(
          "UPDATE journal_entries SET body = $1, hash = $2 WHERE project = 'alpha' AND seq = 8",
          [canonicalize(body), entryHash(forged)],
        );
        expect((await report()).broken).toMatchObject({ seq: 8, reason: 'hash-rewritten' });
      });

      it('a forged last row is caught by the signed checkpoint, not only the head table', async () => {
        await seed();
        await journal.checkpoint('alpha');
        const r = await row(12);
        const body = { name: 'c12', by: -1 };
        const forged = {
          ...JSON.parse(JSON.stringify(r)),
          seq: 12,
          format: 1,
          body,
          authority: JSON.parse(r.authority as string),
          receipt: JSON.parse(r.receipt as string),
        };
        delete forged.hash;
        const hash = entryHash(forged);
        await store.run(
          "UPDATE journal_entries SET body = $1, hash = $2 WHERE project = 'alpha' AND seq = 12",
          [canonicalize(body), hash],
        );
        await store.run("UPDATE journal_heads SET hash = $1 WHERE project = 'alpha'", [hash]);
        expect((await report()).broken).toMatchObject({ seq: 12, reason: 'checkpoint-mismatch' });
      });

      it('a tampered checkpoint signature', async () => {
        await seed();
        const c = await journal.checkpoint('alpha');
        await store.run("UPDATE journal_checkpoints SET checkpoint = $1 WHERE project = 'alpha'", [
          JSON.stringify({ ...c, head_hash: `sha256:${'0'.repeat(64)}` }),
        ]);
        expect((await report()).broken).toMatchObject({ reason: 'checkpoint-mismatch' });
      });

      it('an exported segment verifies offline, and any changed character in any entry fails it', async () => {
        await seed();
        let text = '';
        for await (const line of exportSegment(journal, 'alpha')) text += line;
        const lines = text.trimEnd().split('\n');
        expect(lines).toHaveLength(14);
        expect(await verifySegment(text, anchor())).toMatchObject({
          ok: true,
          checked: 12,
          checkpoints: 1,
        });

        const otherRoot = { root: other.rootCertificatePem };
        await expect(verifySegment(text, otherRoot)).rejects.toMatchObject({
          code: 'CHAIN_INVALID',
        });

        let failures = 0;
        let trials = 0;
        for (let line = 1; line < lines.length; line++) {
          const original = lines[line]!;
          for (let i = 0; i < original.length; i += Math.max(1, Math.floor(original.length / 25))) {
            const replacement = original[i] === 'x' ? 'y' : 'x';
            const changed = [...lines];
            changed[line] = original.slice(0, i) + replacement + original.slice(i + 1);
            trials++;
            const ok = await verifySegment(changed.join('\n'), anchor()).then(
              (r) => r.ok,
              () => false,
            );
            if (!ok) failures++;
          }
        }
        expect(trials).toBeGreaterThan(300);
        expect(failures).toBe(trials);
      });

      it('a segment carries the root-signed revocation list; the root alone then checks revocation, and any change to the header fails it', async () => {
        await seed();
        let text = '';
        const carried = { revocationList: keyring.revocationListPem() };
        for await (const line of exportSegment(journal, 'alpha', 0, carried)) text += line;
        const rootOnly = { root: keyring.rootCertificatePem };
        const embedded = { useEmbeddedRevocationList: true };
        expect(await verifySegment(text, rootOnly, embedded)).toMatchObject({
          ok: true,
          checked: 12,
        });
        // Another root's list in the header: the segment is refused whichever list is checked.
        const [header, ...rest] = text.split('\n') as [string, ...string[]];
        const foreign = JSON.stringify({
          ...JSON.parse(header),
          revocation_list: other.revocationListPem(),
        });
        for (const options of [{}, embedded]) {
          await expect(
            verifySegment([foreign, ...rest].join('\n'), anchor(), options),
          ).rejects.toMatchObject({ code: 'INVALID_SEGMENT' });
        }
        let trials = 0;
        let failures = 0;
        for (let i = 0; i < header.length; i += Math.max(1, Math.floor(header.length / 80))) {
          const changed =
            header.slice(0, i) + (header[i] === 'x' ? 'y' : 'x') + header.slice(i + 1);
          trials++;
          const ok = await verifySegment([changed, ...rest].join('\n'), rootOnly, embedded).then(
            (r) => r.ok,
            () => false,
          );
          if (!ok) failures++;
        }
        expect(trials).toBeGreaterThan(60);
        expect(failures).toBe(trials);
      });
    },
  );
}
