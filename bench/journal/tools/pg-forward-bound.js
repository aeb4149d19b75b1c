// @ts-check
/**
 * A design probe for one hot project across processes (issue 13's ≥ 0.5× raw INSERTs): what the
 * best known cross-process shape — every writer forwards its append to one leader, which commits
 * them through one journal with group commit — could reach on this host before any of its own
 * machinery (leader election, peer addresses, authentication, fail-over) is built.
 *
 * Eight writers, each with its own socket to a leader in this process (a Unix socket: the cheapest
 * IPC between two processes on one host, cheaper than the TCP between processes behind a load
 * balancer), newline-delimited JSON, one outstanding append per writer as in the bench. The leader
 * appends each message through one `Journal` (`PostgresStore` with `leader` connections) and
 * replies with the entry's seq and hash. Two message forms:
 *
 * - `json`: the entry input as JSON (what a forwarder must send);
 * - `index`: the input's index in a table both sides hold — no serialisation at all, the bound of
 *   any message format.
 *
 * Since 12-05 the journal forwards (append-forwarded.ts) and the bench's hot row measures that; this
 * tool keeps the probe's own leader and compares it with the parked path (forwarding off).
 *
 * Alternated in the same rounds with the eight one-connection journals of the parked path and
 * the raw INSERTs it is measured against (the journal's own rows, renumbered, prepared).
 * `node bench/journal/tools/pg-forward-bound.js [rounds] [leader connections]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal, verifyProject } from 'canonry/journal';
import { PostgresStore } from 'canonry/store';
import pg from 'pg';
import {
  entryRows,
  JOURNAL_DDL,
  oneConnectionJournals,
  rawInserts,
  verdictInputs,
} from '../../lib/journal-data.js';
import { progress, ratio, ratioSpread } from '../../lib/measure.js';
import { BENCH_PG as DATABASE, inSchema } from '../../lib/postgres.js';
import { INPUT_MASK as M } from '../../lib/refund.js';
import { compareWindows, concurrently } from '../../lib/windows.js';

const SCOPE = 'pg-forward-bound';
const rounds = Number(process.argv[2] ?? 5);
const leaderConnections = Number(process.argv[3] ?? 1);
const WRITERS = 8;

/**
 * Calls `on` with each newline-delimited JSON message that arrives on `socket`.
 * @param {import('node:net').Socket} socket @param {(message: any) => void} on
 */
function onMessages(socket, on) {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => {
    buffered += chunk;
    for (let i = buffered.indexOf('\n'); i >= 0; i = buffered.indexOf('\n')) {
      on(JSON.parse(buffered.slice(0, i)));
      buffered = buffered.slice(i + 1);
    }
  });
}

/**
 * A writer's end of its socket: sends one message a call, resolves with the leader's reply.
 * @param {string} path
 * @returns {Promise<{ send(message: object): Promise<{ seq: number, hash: string }>, close(): void }>}
 */
function connectWriter(path) {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    /** @type {Map<number, { resolve: (v: any) => void, reject: (e: Error) => void }>} */
    const waiting = new Map();
    let next = 0;
    onMessages(socket, (reply) => {
      const w = waiting.get(reply.id);
      waiting.delete(reply.id);
      if (reply.error) w?.reject(new Error(reply.error));
      else w?.resolve(reply);
    });
    socket.once('error', reject);
    socket.once('connect', () =>
      resolve({
        send: (message) =>
          new Promise((ok, fail) => {
            const id = ++next;
            waiting.set(id, { resolve: ok, reject: fail });
            socket.write(`${JSON.stringify({ id, ...message })}\n`);
          }),
        close: () => socket.destroy(),
      }),
    );
  });
}

