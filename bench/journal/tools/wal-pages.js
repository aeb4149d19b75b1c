// @ts-check
/**
 * WAL pages written per commit: 500 sequential journal appends, 500 raw autocommit INSERTs of the
 * same rows and 500 LangGraph SqliteSaver puts, each on a fresh file with auto-checkpoints off, so
 * the WAL's size / page size / 500 is the pages each commit appends (and fsyncs).
 * `node bench/journal/tools/wal-pages.js`
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import Database from 'better-sqlite3';
import { Journal } from 'canonry/journal';
import { SqliteStore } from 'canonry/store';
import {
  entryRows,
  INSERT_ROW_SQLITE,
  migrateJournal,
  rawSqlite,
  tempDir,
  verdictInputs,
} from '../../lib/journal-data.js';

const N = 500;
const tmp = tempDir('wal-pages');
const { inputs, signer, remove } = await verdictInputs();
const wal = (/** @type {string} */ path) => statSync(`${path}-wal`).size;

const jPath = join(tmp.dir, 'journal.db');
const store = new SqliteStore(jPath);
await migrateJournal(store);
await store.exec('PRAGMA wal_autocheckpoint = 0');
const journal = new Journal(store, { signer });
await journal.append('bench', /** @type {any} */ (inputs[0]));
const j0 = wal(jPath);
for (let i = 1; i <= N; i++) await journal.append('bench', /** @type {any} */ (inputs[i]));
const jPages = (wal(jPath) - j0) / 4120 / N; // 4,096-byte page + 24-byte frame header
const rows = await entryRows(store, 'bench');
await store.close();

const rPath = join(tmp.dir, 'raw.db');
const raw = rawSqlite(rPath);
raw.pragma('wal_autocheckpoint = 0');
const insert = raw.prepare(INSERT_ROW_SQLITE);
insert.run(rows[0]);
const r0 = wal(rPath);
for (let i = 1; i <= N; i++) insert.run(rows[i]);
const rPages = (wal(rPath) - r0) / 4120 / N;
raw.close();

const lPath = join(tmp.dir, 'langgraph.db');
const db = new Database(lPath);
db.pragma('synchronous = FULL');
db.pragma('wal_autocheckpoint = 0');
const saver = new SqliteSaver(db);
/** @param {number} step */
const put = (step) =>
  saver.put(
    { configurable: { thread_id: 't', checkpoint_ns: '' } },
    /** @type {any} */ ({
      v: 4,
      id: `${String(step).padStart(8, '0')}-0000-6000-8000-000000000000`,
      ts: new Date().toISOString(),
      channel_values: { state: inputs[step]?.body },
      channel_versions: { state: step },
      versions_seen: {},
    }),
    /** @type {any} */ ({ source: 'loop', step, parents: {} }),
  );
await put(0);
const l0 = wal(lPath);
for (let i = 1; i <= N; i++) await put(i);
const lPages = (wal(lPath) - l0) / 4120 / N;
db.close();

process.stdout.write(
  `WAL pages appended per commit (mean of ${N}): journal.append ${jPages.toFixed(2)}, raw INSERT ${rPages.toFixed(2)}, LangGraph put ${lPages.toFixed(2)}\n`,
);
remove();
tmp.remove();
