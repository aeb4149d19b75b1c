// One coordinator per database: two runtimes on one PostgreSQL schema, evolution on in both, each
// with a target that counts what it receives. Only the lease holder dispatches — every event is
// delivered exactly once, and only by the holder, while the other stands by; stopping the holder
// lets the other take over from the shared cursor, and what was committed meanwhile is delivered
// once, nothing skipped or repeated. The lease itself: a holder renews, a stranger cannot take an
// unexpired lease, anyone takes an expired one; on SQLite it is held without a row.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import type { Principal } from '../../src/canon/index.js';
import {
  CoordinatorLease,
  EVOLUTION_MIGRATIONS,
  type EvolutionTarget,
} from '../../src/evolution/index.js';
import { buildServer } from '../../src/server/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { note } from '../helpers/canon.js';
import { tempDir } from '../helpers/runtime.js';
import { freshPostgresSchema, postgresAvailable } from '../helpers/stores.js';

const PROJECT = 'lease';
const OWNER: Principal = { id: 'alice', project: PROJECT, role: 'owner' };

/** A target that takes every event and counts, per event id, how often it got it. */
function counter(name: string, got: Map<string, number>): EvolutionTarget {
  return {
    name,
    path: { name, enforces: ['project'] },
    accepts: () => true,
    receive: async ({ event }) => {
      const id = (event as { event_id: string }).event_id;
      got.set(id, (got.get(id) ?? 0) + 1);
      return { ok: true, record: null };
    },
  };
}

async function until(what: string, ok: () => Promise<boolean> | boolean, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!postgresAvailable)('one coordinator per PostgreSQL database', () => {
  let dir: string;
  let cleanup: () => void;
  let drop: () => Promise<void>;
  let url: string;
  const runtimes: CanonryRuntime[] = [];
  const got = [new Map<string, number>(), new Map<string, number>()];

  const open = (i: number) =>
    createCanonry(
      { dataDir: join(dir, 'data'), db: url, evolution: 'on', logLevel: 'silent' },
      {
        evolution: {
          // Every process registers the same targets; the count is kept per process.
          targets: [counter('count', got[i]!)],
          lease: { ttlMs: 1_500, renewMs: 100 },
        },
      },
    );

  const commit = async (rt: CanonryRuntime, id: string) => {
    const outcome = await rt.canon.propose(OWNER, {
      object_id: id,
      intent: 'create',
      base_version: null,
      candidate: note({ title: id, text: `The ${id} is settled.` }),
      rationale: 'lease test',
    });
    expect(outcome.proposal.status).toBe('committed');
  };

  /** The ids of the events the store holds for the project (one per commit at least). */
  const stored = async (rt: CanonryRuntime) =>
    (await rt.evolution!.events.list(PROJECT, { limit: 500 })).map((e) => e.event_id);

  const delivered = (ids: readonly string[]) =>
    ids.every((id) => (got[0]!.get(id) ?? 0) + (got[1]!.get(id) ?? 0) >= 1);

  beforeAll(async () => {
    ({ dir, cleanup } = tempDir('canonry-lease-'));
    const schema = await freshPostgresSchema();
    drop = schema.drop;
    url = schema.url;
    runtimes.push(await open(0));
    runtimes.push(await open(1));
  }, 120_000);

  afterAll(async () => {
    for (const rt of runtimes) await rt.close().catch(() => undefined);
    await drop?.();
    cleanup?.();
  });

  it('only the holder dispatches: each event is delivered once; the other stands by', async () => {
    const [a, b] = runtimes as [CanonryRuntime, CanonryRuntime];
    const roles = [await a.evolution!.role(), await b.evolution!.role()];
    expect(roles.map((r) => r.role).sort()).toEqual(['leading', 'standby']);
    expect(roles[0]!.lease!.holder).toBe(roles[1]!.lease!.holder);
    const leader = roles[0]!.role === 'leading' ? 0 : 1;
    expect(roles[leader]!.lease!.holder).toBe(roles[leader]!.holder);
    // /readyz says which (real HTTP on loopback).
    for (const [i, rt] of [a, b].entries()) {
      const app = buildServer(rt, { logLevel: 'silent' });
      try {
        const url = await app.listen({ port: 0, host: '127.0.0.1' });
        const ready = (await (await fetch(`${url}/readyz`)).json()) as Record<string, unknown>;
        expect(ready.evolution).toEqual({
          role: i === leader ? 'leading' : 'standby',
          holder: roles[i]!.holder,
          lease_holder: roles[leader]!.holder,
        });
      } finally {
        await app.close();
      }
    }

    // Commits through both processes.
    for (let i = 0; i < 6; i++) await commit(runtimes[i % 2]!, `fact-${i}`);
    await until('every event delivered', async () => {
      const ids = await stored(a);
      return ids.length >= 6 && delivered(ids);
    });
    // Room for a second dispatcher to show itself, had there been one.
    await new Promise((r) => setTimeout(r, 500));
    const ids = await stored(a);
    for (const id of ids) expect(got[leader]!.get(id), id).toBe(1);
    expect(got[1 - leader]!.size).toBe(0);
  });

  it('stopping the holder lets the other take over from the shared cursor: nothing skipped or repeated', async () => {
    const leaderIndex = (await runtimes[0]!.evolution!.role()).role === 'leading' ? 0 : 1;
    const standby = runtimes[1 - leaderIndex]!;
    await runtimes[leaderIndex]!.close();
    const before = new Set(await stored(standby));

    for (let i = 0; i < 4; i++) await commit(standby, `after-${i}`);
    await until(
      'the standby leads',
      async () => (await standby.evolution!.role()).role === 'leading',
    );
    await until('the new events delivered', async () => {
      const ids = await stored(standby);
      return ids.length >= before.size + 4 && delivered(ids);
    });
    await new Promise((r) => setTimeout(r, 500));
    const ids = await stored(standby);
    // Every event once in all, across both processes: the old ones by the first holder only.
    for (const id of ids) {
      expect((got[0]!.get(id) ?? 0) + (got[1]!.get(id) ?? 0), id).toBe(1);
      if (before.has(id)) expect(got[1 - leaderIndex]!.get(id) ?? 0, id).toBe(0);
    }
    expect(
      ids.filter((id) => !before.has(id)).every((id) => got[1 - leaderIndex]!.get(id) === 1),
    ).toBe(true);
    // The runtime stopped gave its lease up; the one leading now holds it.
    const role = await standby.evolution!.role();
    expect(role.lease?.holder).toBe(role.holder);
  }, 60_000);
});

