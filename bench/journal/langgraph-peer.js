// @ts-check
/**
 * The peer: LangGraph's SQLite checkpointer (`SqliteSaver` from @langchain/langgraph-checkpoint-sqlite)
 * writing one checkpoint per step, whose state is the same kernel verdict record a journal entry
 * carries as its body, against `journal.append` on SQLite, one producer on both sides, same run.
 *
 * Pragmas: SqliteSaver.setup() only sets `journal_mode=WAL`. better-sqlite3 12 is compiled with
 * SQLITE_DEFAULT_WAL_SYNCHRONOUS=1, so once the file is in WAL mode a connection that never set
 * `synchronous` runs at NORMAL: commits are not fsynced (durable only at checkpoints). canonry's
 * SqliteStore sets synchronous=FULL explicitly. The fair row gives the saver a connection with
 * synchronous=FULL (`new SqliteSaver(db)`); the saver as shipped is shown for reference.
 */
import { join } from 'node:path';
import { emptyCheckpoint, uuid6 } from '@langchain/langgraph-checkpoint';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import Database from 'better-sqlite3';
import { canonicalize } from 'canonry/core';
import { Journal } from 'canonry/journal';
import { SqliteStore } from 'canonry/store';
import { migrateJournal, tempDir, verdictInputs } from '../lib/journal-data.js';
import { fmtInt, progress, ratio, ratioSpread } from '../lib/measure.js';
import { INPUT_MASK as M } from '../lib/refund.js';
import { fmtRatio, fmtSpread, runIfMain, table } from '../lib/report.js';
import { compareWindows } from '../lib/windows.js';

const SCOPE = 'journal/langgraph-peer';
const OPTIONS = { rounds: 9, time: 2_000, warmup: 1_000 };

const CANONRY = 'canonry journal.append (WAL, synchronous=FULL)';
const LG_FULL = 'LangGraph SqliteSaver.put (WAL, synchronous=FULL)';
const LG_SHIPPED = 'LangGraph SqliteSaver.put as shipped (WAL, synchronous unset)';

/** @param {import('better-sqlite3').Database} db */
const syncMode = (db) =>
  ['OFF', 'NORMAL', 'FULL', 'EXTRA'][
    /** @type {number} */ (db.pragma('synchronous', { simple: true }))
  ];

/**
 * A checkpointer "thread" that puts one checkpoint per step the way LangGraph's loop does: a new
 * uuid6 id, the parent's id in the config, the state in `channel_values`, bumped channel versions.
 * @param {SqliteSaver} saver @param {string} thread @param {unknown[]} states
 */
function checkpointThread(saver, thread, states) {
  let parent = /** @type {string | undefined} */ (undefined);
  let step = 0;
  return async () => {
    step++;
    const checkpoint = {
      ...emptyCheckpoint(),
      id: uuid6(step & 0x3fff),
      ts: new Date().toISOString(),
      channel_values: { state: states[step & M] },
      channel_versions: { state: step },
      versions_seen: { agent: { state: step - 1 } },
    };
    const config = {
      configurable: {
        thread_id: thread,
        checkpoint_ns: '',
        ...(parent ? { checkpoint_id: parent } : {}),
      },
    };
    const next = await saver.put(
      config,
      /** @type {any} */ (checkpoint),
      /** @type {any} */ ({ source: 'loop', step, parents: {} }),
    );
    parent = next.configurable?.checkpoint_id;
  };
}

