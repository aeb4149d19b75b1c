// @ts-check
/**
 * Journal benchmark inputs and the raw baselines' plumbing: 1,024 real kernel verdict audit records
 * as journal entries (exactly what the server's JournalAuditSink appends), the journal's own row
 * columns, a raw better-sqlite3 connection with the SqliteStore's pragmas, and a store wrapper that
 * counts transactions (to see the batch sizes group commit achieved).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { canonicalize } from 'canonry/core';
import { JOURNAL_MIGRATIONS, Journal } from 'canonry/journal';
import { compileProtocol, Kernel, MemoryAuditSink } from 'canonry/kernel';
import { migrate, PostgresStore } from 'canonry/store';
import { Keyring } from 'canonry/trust';
import { INPUT_COUNT, metadataHashes, refundArtifacts, refundProtocol } from './refund.js';
import { concurrently } from './windows.js';

/** A fresh temporary directory and a function that removes it. @param {string} name */
export function tempDir(name) {
  const dir = mkdtempSync(join(tmpdir(), `canonry-bench-${name}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * 1,024 `kernel.verdict` entries: the kernel evaluates the refund artifacts with a real signer and a
 * MemoryAuditSink, and each audit record becomes an entry the way JournalAuditSink builds it (`at`
 * dropped, `actor: 'kernel'`, `authority: { issuer }`). Bodies are 508–526 bytes of canonical JSON.
 * Also returns the signer (for the journal's signed checkpoints) and the keyring directory's cleanup.
 * @returns {Promise<{ inputs: import('canonry/journal').EntryInput[], signer: () => import('canonry/trust').Signer, bodyBytes: { min: number, max: number, mean: number }, remove: () => void }>}
 */
export async function verdictInputs() {
  const { dir, remove } = tempDir('keyring');
  const signer = (await Keyring.init(dir)).signer();
  const audit = new MemoryAuditSink();
  const kernel = new Kernel({ signer, audit });
  const compiled = compileProtocol(refundProtocol());
  const artifacts = refundArtifacts();
  const metas = metadataHashes();
  for (let i = 0; i < INPUT_COUNT; i++)
    kernel.evaluate(artifacts[i], compiled, /** @type {any} */ (metas[i]));
  const inputs = audit.records.map((record) => {
    const { at: _at, ...body } = record;
    return {
      kind: 'kernel.verdict',
      body: /** @type {any} */ (body),
      actor: 'kernel',
      authority: { issuer: record.issuer },
    };
  });
  const sizes = inputs.map((input) => Buffer.byteLength(canonicalize(input.body)));
  const bodyBytes = {
    min: Math.min(...sizes),
    max: Math.max(...sizes),
    mean: sizes.reduce((a, b) => a + b, 0) / sizes.length,
  };
  return { inputs, signer: () => signer, bodyBytes, remove };
}

/** The columns of `journal_entries`, in the order the journal inserts them. */
export const ENTRY_COLUMNS = /** @type {const} */ ([
  'project',
  'seq',
  'format',
  'at',
  'kind',
  'body',
  'actor',
  'authority',
  'correlation_id',
  'idempotency_key',
  'receipt',
  'prev_hash',
  'hash',
]);

/** The journal's own INSERT of one entry row, with `?` (SQLite) or `$n` (PostgreSQL) placeholders. */
export const INSERT_ROW_SQLITE = `INSERT INTO journal_entries (${ENTRY_COLUMNS.join(', ')}) VALUES (${ENTRY_COLUMNS.map(() => '?').join(', ')})`;
export const INSERT_ROW_PG = `INSERT INTO journal_entries (${ENTRY_COLUMNS.join(', ')}) VALUES (${ENTRY_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`;

/**
 * The raw side of the PostgreSQL benches: each of `clients` inserts the journal's own `rows`
 * (renumbered, under a project of its own: `w<p>`) with one prepared autocommit INSERT, awaiting
 * each. Returns a window target's `run`.
 * @param {import('pg').Client[]} clients @param {(string | number | null)[][]} rows
 * @returns {(deadline: number) => Promise<number>}
 */
export function rawInserts(clients, rows) {
  const seq = new Array(clients.length).fill(0);
  return (deadline) =>
    concurrently(clients.length, deadline, (p, i) => {
      const row = /** @type {(string | number | null)[]} */ (
        rows[(p * 128 + i) % rows.length]
      ).slice();
      row[0] = `w${p}`;
      row[1] = ++seq[p];
      // Prepared once per connection, as the journal's statements are.
      return /** @type {import('pg').Client} */ (clients[p]).query({
        name: 'raw_insert',
        text: INSERT_ROW_PG,
        values: row,
      });
    });
}

/** The schema the journal's migration creates (identical tables and indexes for the raw side). */
export const JOURNAL_DDL = /** @type {string} */ (JOURNAL_MIGRATIONS[0]?.up);

/** Creates the journal's tables in a store (its migrations only). @param {import('canonry/store').Store} store */
export const migrateJournal = (store) => migrate(store, { journal: JOURNAL_MIGRATIONS });

/**
 * The journal's own rows of a project, as arrays in {@link ENTRY_COLUMNS} order.
 * @param {Pick<import('canonry/store').Store, 'all'>} store @param {string} project
 * @returns {Promise<(string | number | null)[][]>}
 */
export async function entryRows(store, project) {
  const rows = await store.all(
    `SELECT ${ENTRY_COLUMNS.join(', ')} FROM journal_entries WHERE project = $1 ORDER BY seq`,
    [project],
  );
  return rows.map((row) =>
    ENTRY_COLUMNS.map((c) => /** @type {string | number | null} */ (/** @type {any} */ (row)[c])),
  );
}

/** Stored bytes of one row (text as UTF-8, numbers as 8). @param {(string | number | null)[]} row */
export const rowBytes = (row) =>
  row.reduce(
    (/** @type {number} */ sum, v) =>
      sum + (typeof v === 'string' ? Buffer.byteLength(v) : v === null ? 0 : 8),
    0,
  );

/**
 * `n` journals as `n` writer processes would be: a `PostgresStore` with one connection and a
 * `Journal` each, the journal's tables made through the first. Like `canonry serve` on PostgreSQL,
 * each forwards its plain appends to a contended project's leader on loopback (or leads it), unless
 * `forward` is false: then a contended project's appends park in the database.
 * @param {string} url @param {number} n @param {() => import('canonry/trust').Signer} signer
 * @param {{ forward?: boolean }} [options]
 */
export async function oneConnectionJournals(url, n, signer, { forward = true } = {}) {
  const stores = Array.from(
    { length: n },
    () => new PostgresStore({ connectionString: url, max: 1 }),
  );
  await migrateJournal(/** @type {PostgresStore} */ (stores[0]));
  const options = forward ? { signer, forward: {} } : { signer };
  return { stores, journals: stores.map((store) => new Journal(store, options)) };
}

/**
 * A raw better-sqlite3 connection with exactly the SqliteStore's settings (busy_timeout, WAL,
 * synchronous=FULL) and the journal's schema (same tables and indexes).
 * @param {string} path
 */
export function rawSqlite(path) {
  const db = new Database(path);
  db.pragma('busy_timeout = 30000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(JOURNAL_DDL);
  return db;
}

/**
 * A Store that forwards everything and counts transactions, so the achieved group-commit batch size
 * is `appends / transactions`.
 */
export class CountingStore {
  transactions = 0;
  /** @param {import('canonry/store').Store} inner */
  constructor(inner) {
    this.inner = inner;
    this.capabilities = inner.capabilities;
    this.description = inner.description;
    // Batches committed on a SQLite file's background writer are transactions too.
    const writer = inner.background;
    /** @type {import('canonry/store').BackgroundWriter | undefined} */
    this.background = writer && {
      commit: (statements) => {
        this.transactions++;
        return writer.commit(statements);
      },
    };
  }
  /** @type {import('canonry/store').Store['all']} */
  all(sql, params) {
    return this.inner.all(sql, params);
  }
  /** @type {import('canonry/store').Store['values']} */
  values(sql, params) {
    return this.inner.values(sql, params);
  }
  /** @type {import('canonry/store').Store['run']} */
  run(sql, params) {
    return this.inner.run(sql, params);
  }
  /** @type {import('canonry/store').Store['exec']} */
  exec(sql) {
    return this.inner.exec(sql);
  }
  /** @type {import('canonry/store').Store['transaction']} */
  transaction(work, options) {
    this.transactions++;
    return this.inner.transaction(work, options);
  }
  close() {
    return this.inner.close();
  }
}