describe('the lease', () => {
  async function leases(store: Store) {
    const a = new CoordinatorLease(store, { name: 'default', holder: 'a', ttlMs: 60_000 });
    const b = new CoordinatorLease(store, { name: 'default', holder: 'b', ttlMs: 60_000 });
    return { a, b };
  }

  it.skipIf(!postgresAvailable)(
    'on PostgreSQL: taken when free, renewed by its holder, refused to another until it expires or is released',
    async () => {
      const schema = await freshPostgresSchema();
      const { dir, cleanup } = tempDir('canonry-lease-pg-');
      const store = await openStore(schema.url, dir, { evolution: EVOLUTION_MIGRATIONS });
      try {
        const { a, b } = await leases(store);
        expect(a.shared).toBe(true);
        expect(await a.acquire()).toBe(true);
        expect(await b.acquire()).toBe(false);
        expect(await a.acquire()).toBe(true);
        expect((await b.current())?.holder).toBe('a');
        await a.release();
        expect(await a.current()).toBeNull();
        expect(await b.acquire()).toBe(true);
        // An expired lease is anyone's.
        await store.run('UPDATE evolution_leases SET expires_at = 0', []);
        expect(await b.current()).toBeNull();
        expect(await a.acquire()).toBe(true);
        expect(await b.acquire()).toBe(false);
        // Concurrent takers of a free lease: exactly one wins.
        await a.release();
        const takers = Array.from(
          { length: 8 },
          (_, i) => new CoordinatorLease(store, { name: 'default', holder: `t${i}` }),
        );
        const won = await Promise.all(takers.map((t) => t.acquire()));
        expect(won.filter(Boolean)).toHaveLength(1);
      } finally {
        await store.close();
        await schema.drop();
        cleanup();
      }
    },
  );

  it('on SQLite (one process owns the file) it is held without a row', async () => {
    const { dir, cleanup } = tempDir('canonry-lease-sqlite-');
    const store = await openStore(undefined, dir, { evolution: EVOLUTION_MIGRATIONS });
    try {
      const { a, b } = await leases(store);
      expect(a.shared).toBe(false);
      expect(await a.acquire()).toBe(true);
      expect(await b.acquire()).toBe(true);
      expect(await store.all('SELECT * FROM evolution_leases')).toEqual([]);
    } finally {
      await store.close();
      cleanup();
    }
  });
});
