// A server on PostgreSQL whose write meets a row lock another session holds: an operator's
// `SELECT … FROM journal_heads WHERE project = … FOR UPDATE` left open in psql, say. The request is
// answered 503 (typed, with Retry-After) within the store's bound — its lock wait is ended by the
// server at 4/5 of the answer timeout, or, when an operator turned that off, its session ends once
// the client gives up — with nothing of it journaled, no session of the runtime left queued for the
// lock, and the next write after the lock is released succeeds and verifies. The URL's
// `query_timeout` is short here (the default: 30 s, so a lock wait is bounded at 24 s).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createCanonry } from '../../src/app/index.js';
import { buildServer } from '../../src/server/index.js';
import { call, STORY_SUBJECTS, tokensFor } from '../helpers/auth.js';
import { tempDir } from '../helpers/runtime.js';
import { freshPostgresSchema, postgresAvailable } from '../helpers/stores.js';

const P = 'locked';
const NAME = `canonry_lock_wait_${process.pid}`;
const QUERY_TIMEOUT_MS = 1_500;
/** The store's lock bound for that answer timeout (4/5 of it). */
const LOCK_BOUND_MS = 1_200;
/** What the request may take past the bound it waits out: the request's own work, a slow machine. */
const SLACK_MS = 1_000;

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

/** A served runtime on a fresh schema, its sessions started with `settings`; a direct client. */
async function served(settings: Record<string, string> = {}) {
  const schema = await freshPostgresSchema();
  closers.push(() => schema.drop());
  const { dir, cleanup } = tempDir();
  closers.push(async () => cleanup());
  mkdirSync(join(dir, 'classifiers'), { recursive: true });
  writeFileSync(join(dir, 'classifiers', `${P}.json`), JSON.stringify(STORY_SUBJECTS));
  const db = new URL(schema.url);
  db.searchParams.set('application_name', NAME);
  db.searchParams.set('query_timeout', String(QUERY_TIMEOUT_MS));
  const options = Object.entries(settings).map(([k, v]) => ` -c ${k}=${v}`);
  db.searchParams.set('options', `${db.searchParams.get('options') ?? ''}${options.join('')}`);
  const runtime = await createCanonry({ dataDir: dir, db: db.toString(), logLevel: 'silent' });
  closers.push(() => runtime.close());
  const app = buildServer(runtime, { logLevel: 'silent' });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  closers.push(() => app.close());
  const direct = new pg.Client({ connectionString: schema.url });
  await direct.connect();
  closers.push(() => direct.end());
  const t = await tokensFor(runtime, P, { alice: 'owner' });
  const message = (i: number) =>
    call(url, 'POST', `/v1/projects/${P}/messages`, t.alice, {
      text: `I would like a ${i % 2 ? 'red' : 'blue'} interface, take ${i}.`,
    });
  const count = async (sql: string, params: unknown[]) =>
    Number((await direct.query<{ n: string }>(sql, params)).rows[0]!.n);
  const entries = () => count('SELECT count(*) AS n FROM journal_entries WHERE project = $1', [P]);
  /** The runtime's sessions waiting for a lock now. */
  const waiting = () =>
    count(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
      [NAME],
    );
  const verify = () =>
    call(url, 'GET', `/v1/projects/${P}/journal/verify?projections=true`, t.alice);
  return { message, entries, waiting, verify, schema };
}

/** A session of its own holding `project`'s head row locked, as an operator's open psql would. */
async function holdHead(connectionString: string, project: string) {
  const holder = new pg.Client({ connectionString });
  await holder.connect();
  closers.push(() => holder.end());
  await holder.query('BEGIN');
  const { rowCount } = await holder.query(
    'SELECT * FROM journal_heads WHERE project = $1 FOR UPDATE',
    [project],
  );
  expect(rowCount).toBe(1);
  return { release: () => holder.query('COMMIT') };
}

/** The journal and its projections verify through the server. */
async function verifies(s: { verify: () => ReturnType<typeof call> }) {
  const verified = await s.verify();
  expect(verified.status).toBe(200);
  expect(verified.body).toMatchObject({ ok: true, broken: null, projections: { mismatch: null } });
}

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!postgresAvailable)(
  'a server on PostgreSQL whose write meets a held row lock',
  () => {
    it('answers 503 STORE_BUSY with Retry-After within the lock bound, journals nothing, leaves no session waiting, and writes once the lock is free', async () => {
      const s = await served();
      expect((await s.message(0)).status).toBe(201);
      const before = await s.entries();

      const lock = await holdHead(s.schema.url, P);
      const started = performance.now();
      const refused = await s.message(1);
      const took = performance.now() - started;
      console.log(`lock held: answered ${refused.status} in ${Math.round(took)} ms`);

      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe('STORE_BUSY');
      expect(refused.body.error.details).toEqual({ sqlstate: '55P03' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(took).toBeGreaterThanOrEqual(LOCK_BOUND_MS - 100);
      expect(took).toBeLessThan(LOCK_BOUND_MS + SLACK_MS);
      // The server ended the wait: no session of the runtime still queues for the lock.
      expect(await s.waiting()).toBe(0);
      expect(await s.entries()).toBe(before);

      await lock.release();
      expect((await s.message(2)).status).toBe(201);
      expect(await s.entries()).toBeGreaterThan(before);
      await verifies(s);
    }, 30_000);

    it('with the lock bound turned off in the URL, answers 503 once the client gives up and the session waiting for the lock ends', async () => {
      // The operator's lock_timeout (0: none) wins over the store's bound.
      const off = await served({ lock_timeout: '0' });
      expect((await off.message(0)).status).toBe(201);
      const before = await off.entries();

      const lock = await holdHead(off.schema.url, P);
      const started = performance.now();
      const refused = await off.message(1);
      const took = performance.now() - started;
      console.log(`lock bound off: answered ${refused.status} in ${Math.round(took)} ms`);

      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe('STORE_UNAVAILABLE');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // The answer timeout, once (a transaction's statement) or twice (a lone statement, its session
      // ended and read back, then run in a transaction): never again per job.
      expect(took).toBeLessThan(2 * QUERY_TIMEOUT_MS + SLACK_MS);
      // The session whose client gave up notices (client_connection_check_interval, 1 s) and ends.
      expect(await until(async () => (await off.waiting()) === 0, 2_500)).toBe(true);
      expect(await off.entries()).toBe(before);

      await lock.release();
      expect((await off.message(2)).status).toBe(201);
      await verifies(off);
    }, 30_000);
  },
);
