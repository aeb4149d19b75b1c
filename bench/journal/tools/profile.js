// @ts-check
/**
 * Where a journal operation's time goes, for the README: runs one scenario and reports
 *  1. the wall time of every SQL statement class per operation, measured by a store wrapper around
 *     the transaction (for SQLite, whose driver is synchronous, that is the statement's CPU + I/O);
 *     "BEGIN/COMMIT + queue" is the transaction's wall time minus its statements;
 *  2. a V8 CPU profile of the measured phase only (node:inspector), grouped into categories by the
 *     sampled function and its callers. Written to /tmp/canonry-journal-<scenario>.cpuprofile.
 *
 * node bench/journal/tools/profile.js <sqlite-1 | sqlite-32 | pg-8 | pg-8-shared | rebuild> [seconds | entries]
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { Journal, rebuildProject } from 'canonry/journal';
import { PostgresStore, SqliteStore } from 'canonry/store';
import pg from 'pg';
import { migrateJournal, tempDir, verdictInputs } from '../../lib/journal-data.js';
import { fmtInt, progress } from '../../lib/measure.js';
import { BENCH_PG as DATABASE, inSchema } from '../../lib/postgres.js';
import { INPUT_MASK as M } from '../../lib/refund.js';
import { table } from '../../lib/report.js';
import { concurrently } from '../../lib/windows.js';
import { VERDICT_COUNTS } from '../rebuild.js';

const [scenario = 'sqlite-32', arg] = process.argv.slice(2);
const SCOPE = `profile ${scenario}`;

/** Wall time per statement class, summed over the measured phase. */
const sql = /** @type {Map<string, { ms: number, calls: number }>} */ (new Map());
let txMs = 0;
let txCount = 0;
let measuring = false;
const classes = /** @type {Map<string, string>} */ (new Map());
/** `INSERT INTO journal_receipts …` → "INSERT journal_receipts" (cached per text). @param {string} text */
const classOf = (text) => {
  const known = classes.get(text);
  if (known !== undefined) return known;
  const name = classify(text);
  classes.set(text, name);
  return name;
};
/** @param {string} text */
const classify = (text) => {
  const words = text.replace(/\s+/g, ' ').trim().split(' ');
  const verb = (words[0] ?? '').toUpperCase();
  const table = words[words.findIndex((w) => /^(FROM|INTO|UPDATE)$/i.test(w)) + 1] ?? '';
  const lock = /FOR UPDATE/i.test(text) ? ' … FOR UPDATE' : '';
  return `${verb} ${verb === 'UPDATE' ? (words[1] ?? '') : table}${lock}`;
};
/** @template T @param {string} text @param {() => Promise<T>} work @returns {Promise<T>} */
async function timed(text, work) {
  const start = performance.now();
  try {
    return await work();
  } finally {
    if (measuring) {
      const key = classOf(text);
      const slot = sql.get(key) ?? { ms: 0, calls: 0 };
      slot.ms += performance.now() - start;
      slot.calls++;
      sql.set(key, slot);
    }
  }
}
/**
 * A Store whose transactions time each statement.
 * @param {import('canonry/store').Store} inner @returns {import('canonry/store').Store}
 */
function timing(inner) {
  return {
    capabilities: inner.capabilities,
    description: inner.description,
    all: (text, params) => timed(text, () => inner.all(text, params)),
    values: (text, params) => timed(text, () => inner.values(text, params)),
    run: (text, params) => timed(text, () => inner.run(text, params)),
    exec: (text) => inner.exec(text),
    close: () => inner.close(),
    transaction: async (work, options) => {
      const start = performance.now();
      try {
        return await inner.transaction(
          (tx) =>
            work({
              all: (text, params) => timed(text, () => tx.all(text, params)),
              values: (text, params) => timed(text, () => tx.values(text, params)),
              run: (text, params) => timed(text, () => tx.run(text, params)),
              exec: (text) => tx.exec(text),
            }),
          options,
        );
      } finally {
        if (measuring) {
          txMs += performance.now() - start;
          txCount++;
        }
      }
    },
  };
}

