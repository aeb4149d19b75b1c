// @ts-check
/**
 * Durable appends on PostgreSQL with 8 concurrent writers: `journal.append` against raw INSERTs of
 * the journal's own rows by 8 concurrent connections (autocommit, one row per statement), into a
 * table of the same schema in a schema of its own. The writers on the journal side are 8 independent
 * PostgresStore + Journal instances with one connection each (what 8 writer processes would be),
 * appending to 8 projects or all to one project; plus, for reference, one Journal with a pool of 8
 * and 8 concurrent producers (group commit).
 */
import { Journal } from 'canonry/journal';
import { PostgresStore } from 'canonry/store';
import pg from 'pg';
import {
  entryRows,
  JOURNAL_DDL,
  oneConnectionJournals,
  rawInserts,
  rowBytes,
  verdictInputs,
} from '../lib/journal-data.js';
import { fmtInt, progress, ratio, ratioSpread } from '../lib/measure.js';
import { BENCH_PG as DATABASE, inSchema } from '../lib/postgres.js';
import { INPUT_MASK as M } from '../lib/refund.js';
import { fmtRatio, fmtSpread, runIfMain, table } from '../lib/report.js';
import { compareWindows, concurrently } from '../lib/windows.js';

const SCOPE = 'journal/appends-postgres';
export const TARGET = 0.5;
const WRITERS = 8;
const OPTIONS = { rounds: 9, time: 2_000, warmup: 1_000 };

const SPREAD = `canonry: ${WRITERS} journals (1 connection each), ${WRITERS} projects`;
const SHARED = `canonry: ${WRITERS} journals (1 connection each), 1 project`;
const GROUP = `canonry: 1 journal (pool of ${WRITERS}), ${WRITERS} producers, 1 project`;
const RAW = `raw pg INSERT (prepared), ${WRITERS} connections, autocommit (1 row/tx)`;

