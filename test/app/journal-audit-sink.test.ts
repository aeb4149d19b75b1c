import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AUDIT_ENTRY_KIND,
  AUDIT_ENTRY_MAX_BYTES,
  AUDIT_ENTRY_MAX_RECORDS,
  type AuditEntryBody,
  auditRecordBound,
  JournalAuditSink,
  KERNEL_AUDIT_PROJECT,
} from '../../src/app/index.js';
import { canonicalize } from '../../src/core/index.js';
import {
  JOURNAL_MIGRATIONS,
  Journal,
  pruneProject,
  verifyProject,
} from '../../src/journal/index.js';
import { AUDIT_LIMITS, type AuditRecord, boundedDetail } from '../../src/kernel/index.js';
import { migrate, PostgresStore, SqliteStore } from '../../src/store/index.js';
import { Keyring } from '../../src/trust/index.js';
import { outageProxy } from '../helpers/outage-proxy.js';
import { holdLock, untilWaitingForALock } from '../helpers/pg-locks.js';
import { tempDir } from '../helpers/runtime.js';
import { ENGINES } from '../helpers/stores.js';
import { tamperWriterThreads } from '../helpers/writer-threads.js';

const cleanups: (() => void | Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function freshJournal(now?: () => Date): Promise<{ journal: Journal; keyring: Keyring }> {
  const { dir, cleanup } = tempDir();
  const keyring = await Keyring.init(dir);
  const store = new SqliteStore(join(dir, 'audit.db'));
  cleanups.push(cleanup, () => store.close());
  await migrate(store, { journal: JOURNAL_MIGRATIONS });
  const journal = new Journal(store, {
    signer: () => keyring.signer(),
    prunable: (project) => project === KERNEL_AUDIT_PROJECT,
    ...(now ? { now } : {}),
  });
  return { journal, keyring };
}

const hash = (digit: string) => `sha256:${digit.repeat(64)}` as const;

function record(i: number, detail: AuditRecord['detail'] = { reason: 'matched' }): AuditRecord {
  return {
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)).toISOString(),
    protocol_hash: hash('1'),
    protocol_slug: 'refund',
    artifact_hash: hash('2'),
    generation_metadata_hash: hash('3'),
    class: i % 2 === 0 ? 'CONFORMANT' : 'INVALID_REQUEST',
    label: i % 2 === 0 ? 'AUTO_APPROVE' : null,
    detail: { ...detail, matched: [{ rule: i, label: 'AUTO_APPROVE' }] },
    issuer: i % 2 === 0 ? hash(i % 4 === 0 ? 'a' : 'b') : null,
  };
}

async function audited(journal: Journal) {
  const entries = await journal.read(KERNEL_AUDIT_PROJECT, { limit: 1_000 });
  return {
    entries,
    records: entries.flatMap((e) => (e.body as unknown as AuditEntryBody).records),
  };
}

