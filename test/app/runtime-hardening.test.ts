import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  type AuditEntryBody,
  createCanonry,
  JournalAuditSink,
  openTokens,
} from '../../src/app/index.js';
import { CanonryError, isCanonryError } from '../../src/core/index.js';
import {
  exportSegment,
  JOURNAL_MIGRATIONS,
  Journal,
  pruneProject,
  verifyProject,
  verifySegment,
} from '../../src/journal/index.js';
import type { AuditRecord } from '../../src/kernel/index.js';
import { migrate, SqliteStore } from '../../src/store/index.js';
import { Keyring } from '../../src/trust/index.js';
import { acceptNotes } from '../helpers/journal.js';
import { tempDir } from '../helpers/runtime.js';
import { freshPostgresSchema, PG_URL, postgresAvailable } from '../helpers/stores.js';

const cleanups: (() => void | Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});
function temp(): string {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  return dir;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function verdictRecord(detail: unknown): AuditRecord {
  return {
    at: new Date().toISOString(),
    protocol_hash: `sha256:${'1'.repeat(64)}`,
    protocol_slug: 'x',
    artifact_hash: `sha256:${'2'.repeat(64)}`,
    generation_metadata_hash: `sha256:${'3'.repeat(64)}`,
    class: 'INVALID_REQUEST',
    label: null,
    detail: detail as AuditRecord['detail'],
    issuer: null,
  };
}

describe('background work never takes the process down', () => {
  it('appendAll rejects, never throws, whatever the input', async () => {
    const store = new SqliteStore(join(temp(), 'j.db'));
    await migrate(store, { journal: JOURNAL_MIGRATIONS });
    const journal = new Journal(store);
    const huge = { kind: 'test.big', body: { pad: 'x'.repeat(1_100_000) }, actor: 'k' };
    for (const call of [
      () => journal.appendAll('kernel', [huge]),
      () => journal.appendAll('NOT A PROJECT', [huge]),
      () => journal.appendAll('kernel', []),
      () => journal.append('kernel', { kind: 'Bad Kind', body: 1, actor: 'k' }),
      () => journal.head('NOT A PROJECT'),
    ]) {
      let promise: Promise<unknown> | undefined;
      expect(() => {
        promise = call();
      }).not.toThrow();
      await expect(promise).rejects.toBeInstanceOf(CanonryError);
    }
    await store.close();
  });

  it('an audit batch the journal refuses is reported, the good records of it kept', async () => {
    const store = new SqliteStore(join(temp(), 'a.db'));
    await migrate(store, { journal: JOURNAL_MIGRATIONS });
    const journal = new Journal(store);
    const errors: unknown[] = [];
    // Two records a batch, so the second record() writes inside the caller, as a request would.
    const sink = new JournalAuditSink(journal, (err) => errors.push(err), { maxRecords: 2 });
    expect(() => {
      sink.record(verdictRecord({ reason: 'constraints' }));
      sink.record(verdictRecord({ reason: 'constraints', pad: 'x'.repeat(1_100_000) }));
      sink.record(verdictRecord({ reason: 'no-match' }));
    }).not.toThrow();
    await sink.flush();
    expect(errors).toHaveLength(1);
    expect(isCanonryError(errors[0], 'INVALID_ENTRY')).toBe(true);
    const kept = (await journal.read('kernel')).flatMap(
      (e) => (e.body as unknown as AuditEntryBody).records,
    );
    // Order across batches is not kept when one is retried record by record; content is.
    expect(kept.map((r) => r.detail.reason).sort()).toEqual(['constraints', 'no-match']);
    await store.close();
  });
});

describe('the unsigned tail of every chain is bounded', () => {
  it('signs a checkpoint at the head soon after an append, and at close', async () => {
    const data = temp();
    const runtime = acceptNotes(
      await createCanonry(
        { dataDir: data, logLevel: 'silent', checkpoints: { every: 1000, intervalMs: 50 } },
        { create: true },
      ),
    );
    await runtime.journal.append('tail', { kind: 'test.note', body: 1, actor: 'a' });
    await runtime.journal.append('tail', { kind: 'test.note', body: 2, actor: 'a' });
    await sleep(400);
    const signed = (await runtime.journal.checkpoints('tail')) as { seq: number }[];
    expect(signed.at(-1)?.seq).toBe(2);
    const report = await verifyProject(runtime.journal, 'tail', {
      root: runtime.keyring.rootCertificatePem,
    });
    expect(report.unsigned).toEqual({ entries: 0, since: null });
    // No timer this time: closing signs what is left.
    await runtime.journal.append('tail', { kind: 'test.note', body: 3, actor: 'a' });
    await runtime.close();
    const reopened = await createCanonry({ dataDir: data, logLevel: 'silent' }, { create: false });
    const after = (await reopened.journal.checkpoints('tail')) as { seq: number }[];
    expect(after.at(-1)?.seq).toBe(3);
    await reopened.close();
  });

  it('reports the unsigned tail a crash left, and signs it when the next runtime starts', async () => {
    const data = temp();
    const runtime = acceptNotes(
      await createCanonry(
        { dataDir: data, logLevel: 'silent', checkpoints: { every: 1000, intervalMs: 60_000 } },
        { create: true },
      ),
    );
    for (let i = 0; i < 3; i++)
      await runtime.journal.append('crashy', { kind: 'test.note', body: i, actor: 'a' });
    // What a crash leaves: entries past the last checkpoint (the store closes without signing).
    await runtime.store.close();
    const keyring = await Keyring.open(data);
    const store = new SqliteStore(join(data, 'canonry.db'));
    const unsigned = await verifyProject(new Journal(store), 'crashy', {
      root: keyring.rootCertificatePem,
    });
    expect(unsigned.ok).toBe(true);
    expect(unsigned.unsigned?.entries).toBe(3);
    await store.close();
    const next = await createCanonry({ dataDir: data, logLevel: 'silent' }, { create: false });
    expect(next.startCheck.signed).toBeGreaterThanOrEqual(1);
    const report = await verifyProject(next.journal, 'crashy', {
      root: next.keyring.rootCertificatePem,
    });
    expect(report.unsigned).toEqual({ entries: 0, since: null });
    await next.close();
  });
});

describe('audit retention', () => {
  it('prunes the audit past its retention; the rest verifies from the signed anchor', async () => {
    const data = temp();
    let now = new Date('2026-01-01T00:00:00Z');
    const store = new SqliteStore(join(data, 'r.db'));
    await migrate(store, { journal: JOURNAL_MIGRATIONS });
    const keyring = await Keyring.init(join(data, 'keys-home'));
    const journal = new Journal(store, {
      signer: () => keyring.signer(),
      now: () => now,
      prunable: (project) => project === 'kernel',
    });
    for (let day = 0; day < 10; day++) {
      now = new Date(Date.UTC(2026, 0, 1 + day));
      for (let i = 0; i < 3; i++)
        await journal.append('kernel', { kind: 'kernel.verdict', body: { day, i }, actor: 'k' });
    }
    await journal.append('canon-history', { kind: 'test.note', body: 1, actor: 'a' });
    const anchor = {
      root: keyring.rootCertificatePem,
      revocationList: keyring.revocationListPem(),
    };
    const result = await pruneProject(
      journal,
      'kernel',
      new Date('2026-01-06T00:00:00Z'),
      keyring.signer(),
    );
    expect(result).toEqual({ project: 'kernel', pruned: 15, base: 15 });
    const left = await journal.read('kernel');
    expect(left[0]?.seq).toBe(16);
    const report = await verifyProject(journal, 'kernel', anchor);
    expect(report).toMatchObject({ ok: true, base: 15, checked: 15 });
    // An exported segment starts at the anchor and verifies offline.
    let text = '';
    for await (const line of exportSegment(journal, 'kernel')) text += line;
    expect(JSON.parse(text.split('\n')[0]!).from_seq).toBe(16);
    expect((await verifySegment(text, anchor)).ok).toBe(true);
    // The anchor is signed: forging it fails verification.
    await store.run(`UPDATE journal_bases SET hash = 'sha256:${'0'.repeat(64)}'`);
    expect((await verifyProject(journal, 'kernel', anchor)).broken?.reason).toBe(
      'checkpoint-mismatch',
    );
    await expect(
      pruneProject(journal, 'canon-history', new Date('2030-01-01'), keyring.signer()),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await store.close();
  });
});

describe('one root per database (scale-out)', () => {
  it('never makes new keys beside a database whose keys/ is gone: KEYRING_MISSING, nothing created', async () => {
    const dir = temp();
    await (await createCanonry({ dataDir: dir, logLevel: 'silent' })).close();
    rmSync(join(dir, 'keys'), { recursive: true });
    await expect(createCanonry({ dataDir: dir, logLevel: 'silent' })).rejects.toMatchObject({
      code: 'KEYRING_MISSING',
      message: expect.stringContaining('restore keys/ from its backup'),
    });
    await expect(openTokens({ dataDir: dir })).rejects.toMatchObject({ code: 'KEYRING_MISSING' });
    expect(existsSync(join(dir, 'keys'))).toBe(false);
  });

  it('goes on signing under its own root when keys/ is swapped for a keyring with another root', async () => {
    const dir = temp();
    const errors: string[] = [];
    const logger = {
      info: () => undefined,
      warn: () => undefined,
      error: (_: object, message: string) => errors.push(message),
    };
    const runtime = acceptNotes(
      await createCanonry({ dataDir: dir, logLevel: 'silent' }, { logger }),
    );
    cleanups.push(() => runtime.close());
    const root = runtime.keyring.rootFingerprint;
    const own = join(temp(), 'own-keys');
    cpSync(join(dir, 'keys'), own, { recursive: true });
    const other = temp();
    const foreign = await Keyring.init(other);
    // Another data directory's keys/ copied over this one's while the runtime runs.
    rmSync(join(dir, 'keys'), { recursive: true });
    cpSync(join(other, 'keys'), join(dir, 'keys'), { recursive: true });
    await vi.waitFor(
      () => {
        const switched = runtime.keyring.rootFingerprint !== root;
        expect(switched || errors.some((m) => m.includes('another root'))).toBe(true);
      },
      { timeout: 30_000, interval: 50 },
    );
    expect(runtime.keyring.rootFingerprint).toBe(root);
    expect(runtime.keyring.rootFingerprint).not.toBe(foreign.rootFingerprint);
    // What it appends still verifies once the data directory's own keys are back.
    await runtime.journal.append('swapped', { kind: 'test.note', body: 1, actor: 'a' });
    await runtime.journal.checkpoint('swapped');
    rmSync(join(dir, 'keys'), { recursive: true });
    cpSync(own, join(dir, 'keys'), { recursive: true });
    const ownKeyring = await Keyring.open(dir);
    const report = await verifyProject(runtime.journal, 'swapped', {
      root: ownKeyring.rootCertificatePem,
      revocationList: ownKeyring.revocationListPem(),
    });
    expect(report.broken).toBeNull();
    expect(report.ok).toBe(true);
  });

  it('refuses a data directory with another root, or set up with another database', async () => {
    const first = temp();
    const db = join(temp(), 'shared.db');
    const a = acceptNotes(
      await createCanonry({ dataDir: first, db: `sqlite:${db}`, logLevel: 'silent' }),
    );
    await a.journal.append('shared', { kind: 'test.note', body: 1, actor: 'a' });
    await a.close();
    const stranger = temp();
    await expect(
      createCanonry({ dataDir: stranger, db: `sqlite:${db}`, logLevel: 'silent' }),
    ).rejects.toMatchObject({ code: 'KEYRING_MISMATCH' });
    // The same data directory pointed at another database.
    await expect(
      createCanonry({
        dataDir: first,
        db: `sqlite:${join(temp(), 'other.db')}`,
        logLevel: 'silent',
      }),
    ).rejects.toMatchObject({ code: 'STORE_MISMATCH' });
    const recorded = JSON.parse(readFileSync(join(first, 'store.json'), 'utf8'));
    expect(recorded.store_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.skipIf(!postgresAvailable)(
    'on one PostgreSQL: a second host with a copy of the keyring shares registry and checkpoints',
    async () => {
      const pg = await freshPostgresSchema();
      cleanups.push(pg.drop);
      const hostA = temp();
      const a = acceptNotes(
        await createCanonry({ dataDir: hostA, db: pg.url, logLevel: 'silent' }),
      );
      const hostB = temp();
      cpSync(join(hostA, 'keys'), join(hostB, 'keys'), { recursive: true });
      const b = await createCanonry({ dataDir: hostB, db: pg.url, logLevel: 'silent' });
      try {
        const owner = { project: 'scale', principal: 'olive', role: 'editor' };
        const { protocol } = await a.kernel.registry.register(
          {
            slug: 's',
            version: '1',
            constraints: true,
            labels: ['OK'],
            rules: [{ label: 'OK', condition: true }],
          },
          owner,
        );
        expect((await b.kernel.registry.get(protocol.hash)).hash).toBe(protocol.hash);
        await a.journal.append('scale', { kind: 'test.note', body: 1, actor: 'a' });
        await a.journal.checkpoint('scale');
        const onB = await verifyProject(b.journal, 'scale', {
          root: b.keyring.rootCertificatePem,
          revocationList: b.keyring.revocationListPem(),
        });
        expect(onB).toMatchObject({ ok: true });
        expect(onB.checkpoints).toBeGreaterThanOrEqual(1);
        const stranger = temp();
        await expect(
          createCanonry({ dataDir: stranger, db: pg.url, logLevel: 'silent' }),
        ).rejects.toMatchObject({ code: 'KEYRING_MISMATCH' });
      } finally {
        await a.close();
        await b.close();
      }
    },
  );

  it.skipIf(!postgresAvailable)('a database that does not exist is STORE_UNAVAILABLE', async () => {
    const url = new URL(PG_URL);
    url.pathname = '/canonry_no_such_database';
    await expect(
      createCanonry({ dataDir: temp(), db: url.toString(), logLevel: 'silent' }),
    ).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: 'the database does not exist' });
  });
});