/** @returns {Promise<import('../lib/report.js').BenchResult>} */
export async function main() {
  const tmp = tempDir('langgraph');
  const { inputs, signer, bodyBytes, remove } = await verdictInputs();
  /** @type {{ close(): unknown }[]} */
  const open = [];
  try {
    progress(
      SCOPE,
      `files in ${tmp.dir}; states = the journal bodies, ${bodyBytes.min}–${bodyBytes.max} bytes`,
    );
    const store = new SqliteStore(join(tmp.dir, 'canonry.db'));
    open.push(store);
    await migrateJournal(store);
    const journal = new Journal(store, { signer });

    const states = inputs.map((input) => input.body);
    const fullDb = new Database(join(tmp.dir, 'langgraph-full.db'));
    fullDb.pragma('synchronous = FULL');
    const fullSaver = new SqliteSaver(fullDb);
    open.push(fullDb);
    const shippedSaver = SqliteSaver.fromConnString(join(tmp.dir, 'langgraph-shipped.db'));
    open.push(shippedSaver.db);
    const putFull = checkpointThread(fullSaver, 'bench', states);
    const putShipped = checkpointThread(shippedSaver, 'bench', states);
    await putFull();
    await putShipped();
    const modes = {
      canonry: /** @type {any} */ (await store.all('PRAGMA synchronous'))[0]?.synchronous,
      full: syncMode(fullDb),
      shipped: syncMode(shippedSaver.db),
      shippedJournalMode: shippedSaver.db.pragma('journal_mode', { simple: true }),
    };
    progress(
      SCOPE,
      `effective synchronous: canonry ${['OFF', 'NORMAL', 'FULL'][modes.canonry]}, saver (fair) ${modes.full}, saver as shipped ${modes.shipped} (journal_mode ${modes.shippedJournalMode})`,
    );
    if (modes.canonry !== 2 || modes.full !== 'FULL')
      throw new Error('the fair rows are not both synchronous=FULL');

    let k = 0;
    const results = await compareWindows(
      SCOPE,
      [
        {
          name: CANONRY,
          run: async (deadline) => {
            let n = 0;
            for (; performance.now() < deadline; n++)
              await journal.append('bench', /** @type {any} */ (inputs[k++ & M]));
            return n;
          },
        },
        {
          name: LG_FULL,
          run: async (deadline) => {
            let n = 0;
            for (; performance.now() < deadline; n++) await putFull();
            return n;
          },
        },
        {
          name: LG_SHIPPED,
          run: async (deadline) => {
            let n = 0;
            for (; performance.now() < deadline; n++) await putShipped();
            return n;
          },
        },
      ],
      OPTIONS,
    );

    // Bytes per step on each side.
    const lgRow = /** @type {{ c: number, m: number }} */ (
      fullDb
        .prepare('SELECT avg(length(checkpoint)) AS c, avg(length(metadata)) AS m FROM checkpoints')
        .get()
    );
    const entry = /** @type {any} */ (
      await store.all(
        `SELECT avg(length(body) + length(at) + length(kind) + length(actor) + length(authority) + length(receipt) + length(prev_hash) + length(hash) + length(project)) AS e FROM journal_entries`,
      )
    )[0].e;
    const stateBytes =
      states.reduce((/** @type {number} */ s, b) => s + Buffer.byteLength(canonicalize(b)), 0) /
      states.length;

    const rFull = ratio(results, CANONRY, LG_FULL);
    const rShipped = ratio(results, CANONRY, LG_SHIPPED);
    const main = table(
      [
        'writer (one producer, awaited)',
        `writes/s (median of ${process.env.BENCH_QUICK ? 2 : OPTIONS.rounds} rounds)`,
        'bytes written per step',
        'canonry ÷ this',
      ],
      [
        [
          CANONRY,
          fmtInt(results[CANONRY]?.opsPerSec ?? 0),
          `${fmtInt(entry)} entry (receipt derived on read)`,
          '1.00×',
        ],
        [
          LG_FULL,
          fmtInt(results[LG_FULL]?.opsPerSec ?? 0),
          `${fmtInt(lgRow.c)} checkpoint + ${fmtInt(lgRow.m)} metadata`,
          `**${fmtRatio(rFull)}** (${fmtSpread(ratioSpread(results, CANONRY, LG_FULL))})`,
        ],
        [
          `${LG_SHIPPED}, effective ${modes.shipped}`,
          fmtInt(results[LG_SHIPPED]?.opsPerSec ?? 0),
          `${fmtInt(lgRow.c)} checkpoint + ${fmtInt(lgRow.m)} metadata`,
          `${fmtRatio(rShipped)} (${fmtSpread(ratioSpread(results, CANONRY, LG_SHIPPED))})`,
        ],
      ],
    );
    const note = `State per step: the same 1,024 kernel verdict records the journal appends as bodies (mean ${fmtInt(stateBytes)} bytes of JSON), as \`channel_values.state\` of a LangGraph v4 checkpoint; one \`put\` per step with the parent's id, no \`putWrites\`. \`SqliteSaver.setup()\` sets only \`journal_mode=WAL\`; better-sqlite3 12 is built with \`SQLITE_DEFAULT_WAL_SYNCHRONOUS=1\`, so the saver as shipped commits at synchronous=${modes.shipped} (no fsync per commit). The fair row hands the saver a connection with \`synchronous=FULL\`, the pragma canonry's SqliteStore sets. Separate fresh files per side; canonry also hash-chains every entry (its receipt is derived on read), updates the head and signs a checkpoint every 1,000 entries.`;
    return {
      name: 'langgraph-peer',
      title: 'canonry journal vs LangGraph SqliteSaver, one write per step',
      tables: [main, note],
      data: {
        results,
        ratioFull: rFull,
        ratioShipped: rShipped,
        modes,
        bytes: { entry, checkpoint: lgRow.c, metadata: lgRow.m, state: stateBytes },
      },
    };
  } finally {
    for (const handle of open.reverse()) await handle.close();
    remove();
    tmp.remove();
  }
}

runIfMain(import.meta.url, main);