/** Category of a CPU sample: the first rule that matches the leaf or, going up, one of its callers. */
const RULES = /** @type {[string, (fn: string, url: string) => boolean][]} */ ([
  ['(garbage collector)', (fn) => fn === '(garbage collector)'],
  ['idle (waiting: fsync in another thread, network round trips)', (fn) => fn === '(idle)'],
  [
    'SQLite BEGIN/COMMIT (WAL append + fsync)',
    (fn, url) =>
      (fn === 'exec' && url.includes('better-sqlite3')) ||
      (fn === '#exec' && url.endsWith('sqlite-store.js')),
  ],
  [
    'SQLite statements: INSERT/UPDATE/DELETE (run)',
    (fn, url) => url.endsWith('sqlite-store.js') && fn === '#run',
  ],
  [
    'SQLite statements: SELECT (all)',
    (fn, url) => url.endsWith('sqlite-store.js') && fn === '#read',
  ],
  ['canonical JSON (RFC 8785)', (_fn, url) => url.endsWith('canonical-json.js')],
  ['SHA-256', (fn, url) => url === 'node:internal/crypto/hash' || fn === 'sha256Hex'],
  ['Ed25519 (signed checkpoints)', (fn) => fn === 'signOneShot'],
  ['rowToEntry (JSON.parse of body, authority, receipt)', (fn) => fn === 'rowToEntry'],
  [
    'pg driver + sockets',
    (_fn, url) => /node_modules\/pg|pg-protocol|node:net|stream_base/.test(url),
  ],
  ['LangGraph saver (serde, copyCheckpoint, uuid6)', (_fn, url) => url.includes('@langchain')],
]);