/** @returns {Promise<import('../lib/report.js').BenchResult>} */
export async function main() {
  const stamp = `${Date.now().toString(36)}_${process.pid}`;
  const journalSchema = `bench_journal_${stamp}`;
  const rawSchema = `bench_raw_${stamp}`;
  const admin = new pg.Client({ connectionString: DATABASE });
  await admin.connect();
  const settings = Object.fromEntries(
    (
      await admin.query(
        `SELECT name, setting FROM pg_settings WHERE name IN ('synchronous_commit', 'fsync', 'wal_sync_method', 'commit_delay', 'server_version', 'shared_buffers')`,
      )
    ).rows.map((r) => [r.name, r.setting]),
  );
  progress(
    SCOPE,
    `PostgreSQL ${settings.server_version}, synchronous_commit=${settings.synchronous_commit}, fsync=${settings.fsync}, wal_sync_method=${settings.wal_sync_method}`,
  );
  const { inputs, signer, bodyBytes, remove } = await verdictInputs();
  /** @type {{ close?(): unknown, end?(): unknown }[]} */
  const open = [];
  try {
    progress(SCOPE, `schemas ${journalSchema} (journal) and ${rawSchema} (raw)`);
    await admin.query(`CREATE SCHEMA ${journalSchema}`);
    await admin.query(`CREATE SCHEMA ${rawSchema}`);

    // 8 writers as 8 processes would be: a store with one connection and a journal each.
    const { stores, journals } = await oneConnectionJournals(
      inSchema(journalSchema),
      WRITERS,
      signer,
    );
    // Journals after their stores: closed first (a leader gives its lease up through its store).
    open.push(...stores, ...journals);
    const pooled = new PostgresStore({ connectionString: inSchema(journalSchema), max: WRITERS });
    open.push(pooled);
    const groupJournal = new Journal(pooled, { signer });

    // The raw side inserts the journal's own rows (1,024 entries appended first), renumbered.
    await /** @type {Journal} */ (journals[0]).appendAll('rows', inputs);
    const rows = await entryRows(/** @type {PostgresStore} */ (stores[0]), 'rows');
    const entryRowBytes = rows.reduce((s, r) => s + rowBytes(r), 0) / rows.length;
    progress(
      SCOPE,
      `rows: entry ${fmtInt(entryRowBytes)} bytes (both sides); bodies ${bodyBytes.min}–${bodyBytes.max} bytes`,
    );

    const raw = Array.from(
      { length: WRITERS },
      () => new pg.Client({ connectionString: inSchema(rawSchema) }),
    );
    for (const client of raw) {
      await client.connect();
      open.push(client);
    }
    await /** @type {pg.Client} */ (raw[0]).query(JOURNAL_DDL);

    let k = 0;
    const input = () => /** @type {any} */ (inputs[k++ & M]);
    const results = await compareWindows(
      SCOPE,
      [
        {
          name: SPREAD,
          run: (deadline) =>
            concurrently(WRITERS, deadline, (p) =>
              /** @type {Journal} */ (journals[p]).append(`w${p}`, input()),
            ),
        },
        {
          name: SHARED,
          run: (deadline) =>
            concurrently(WRITERS, deadline, (p) =>
              /** @type {Journal} */ (journals[p]).append('shared', input()),
            ),
        },
        {
          name: GROUP,
          run: (deadline) =>
            concurrently(WRITERS, deadline, () => groupJournal.append('group', input())),
        },
        {
          name: RAW,
          run: rawInserts(raw, rows),
        },
      ],
      OPTIONS,
    );
    const heads = {
      spread: (await Promise.all(journals.map((j, p) => j.head(`w${p}`)))).reduce(
        (s, h) => s + h.seq,
        0,
      ),
      shared: (await groupJournal.head('shared')).seq,
      group: (await groupJournal.head('group')).seq,
    };

    const rows3 = [SPREAD, SHARED, GROUP].map((name) => {
      const r = ratio(results, name, RAW);
      const spread = ratioSpread(results, name, RAW);
      return {
        name,
        r,
        spread,
        cells: [
          name,
          fmtInt(results[name]?.opsPerSec ?? 0),
          `**${fmtRatio(r)}** (${fmtSpread(spread)}; target ≥ ${TARGET}: ${r >= TARGET ? 'met' : 'NOT met'})`,
        ],
      };
    });
    const main = table(
      [
        'writers',
        `appends/s (median of ${process.env.BENCH_QUICK ? 2 : OPTIONS.rounds} rounds)`,
        'ratio to raw',
      ],
      [...rows3.map((row) => row.cells), [RAW, fmtInt(results[RAW]?.opsPerSec ?? 0), '1.00×']],
    );
    const note = `PostgreSQL ${settings.server_version} on the same 2-core machine (synchronous_commit=${settings.synchronous_commit}, fsync=${settings.fsync}, wal_sync_method=${settings.wal_sync_method}, commit_delay=${settings.commit_delay}). All writers run in one Node process; every journal writer awaits its own appends one after the other. A plain append from a known head is one statement (head compare-and-set and entry INSERT in a data-modifying CTE); when the head moved under it, a transaction with SELECT … FOR UPDATE on the head row; once another writer has moved a head under a journal, its plain appends to that project go over loopback TCP to the journal that leads the project (as \`canonry serve\` does by default on PostgreSQL: src/journal/README.md, "Forwarded appends"), which commits each group of them in one statement; the pooled journal commits its groups of plain appends in one statement too; the raw side runs one autocommit INSERT of an entry row of the same size (${fmtInt(entryRowBytes)} bytes). Entries appended in all (warm-up included): ${fmtInt(heads.spread)} over 8 projects, ${fmtInt(heads.shared)} to the shared project, ${fmtInt(heads.group)} through the pooled journal.`;
    return {
      name: 'appends-postgres',
      title: `Durable appends on PostgreSQL, ${WRITERS} concurrent writers, vs raw INSERTs`,
      tables: [main, note],
      data: {
        results,
        ratios: Object.fromEntries(
          rows3.map((row) => [row.name, { ratio: row.r, iqr: row.spread, met: row.r >= TARGET }]),
        ),
        target: TARGET,
        writers: WRITERS,
        settings,
        entryRowBytes,
        bodyBytes,
      },
    };
  } finally {
    for (const handle of open.reverse()) await (handle.end ? handle.end() : handle.close?.());
    await admin.query(`DROP SCHEMA IF EXISTS ${journalSchema} CASCADE`);
    await admin.query(`DROP SCHEMA IF EXISTS ${rawSchema} CASCADE`);
    await admin.end();
    remove();
  }
}

runIfMain(import.meta.url, main);
