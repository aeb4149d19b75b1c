// The event stream of a server on PostgreSQL when the database's side of it fails, against a real
// server on loopback and a second runtime on the same schema (as a second `canonry serve` would be).
// The server's LISTEN backend is killed: a stream still gets the next commit of the other runtime.
// The database is then unreachable for a while (every connection through a proxy cut, new ones
// refused): `/readyz` says 503 STORE_UNAVAILABLE, the open stream stays open, and once the
// database is back it gets what the other runtime committed meanwhile, `/readyz` is 200 again, and
// the lost LISTEN was reported once, without the database password.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import { CanonryError } from '../../src/core/index.js';
import { buildServer } from '../../src/server/index.js';
import { tokensFor } from '../helpers/auth.js';
import { acceptNotes } from '../helpers/journal.js';
import { type OutageProxy, outageProxy } from '../helpers/outage-proxy.js';
import { tempDir } from '../helpers/runtime.js';
import { openEvents } from '../helpers/sse.js';
import { freshPostgresSchema, PG_URL, postgresAvailable } from '../helpers/stores.js';

const P = 'outage';
const NAME = `canonry_outage_${process.pid}`;
let proxy: OutageProxy;
let served: CanonryRuntime;
let other: CanonryRuntime;
let url: string;
let secret: string;
let close: () => Promise<void>;
const errors: unknown[] = [];

const note = (n: number) => ({ kind: 'test.note', body: { n }, actor: 'x' });
const ready = async () => {
  const res = await fetch(`${url}/readyz`);
  return { status: res.status, body: (await res.json()) as any };
};

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describe.skipIf(!postgresAvailable)('the event stream when PostgreSQL fails under it', () => {
  beforeAll(async () => {
    const schema = await freshPostgresSchema();
    const { dir, cleanup } = tempDir();
    proxy = await outageProxy();
    const through = proxy.via(schema.url);
    through.searchParams.set('application_name', NAME);
    // The test server trusts loopback, so any password is taken; a CI server's own is kept.
    secret = through.password || `pw-${process.pid}-${Date.now().toString(36)}`;
    through.password = secret;
    served = acceptNotes(
      await createCanonry(
        { dataDir: dir, db: through.toString(), logLevel: 'silent' },
        { onError: (err) => errors.push(err) },
      ),
    );
    other = acceptNotes(await createCanonry({ dataDir: dir, db: schema.url, logLevel: 'silent' }));
    const app = buildServer(served, { logLevel: 'silent' });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    close = async () => {
      await app.close();
      await Promise.all([served.close(), other.close()]);
      await proxy.close();
      await schema.drop();
      cleanup();
    };
  }, 60_000);
  afterAll(() => close?.());

  it('keeps streaming through a killed LISTEN backend and a database outage, and reports the lost LISTEN once without secrets', async () => {
    const { v } = await tokensFor(other, P, { v: 'viewer' });
    const stream = await openEvents(`${url}/v1/projects/${P}/events`, v);
    expect(stream.status).toBe(200);
    await other.journal.append(P, note(1));
    expect((await stream.take(1)).map((e) => e.id)).toEqual(['1']);

    // The server's listening backend, killed from outside, and gone before the next commit.
    const pids = await admin(async (c) => {
      const { rows } = await c.query(
        "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query ILIKE 'LISTEN%'",
        [NAME],
      );
      for (const { pid } of rows) await c.query('SELECT pg_terminate_backend($1)', [pid]);
      return rows.map((r: { pid: number }) => r.pid);
    });
    expect(pids).toHaveLength(1);
    for (;;) {
      const left = await admin((c) =>
        c.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pids[0]]),
      );
      if (left.rows.length === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await other.journal.append(P, note(2));
    expect((await stream.take(1)).map((e) => e.id)).toEqual(['2']);

    // The database unreachable: not ready, and the other runtime commits meanwhile.
    proxy.cut();
    const down = await ready();
    expect(down.status).toBe(503);
    expect(down.body.error.code).toBe('STORE_UNAVAILABLE');
    await other.journal.appendAll(P, [note(3), note(4)]);
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await ready()).status).toBe(503);

    // Back: the same stream, never ended, gets what was committed while it could not listen.
    proxy.restore();
    expect((await stream.take(2)).map((e) => e.id)).toEqual(['3', '4']);
    expect((await ready()).status).toBe(200);
    await other.journal.append(P, note(5));
    expect((await stream.take(1)).map((e) => e.id)).toEqual(['5']);
    stream.close();

    // Each failure of the listening connection told once (killed; then lost in the outage).
    const told = errors.filter((e) => e instanceof CanonryError && /notifications/.test(e.message));
    expect(told.length).toBeGreaterThanOrEqual(1);
    expect(told.length).toBeLessThanOrEqual(2);
    for (const err of told as CanonryError[]) {
      expect(err.code).toBe('STORE_UNAVAILABLE');
      expect(`${err.message} ${err.stack} ${JSON.stringify(err)}`).not.toContain(secret);
    }
  });
});