/** @param {any} profile @param {number} wallMs */
function categories(profile, wallMs) {
  const byId = new Map(profile.nodes.map((/** @type {any} */ n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  /** @type {Map<string, number>} */
  const spent = new Map();
  let total = 0;
  profile.samples.forEach((/** @type {number} */ id, /** @type {number} */ i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    total += dt;
    let category = 'other JS (entries, receipts, projections, queue, promises)';
    for (
      let node = byId.get(id), depth = 0;
      node && depth < 6;
      node = byId.get(parent.get(node.id)), depth++
    ) {
      const { functionName: fn, url } = node.callFrame;
      const rule = RULES.find(([, test]) => test(fn, url));
      if (rule) {
        category = rule[0];
        break;
      }
      if (fn === '(program)') {
        category = '(program: native code V8 does not attribute)';
        break;
      }
    }
    spent.set(category, (spent.get(category) ?? 0) + dt);
  });
  const rows = [...spent].sort((a, b) => b[1] - a[1]);
  return { rows, total, wallMs };
}

async function main() {
  const { inputs, signer, remove } = await verdictInputs();
  const tmp = tempDir(`profile-${scenario}`);
  const cleanup = /** @type {(() => Promise<unknown> | unknown)[]} */ ([
    () => remove(),
    () => tmp.remove(),
  ]);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  /** @param {string} unit @param {() => Promise<number>} phase */
  const measure = async (unit, phase) => {
    measuring = true;
    await session.post('Profiler.start');
    const start = performance.now();
    const ops = await phase();
    const wallMs = performance.now() - start;
    const { profile } = await session.post('Profiler.stop');
    measuring = false;
    const file = `/tmp/canonry-journal-${scenario}.cpuprofile`;
    writeFileSync(file, JSON.stringify(profile));
    report(unit, ops, wallMs, profile, file);
  };
  try {
    const seconds = Number(arg ?? 10);
    if (scenario.startsWith('sqlite')) {
      const producers = scenario === 'sqlite-32' ? 32 : 1;
      const store = timing(new SqliteStore(join(tmp.dir, 'journal.db')));
      cleanup.unshift(() => store.close());
      await migrateJournal(store);
      const journal = new Journal(store, { signer });
      let k = 0;
      await concurrently(producers, performance.now() + 1000, () =>
        journal.append('bench', /** @type {any} */ (inputs[k++ & M])),
      );
      await measure('append', () =>
        concurrently(producers, performance.now() + seconds * 1000, () =>
          journal.append('bench', /** @type {any} */ (inputs[k++ & M])),
        ),
      );
    } else if (scenario.startsWith('pg-8')) {
      const schema = `bench_profile_${Date.now().toString(36)}_${process.pid}`;
      const admin = new pg.Client({ connectionString: DATABASE });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      cleanup.push(async () => {
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        await admin.end();
      });
      const url = inSchema(schema);
      const stores = Array.from({ length: 8 }, () =>
        timing(new PostgresStore({ connectionString: url, max: 1 })),
      );
      cleanup.unshift(() => Promise.all(stores.map((s) => s.close())));
      await migrateJournal(/** @type {any} */ (stores[0]));
      const journals = stores.map((s) => new Journal(s, { signer }));
      const project = (/** @type {number} */ p) =>
        scenario === 'pg-8-shared' ? 'shared' : `w${p}`;
      let k = 0;
      await concurrently(8, performance.now() + 1000, (p) =>
        /** @type {Journal} */ (journals[p]).append(
          project(p),
          /** @type {any} */ (inputs[k++ & M]),
        ),
      );
      await measure('append', () =>
        concurrently(8, performance.now() + seconds * 1000, (p) =>
          /** @type {Journal} */ (journals[p]).append(
            project(p),
            /** @type {any} */ (inputs[k++ & M]),
          ),
        ),
      );
    } else if (scenario === 'rebuild') {
      const entries = Number(arg ?? 200_000);
      const store = timing(new SqliteStore(join(tmp.dir, 'journal.db')));
      cleanup.unshift(() => store.close());
      await migrateJournal(store);
      await store.exec(
        'CREATE TABLE verdict_counts (project TEXT NOT NULL, verdict TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (project, verdict))',
      );
      const journal = new Journal(store, { projections: [VERDICT_COUNTS], signer });
      for (let done = 0; done < entries; done += 5_000) {
        const batch = Array.from({ length: 5_000 }, (_, i) => inputs[(done + i) & M]);
        await journal.appendAll('bench', /** @type {any} */ (batch));
      }
      progress(SCOPE, `built ${fmtInt(entries)} entries; rebuilding under the profiler`);
      await store.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      await measure('entry', async () => (await rebuildProject(journal, 'bench')).entries);
    } else {
      throw new Error(`unknown scenario ${scenario}`);
    }
  } finally {
    session.disconnect();
    for (const step of cleanup) await step();
  }
}

/**
 * @param {string} unit @param {number} ops @param {number} wallMs @param {any} profile @param {string} file
 */
function report(unit, ops, wallMs, profile, file) {
  const perOp = (/** @type {number} */ ms) => ((ms * 1000) / ops).toFixed(1);
  const share = (/** @type {number} */ ms) => `${((100 * ms) / wallMs).toFixed(1)} %`;
  const statementMs = [...sql.values()].reduce((s, v) => s + v.ms, 0);
  const sqlRows = [...sql]
    .sort((a, b) => b[1].ms - a[1].ms)
    .map(([key, v]) => [key, fmtInt(v.calls), perOp(v.ms), share(v.ms)]);
  if (txCount > 0)
    sqlRows.push([
      `rest of the transaction: BEGIN, COMMIT, JS between statements (${fmtInt(txCount)} transactions)`,
      fmtInt(txCount),
      perOp(txMs - statementMs),
      share(txMs - statementMs),
    ]);
  const { rows, total } = categories(profile, wallMs);
  process.stdout.write(
    `## ${scenario}: ${fmtInt(ops)} × ${unit} in ${(wallMs / 1000).toFixed(1)} s (${fmtInt((ops * 1000) / wallMs)}/s)\n\n` +
      `Statement wall time (sums across concurrent writers can exceed 100 %):\n\n${table(['statement', 'calls', `µs per ${unit}`, 'share of wall time'], sqlRows)}\n\n` +
      `CPU profile of this process (${file}, ${(total / 1000).toFixed(1)} s sampled):\n\n${table(
        ['where', `µs per ${unit}`, 'share'],
        rows.map(([k, ms]) => [k, perOp(ms), `${((100 * ms) / total).toFixed(1)} %`]),
      )}\n`,
  );
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
