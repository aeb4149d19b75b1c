// @ts-check
/**
 * Durable appends per second on SQLite (WAL, synchronous=FULL): `journal.append` against raw
 * better-sqlite3 INSERTs of the journal's own rows into a table of the same schema, same pragmas,
 * separate fresh files per side. (a) one producer, one row per transaction on both sides; (b) 32
 * concurrent producers (the journal group-commits) against raw transactions of 32 rows (the
 * target's baseline), and, for the shape's bound, raw transactions of 16 rows that also move the
 * head row: 32 producers that each await their append commit in two alternating groups of 16.
 */
import { join } from 'node:path';
import { VERDICT } from 'canonry/app';
import { EntryKinds, Journal } from 'canonry/journal';
import { SqliteStore } from 'canonry/store';
import {
  CountingStore,
  entryRows,
  INSERT_ROW_SQLITE,
  migrateJournal,
  rawSqlite,
  rowBytes,
  tempDir,
  verdictInputs,
} from '../lib/journal-data.js';
import { fmtInt, progress, ratio, ratioSpread } from '../lib/measure.js';
import { INPUT_MASK as M } from '../lib/refund.js';
import { fmtRatio, fmtSpread, runIfMain, table } from '../lib/report.js';
import { compareWindows, concurrently } from '../lib/windows.js';

const SCOPE = 'journal/appends-sqlite';
export const TARGET = 0.5;
const PRODUCERS = 32;
const PROJECT = 'bench';
const OPTIONS = { rounds: 9, time: 2_000, warmup: 1_000 };

const J1 = 'canonry journal.append, 1 producer (awaited)';
const R1 = 'raw better-sqlite3 INSERT, autocommit (1 row/tx)';
const J32 = `canonry journal.append, ${PRODUCERS} concurrent producers`;
const R32 = `raw better-sqlite3 INSERT, ${PRODUCERS} rows/tx`;
const R16 = `raw better-sqlite3 INSERT, ${PRODUCERS / 2} rows/tx + the head row moved`;

/**
 * A journal on a fresh SqliteStore file, with the server's settings (signed checkpoint every 1,000,
 * every body checked against its kind, as the runtime does).
 * @param {string} path @param {() => import('canonry/trust').Signer} signer
 */
async function openJournal(path, signer) {
  const store = new CountingStore(new SqliteStore(path));
  await migrateJournal(store);
  return { store, journal: new Journal(store, { signer, kinds: new EntryKinds([VERDICT]) }) };
}