describe('JournalAuditSink: the records of a batch in few kernel.verdicts entries', () => {
  it('keeps every record, in order and whole (its own time included), packed into entries up to the limits', async () => {
    const { journal } = await freshJournal();
    const errors: unknown[] = [];
    const sink = new JournalAuditSink(journal, (err) => errors.push(err));
    const sent = Array.from({ length: 1_100 }, (_, i) => record(i));
    for (const r of sent) sink.record(r);
    await sink.flush();
    const { entries, records } = await audited(journal);
    expect(errors).toEqual([]);
    expect(records).toEqual(sent);
    expect(entries.every((e) => e.kind === AUDIT_ENTRY_KIND && e.actor === 'kernel')).toBe(true);
    expect(entries.length).toBeGreaterThan(1);
    const held = entries.map((e) => (e.body as unknown as AuditEntryBody).records);
    const bytes = (rs: readonly AuditRecord[]) =>
      rs.reduce((sum, r) => sum + auditRecordBound(r) + 1, 0);
    for (const [i, rs] of held.entries()) {
      expect(rs.length).toBeLessThanOrEqual(AUDIT_ENTRY_MAX_RECORDS);
      expect(bytes(rs)).toBeLessThanOrEqual(AUDIT_ENTRY_MAX_BYTES);
      // Packed: an entry was cut only when the next record would not fit.
      const next = held[i + 1]?.[0];
      if (next !== undefined && rs.length < AUDIT_ENTRY_MAX_RECORDS)
        expect(bytes([...rs, next])).toBeGreaterThan(AUDIT_ENTRY_MAX_BYTES);
    }
    for (const e of entries) {
      const body = e.body as unknown as AuditEntryBody;
      // The authority names every issuer that signed one of the entry's verdicts, and only those.
      const issuers = [...new Set(body.records.flatMap((r) => (r.issuer ? [r.issuer] : [])))];
      expect(e.authority).toEqual({ issuers: issuers.sort() });
    }
  });

  it('never writes a batch of several records as one lone entry (that would commit on the event loop)', async () => {
    const { journal } = await freshJournal();
    const sink = new JournalAuditSink(journal);
    for (let i = 0; i < 3; i++) sink.record(record(i));
    await sink.flush();
    const { entries, records } = await audited(journal);
    expect(entries.map((e) => (e.body as unknown as AuditEntryBody).records.length)).toEqual([
      2, 1,
    ]);
    expect(records).toEqual([0, 1, 2].map((i) => record(i)));
    sink.record(record(3));
    await sink.flush();
    expect((await audited(journal)).records).toHaveLength(4);
  });

  it('cuts entries by the records’ byte bound, so the largest records the kernel writes all land', async () => {
    const { journal } = await freshJournal();
    const errors: unknown[] = [];
    const sink = new JournalAuditSink(journal, (err) => errors.push(err));
    // The largest detail `boundedDetail` keeps: every string at its limit, control characters only
    // (six bytes each in JSON), every list full.
    const long = '\u0001'.repeat(AUDIT_LIMITS.maxText * 2);
    const worst = boundedDetail({
      reason: 'constraints',
      constraintErrors: Array.from({ length: 40 }, () => ({
        instancePath: long,
        schemaPath: long,
        keyword: long,
      })),
      matched: Array.from({ length: 40 }, (_, rule) => ({ rule, label: long })),
      ruleError: { rule: 1, message: long },
    });
    const sent = Array.from({ length: 60 }, (_, i) => ({ ...record(i), detail: worst }));
    const bound = auditRecordBound(sent[0]);
    expect(bound).toBeGreaterThan(40_000);
    for (const r of sent) sink.record(r);
    await sink.flush();
    const { entries, records } = await audited(journal);
    expect(errors).toEqual([]);
    expect(records).toEqual(sent);
    expect(entries.length).toBeGreaterThan(1);
    for (const e of entries) {
      const { records: held } = e.body as unknown as AuditEntryBody;
      expect(held.length * (bound + 1)).toBeLessThanOrEqual(AUDIT_ENTRY_MAX_BYTES);
      expect(Buffer.byteLength(canonicalize(e.body))).toBeLessThan(1024 * 1024);
    }
  });

  it('bounds the canonical bytes of any JSON value from above', () => {
    const text = fc.string({ unit: 'binary', maxLength: 40 });
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('node'), { maxLength: 5 }),
        fc.dictionary(text, tie('node'), { maxKeys: 5 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        let exact: number;
        try {
          exact = Buffer.byteLength(canonicalize(v));
        } catch {
          return; // not canonicalizable (a lone surrogate): the journal refuses it anyway
        }
        expect(auditRecordBound(v)).toBeGreaterThanOrEqual(exact);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the audit prunable past its retention and its chain verifiable', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const { journal, keyring } = await freshJournal(() => now);
    const sink = new JournalAuditSink(journal);
    for (let i = 0; i < 4; i++) sink.record(record(i));
    await sink.flush();
    now = new Date('2026-03-01T00:00:00Z');
    for (let i = 4; i < 8; i++) sink.record(record(i));
    await sink.flush();
    const pruned = await pruneProject(
      journal,
      KERNEL_AUDIT_PROJECT,
      new Date('2026-02-01T00:00:00Z'),
      keyring.signer(),
    );
    expect(pruned.pruned).toBe(2);
    expect((await audited(journal)).records).toEqual([4, 5, 6, 7].map((i) => record(i)));
    const report = await verifyProject(journal, KERNEL_AUDIT_PROJECT, {
      root: keyring.rootCertificatePem,
    });
    expect(report.ok).toBe(true);
  });
});

describe('JournalAuditSink across a writer thread that dies with its batch unanswered', () => {
  it('journals every record once: a batch stored before the thread died is not written again', async () => {
    const { journal } = await freshJournal();
    const errors: unknown[] = [];
    const t = tamperWriterThreads();
    try {
      const sink = new JournalAuditSink(journal, (err) => errors.push(err), { maxDelayMs: 5 });
      // The project's head (a transaction), then batches on the writer thread.
      for (let round = 0; round < 2; round++) {
        for (let i = round * 20; i < round * 20 + 20; i++) sink.record(record(i));
        await sink.flush();
      }
      expect(t.threads).toHaveLength(1);
      // A batch is stored, its answer lost, and the thread dies.
      t.drop.on = true;
      for (let i = 40; i < 90; i++) sink.record(record(i));
      while ((await audited(journal)).records.length < 90) {
        await new Promise((r) => setTimeout(r, 5));
      }
      await t.threads[0]!.terminate();
      t.drop.on = false;
      await sink.flush();
      expect(sink.retained).toBe(0);
      const { records } = await audited(journal);
      expect(records.map((r) => r.at)).toEqual(Array.from({ length: 90 }, (_, i) => record(i).at));
      expect(errors).toEqual([]);
      expect((await verifyProject(journal, KERNEL_AUDIT_PROJECT)).ok).toBe(true);
      await sink.close();
    } finally {
      t.restore();
    }
  });
});

const postgres = ENGINES.find((e) => e.name === 'postgres')!;

describe.skipIf(!postgres.available)(
  'JournalAuditSink on PostgreSQL: a write whose outcome is unknown while the database is out of reach',
  () => {
    /** A sink on a journal that reaches PostgreSQL through an outage proxy; records read directly. */
    async function throughProxy() {
      const made = await postgres.fresh();
      cleanups.push(async () => {
        await made.store.close();
        await made.cleanup();
      });
      const proxy = await outageProxy();
      cleanups.push(() => proxy.close());
      const store = new PostgresStore({ connectionString: proxy.via(made.location).toString() });
      const journal = new Journal(store);
      cleanups.push(() => journal.close().then(() => store.close()));
      const errors: unknown[] = [];
      const sink = new JournalAuditSink(journal, (err) => errors.push(err), { maxDelayMs: 5 });
      const stored = async () =>
        (
          await made.store.all<{ body: string }>(
            "SELECT body FROM journal_entries WHERE project = 'kernel' ORDER BY seq",
          )
        ).flatMap((r) => (JSON.parse(r.body) as AuditEntryBody).records.map((x) => x.at));
      // The project's head, in a transaction; then batches are one statement each.
      for (let i = 0; i < 10; i++) sink.record(record(i));
      await sink.flush();
      return { made, proxy, sink, errors, stored, journal };
    }

    const lost = (i: number): AuditRecord => ({ ...record(i), protocol_slug: 'lost-answer' });
    const until = async (check: () => Promise<boolean> | boolean) => {
      while (!(await check())) await new Promise((r) => setTimeout(r, 5));
    };

    it('a write stored before its answer was lost is read back once the database is back, not written again', async () => {
      const { proxy, sink, errors, stored, journal } = await throughProxy();
      proxy.loseAnswerTo('lost-answer');
      for (let i = 10; i < 30; i++) sink.record(lost(i));
      await until(async () => (await stored()).length === 30);
      // Out of reach as the journal would read the write back: its outcome is unknown.
      proxy.cut();
      await until(() => sink.retained === 20);
      proxy.restore();
      await sink.flush();
      expect(sink.retained).toBe(0);
      expect(await stored()).toEqual(Array.from({ length: 30 }, (_, i) => record(i).at));
      expect(errors).toMatchObject([
        { code: 'STORE_UNAVAILABLE', details: { outcome: 'unknown' } },
      ]);
      expect((await verifyProject(journal, KERNEL_AUDIT_PROJECT)).ok).toBe(true);
      await sink.close();
    });

    it('close reports the records it could not read back, as of unknown outcome', async () => {
      const { proxy, sink, errors, stored } = await throughProxy();
      proxy.loseAnswerTo('lost-answer');
      for (let i = 10; i < 30; i++) sink.record(lost(i));
      await until(async () => (await stored()).length === 30);
      proxy.cut();
      await until(() => sink.retained === 20);
      await sink.close();
      expect(sink.retained).toBe(0);
      expect(errors.at(-1)).toMatchObject({
        code: 'STORE_UNAVAILABLE',
        details: { outcome: 'unknown', records: 20 },
      });
    });

    it('a write still waiting on the server when its connection broke is ended, then written once', async () => {
      const { made, proxy, sink, errors, stored, journal } = await throughProxy();
      // The head row locked by another session: the write's statement reaches the server and waits.
      const lock = holdLock(
        made.store,
        "SELECT seq FROM journal_heads WHERE project = 'kernel' FOR UPDATE",
      );
      await lock.held;
      for (let i = 10; i < 30; i++) sink.record(lost(i));
      await untilWaitingForALock(made.store);
      proxy.cut();
      await until(() => sink.retained === 20);
      proxy.restore();
      // Read back, the write is not there; its session is ended, so it never will be: written again,
      // behind the lock like any other write.
      const flushed = sink.flush();
      await new Promise((r) => setTimeout(r, 300));
      lock.release();
      await lock.done;
      await flushed;
      expect(sink.retained).toBe(0);
      await new Promise((r) => setTimeout(r, 200));
      expect(await stored()).toEqual(Array.from({ length: 30 }, (_, i) => record(i).at));
      expect(errors).toMatchObject([
        { code: 'STORE_UNAVAILABLE', details: { outcome: 'unknown' } },
      ]);
      expect((await verifyProject(journal, KERNEL_AUDIT_PROJECT)).ok).toBe(true);
      await sink.close();
    });
  },
);

describe('JournalAuditSink while the store cannot take its records (a full disk)', () => {
  /** A journal on a SQLite file that may grow 128 pages past its schema, and a filler table. */
  async function cappedJournal() {
    const { dir, cleanup } = tempDir('canonry-audit-full-');
    const keyring = await Keyring.init(dir);
    const location = join(dir, 'audit.db');
    const first = new SqliteStore(location);
    await migrate(first, { journal: JOURNAL_MIGRATIONS });
    await first.exec('CREATE TABLE filler (blob BLOB NOT NULL)');
    const [{ pages }] = await first.all<{ pages: number }>(
      'SELECT page_count AS pages FROM pragma_page_count()',
    );
    await first.close();
    const store = new SqliteStore(location, { maxPageCount: Number(pages) + 128 });
    cleanups.push(cleanup, () => store.close());
    const journal = new Journal(store, { signer: () => keyring.signer() });
    const fill = async () => {
      for (const size of [3_000, 200, 20]) {
        try {
          for (;;) await store.run('INSERT INTO filler (blob) VALUES (randomblob($1))', [size]);
        } catch {}
      }
    };
    const free = () => store.run('DELETE FROM filler');
    return { journal, fill, free };
  }

  it('keeps the records of writes the store refused, tries them again, and journals every one once space is back', async () => {
    const { journal, fill, free } = await cappedJournal();
    const errors: unknown[] = [];
    const sink = new JournalAuditSink(journal, (err) => errors.push(err), {
      maxRecords: 50,
      maxDelayMs: 5,
    });
    for (let i = 0; i < 20; i++) sink.record(record(i));
    await sink.flush();
    await fill();
    // Verdicts go on being answered while the disk is full: their records wait.
    for (let i = 20; i < 320; i++) {
      sink.record(record(i));
      if (i % 60 === 0) await new Promise((r) => setTimeout(r, 20));
    }
    await sink.flush();
    await new Promise((r) => setTimeout(r, 50));
    expect(sink.retained).toBe(300);
    // One report for the whole run of failures, typed, nothing dropped.
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'STORE_FULL' });
    expect((await audited(journal)).records).toHaveLength(20);

    await free();
    // The backoff's next try (or a flush) journals them, oldest first among themselves.
    await new Promise((r) => setTimeout(r, 400));
    await sink.flush();
    expect(sink.retained).toBe(0);
    const { records } = await audited(journal);
    expect(records.map((r) => r.at).sort()).toEqual(
      Array.from({ length: 320 }, (_, i) => record(i).at).sort(),
    );
    expect(new Set(records.map((r) => r.at)).size).toBe(320);
    expect(errors).toHaveLength(1);
    expect((await verifyProject(journal, KERNEL_AUDIT_PROJECT)).ok).toBe(true);
    await sink.close();
  });

  it('keeps at most maxRetained records, reports every one it drops, and close reports what stays refused', async () => {
    const { journal, fill } = await cappedJournal();
    const errors: { code?: string; details?: { dropped?: number } }[] = [];
    const sink = new JournalAuditSink(journal, (err) => errors.push(err as never), {
      maxRecords: 40,
      maxDelayMs: 5,
      maxRetained: 100,
    });
    await fill();
    for (let i = 0; i < 200; i++) {
      sink.record(record(i));
      if (i % 40 === 39) await new Promise((r) => setTimeout(r, 20));
    }
    await sink.flush();
    expect(sink.retained).toBeLessThanOrEqual(100);
    expect(sink.retained).toBeGreaterThan(0);
    const dropped = errors.reduce((n, e) => n + (e.details?.dropped ?? 0), 0);
    expect(dropped + sink.retained).toBe(200);
    await sink.close();
    // Closing tried once more and said so; nothing was journaled on the full disk.
    expect(errors.at(-1)).toMatchObject({ code: 'STORE_FULL' });
    expect((await audited(journal)).records).toHaveLength(0);
  });
});