const stamp = `${Date.now().toString(36)}_${process.pid}`;
const journalSchema = `fwd_journal_${stamp}`;
const rawSchema = `fwd_raw_${stamp}`;
const admin = new pg.Client({ connectionString: DATABASE });
await admin.connect();
await admin.query(`CREATE SCHEMA ${journalSchema}`);
await admin.query(`CREATE SCHEMA ${rawSchema}`);
const { inputs, signer, remove } = await verdictInputs();
const socketDir = mkdtempSync(join(tmpdir(), 'canonry-forward-'));
/** @type {{ close(): unknown }[]} */
const open = [];
try {
  const { stores, journals } = await oneConnectionJournals(
    inSchema(journalSchema),
    WRITERS,
    signer,
    { forward: false },
  );
  open.push(...stores);
  const leaderStore = new PostgresStore({
    connectionString: inSchema(journalSchema),
    max: leaderConnections,
  });
  open.push(leaderStore);
  const leader = new Journal(leaderStore, { signer });

  const path = join(socketDir, 'leader.sock');
  const server = createServer((socket) => {
    onMessages(socket, (m) => {
      const input = typeof m.index === 'number' ? inputs[m.index] : m.input;
      leader.append(m.project, /** @type {any} */ (input)).then(
        (r) =>
          socket.write(`${JSON.stringify({ id: m.id, seq: r.entry.seq, hash: r.entry.hash })}\n`),
        (err) => socket.write(`${JSON.stringify({ id: m.id, error: String(err) })}\n`),
      );
    });
  });
  await new Promise((ok) => server.listen(path, () => ok(undefined)));
  open.push({ close: () => server.close() });
  const writers = await Promise.all(Array.from({ length: WRITERS }, () => connectWriter(path)));
  open.push(...writers);

  await /** @type {Journal} */ (journals[0]).appendAll('rows', inputs);
  const rows = await entryRows(/** @type {PostgresStore} */ (stores[0]), 'rows');
  const raw = Array.from(
    { length: WRITERS },
    () => new pg.Client({ connectionString: inSchema(rawSchema) }),
  );
  for (const client of raw) {
    await client.connect();
    open.push({ close: () => client.end() });
  }
  await /** @type {pg.Client} */ (raw[0]).query(JOURNAL_DDL);

  const HOT = `${WRITERS} journals (1 connection each), 1 project, parking (the bench's hot row until 12-05)`;
  const JSON_FORWARD = `forwarded to a leader (${leaderConnections} connection${leaderConnections === 1 ? '' : 's'}), input as JSON`;
  const INDEX_FORWARD = `forwarded to a leader (${leaderConnections} connection${leaderConnections === 1 ? '' : 's'}), input by index`;
  const RAW = `raw pg INSERT (prepared), ${WRITERS} connections`;
  let k = 0;
  const results = await compareWindows(
    SCOPE,
    [
      {
        name: HOT,
        run: (deadline) =>
          concurrently(WRITERS, deadline, (p) =>
            /** @type {Journal} */ (journals[p]).append(
              'shared',
              /** @type {any} */ (inputs[k++ & M]),
            ),
          ),
      },
      {
        name: JSON_FORWARD,
        run: (deadline) =>
          concurrently(WRITERS, deadline, (p) =>
            writers[p]?.send({ project: 'forwarded', input: inputs[k++ & M] }),
          ),
      },
      {
        name: INDEX_FORWARD,
        run: (deadline) =>
          concurrently(WRITERS, deadline, (p) =>
            writers[p]?.send({ project: 'forwarded', index: k++ & M }),
          ),
      },
      {
        name: RAW,
        run: rawInserts(raw, rows),
      },
    ],
    { rounds, time: 2_000, warmup: 1_000 },
  );
  // The leader's chain must hold every forwarded append once, in order.
  const report = await verifyProject(leader, 'forwarded');
  if (!report.ok)
    throw new Error(`the forwarded chain does not verify: ${JSON.stringify(report.broken)}`);
  for (const name of [HOT, JSON_FORWARD, INDEX_FORWARD]) {
    const [lo, hi] = ratioSpread(results, name, RAW);
    progress(
      SCOPE,
      `${name}: ${ratio(results, name, RAW).toFixed(2)}× raw (IQR ${lo.toFixed(2)}–${hi.toFixed(2)})`,
    );
  }
  progress(
    SCOPE,
    `the forwarded chain verifies: ${report.checked} entries, head seq ${report.head.seq}`,
  );
} finally {
  for (const o of open.reverse()) await o.close();
  await admin.query(`DROP SCHEMA IF EXISTS ${journalSchema} CASCADE`);
  await admin.query(`DROP SCHEMA IF EXISTS ${rawSchema} CASCADE`);
  await admin.end();
  rmSync(socketDir, { recursive: true, force: true });
  remove();
}