/** @returns {Promise<import('../lib/report.js').BenchResult>} */
export async function main() {
  const tmp = tempDir('appends-sqlite');
  const { inputs, signer, bodyBytes, remove } = await verdictInputs();
  /** @type {{ close(): unknown }[]} */
  const open = [];
  try {
    progress(
      SCOPE,
      `files in ${tmp.dir}; 1,024 kernel.verdict bodies of ${bodyBytes.min}–${bodyBytes.max} bytes`,
    );

    // The raw side inserts the journal's own rows: 1,024 entries appended to a scratch file first.
    const scratch = await openJournal(join(tmp.dir, 'scratch.db'), signer);
    await scratch.journal.appendAll(PROJECT, inputs);
    const rows = await entryRows(scratch.store, PROJECT);
    await scratch.store.close();
    const entryRowBytes = rows.reduce((s, r) => s + rowBytes(r), 0) / rows.length;
    progress(
      SCOPE,
      `rows: entry ${fmtInt(entryRowBytes)} bytes (both sides; receipts are derived on read)`,
    );

    /** The journal's row `i`, renumbered so the raw table's (project, seq) key stays unique. */
    const rawRows = () => {
      let seq = 0;
      return () => {
        const row = /** @type {(string | number | null)[]} */ (rows[seq & M]).slice();
        row[1] = ++seq;
        return row;
      };
    };

    // (a) one producer, one row per transaction.
    progress(SCOPE, '(a) one producer: fresh files a-journal.db and a-raw.db');
    const a = await openJournal(join(tmp.dir, 'a-journal.db'), signer);
    open.push(a.store);
    const aRaw = rawSqlite(join(tmp.dir, 'a-raw.db'));
    open.push(aRaw);
    const aInsert = aRaw.prepare(INSERT_ROW_SQLITE);
    const aNext = rawRows();
    let aInput = 0;
    const sequential = await compareWindows(
      `${SCOPE} (a)`,
      [
        {
          name: J1,
          run: async (deadline) => {
            let n = 0;
            for (; performance.now() < deadline; n++)
              await a.journal.append(PROJECT, /** @type {any} */ (inputs[aInput++ & M]));
            return n;
          },
        },
        {
          name: R1,
          run: async (deadline) => {
            let n = 0;
            for (; performance.now() < deadline; n++) aInsert.run(aNext());
            return n;
          },
        },
      ],
      OPTIONS,
    );
    const aHead = await a.journal.head(PROJECT);

    // (b) 32 concurrent producers; the raw side commits fixed batches of 32 rows.
    progress(SCOPE, `(b) ${PRODUCERS} producers: fresh files b-journal.db and b-raw.db`);
    const b = await openJournal(join(tmp.dir, 'b-journal.db'), signer);
    open.push(b.store);
    const bRaw = rawSqlite(join(tmp.dir, 'b-raw.db'));
    open.push(bRaw);
    const bInsert = bRaw.prepare(INSERT_ROW_SQLITE);
    const bNext = rawRows();
    const insertBatch = bRaw.transaction((/** @type {number} */ count) => {
      for (let k = 0; k < count; k++) bInsert.run(bNext());
    }).immediate;
    // The shape's bound: the rows of one of the journal's two alternating groups, and its head row.
    const cRaw = rawSqlite(join(tmp.dir, 'b-raw16.db'));
    open.push(cRaw);
    cRaw
      .prepare('INSERT INTO journal_heads (project, seq, hash) VALUES (?, 0, ?)')
      .run(PROJECT, 'h');
    const cInsert = cRaw.prepare(INSERT_ROW_SQLITE);
    const cMove = cRaw.prepare(
      'UPDATE journal_heads SET seq = ?, hash = ? WHERE project = ? AND seq = ? AND hash = ?',
    );
    const cNext = rawRows();
    let cHead = 0;
    const insertGroup = cRaw.transaction((/** @type {number} */ count) => {
      cMove.run(cHead + count, 'h', PROJECT, cHead, 'h');
      cHead += count;
      for (let k = 0; k < count; k++) cInsert.run(cNext());
    }).immediate;
    let bInput = 0;
    /** Appends and transactions of each timed journal window, for the achieved batch size. */
    const batches = /** @type {{ appends: number, transactions: number }[]} */ ([]);
    const concurrent = await compareWindows(
      `${SCOPE} (b)`,
      [
        {
          name: J32,
          run: async (deadline) => {
            const before = b.store.transactions;
            const n = await concurrently(PRODUCERS, deadline, () =>
              b.journal.append(PROJECT, /** @type {any} */ (inputs[bInput++ & M])),
            );
            batches.push({ appends: n, transactions: b.store.transactions - before });
            return n;
          },
        },
        {
          name: R32,
          run: async (deadline) => {
            let n = 0;
            for (; performance.now() < deadline; n += PRODUCERS) insertBatch(PRODUCERS);
            return n;
          },
        },
        {
          name: R16,
          run: async (deadline) => {
            let n = 0;
            for (; performance.now() < deadline; n += PRODUCERS / 2) insertGroup(PRODUCERS / 2);
            return n;
          },
        },
      ],
      OPTIONS,
    );
    const bHead = await b.journal.head(PROJECT);
    const timed = batches.slice(1); // the first window is the warm-up
    const appended = timed.reduce((s, w) => s + w.appends, 0);
    const committed = timed.reduce((s, w) => s + w.transactions, 0);
    const achievedBatch = appended / committed;
    progress(
      SCOPE,
      `(b) the journal committed ${fmtInt(appended)} appends in ${fmtInt(committed)} transactions: ${achievedBatch.toFixed(1)} per transaction`,
    );

    const rA = ratio(sequential, J1, R1);
    const rB = ratio(concurrent, J32, R32);
    const spreadA = ratioSpread(sequential, J1, R1);
    const spreadB = ratioSpread(concurrent, J32, R32);
    const rShape = ratio(concurrent, R16, R32);
    const rToShape = ratio(concurrent, J32, R16);
    const verdict = (/** @type {number} */ r, /** @type {[number, number]} */ s) =>
      `**${fmtRatio(r)}** (${fmtSpread(s)}; target ≥ ${TARGET}: ${r >= TARGET ? 'met' : 'NOT met'})`;
    const ops = (
      /** @type {Record<string, import('../lib/measure.js').Measured>} */ m,
      /** @type {string} */ n,
    ) => fmtInt(m[n]?.opsPerSec ?? 0);
    const main = table(
      [
        'target',
        `appends/s (median of ${process.env.BENCH_QUICK ? 2 : OPTIONS.rounds} rounds)`,
        'rows per transaction',
        'ratio to raw',
      ],
      [
        [`(a) ${J1}`, ops(sequential, J1), '1', verdict(rA, spreadA)],
        [`(a) ${R1}`, ops(sequential, R1), '1', '1.00×'],
        [
          `(b) ${J32}`,
          ops(concurrent, J32),
          `${achievedBatch.toFixed(1)} (achieved, mean)`,
          verdict(rB, spreadB),
        ],
        [`(b) ${R32}`, ops(concurrent, R32), `${PRODUCERS} (fixed)`, '1.00×'],
        [
          `(b) for the bound: ${R16}`,
          ops(concurrent, R16),
          `${PRODUCERS / 2} (fixed)`,
          `${fmtRatio(rShape)} (the journal: ${fmtRatio(rToShape)} of it)`,
        ],
      ],
    );
    const note = `Bodies: 1,024 real \`kernel.verdict\` audit records, ${bodyBytes.min}–${bodyBytes.max} bytes of JSON. Both sides insert the same entry rows (${fmtInt(entryRowBytes)} bytes each); per append the journal also moves the head row (compare-and-set) and signs a checkpoint every 1,000 entries; receipts are derived on read. Windows of ${OPTIONS.time / 1000} s, order alternating. The last row is the bound of the journal's shape, not a target: ${PRODUCERS} producers that each await their append commit in two alternating groups of ${PRODUCERS / 2} (each group's next appends are built while the other commits), so each commit carries ${PRODUCERS / 2} rows and the head row where the baseline's carries ${PRODUCERS} (bench/README.md, 1(b)). Entries appended in all (warm-up included): (a) ${fmtInt(aHead.seq)}, (b) ${fmtInt(bHead.seq)}.`;
    return {
      name: 'appends-sqlite',
      title: 'Durable appends on SQLite (WAL, synchronous=FULL) vs raw better-sqlite3 INSERTs',
      tables: [main, note],
      data: {
        sequential,
        concurrent,
        ratioSequential: rA,
        ratioSequentialIqr: spreadA,
        ratioConcurrent: rB,
        ratioConcurrentIqr: spreadB,
        ratioShapeBound: rShape,
        ratioToShapeBound: rToShape,
        target: TARGET,
        metSequential: rA >= TARGET,
        metConcurrent: rB >= TARGET,
        producers: PRODUCERS,
        achievedBatch,
        batchesPerWindow: timed,
        bodyBytes,
        entryRowBytes,
      },
    };
  } finally {
    for (const handle of open.reverse()) await handle.close();
    remove();
    tmp.remove();
  }
}

runIfMain(import.meta.url, main);
