// The claims on dead-letter retries, on SQLite and PostgreSQL: one holder per dead letter; a claim
// released (a stop cut the retry short) or expired (its holder died) may be taken again, a settled
// one (its outcome journaled) never; a newer dead letter of the same delivery is claimed afresh;
// a delivery that is not a dead letter is never claimed.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import { RetryClaims } from '../../src/evolution/index.js';
import { tempDir } from '../helpers/runtime.js';
import { freshPostgresSchema, postgresAvailable } from '../helpers/stores.js';

const ENGINES = ['sqlite', ...(postgresAvailable ? ['postgres' as const] : [])] as const;

const closers: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function open(engine: 'sqlite' | 'postgres'): Promise<CanonryRuntime> {
  const { dir, cleanup } = tempDir('canonry-retry-claim-');
  closers.push(cleanup);
  let db: string | undefined;
  if (engine === 'postgres') {
    const schema = await freshPostgresSchema();
    closers.push(schema.drop);
    db = schema.url;
  }
  const rt = await createCanonry({
    dataDir: join(dir, 'data'),
    logLevel: 'silent',
    ...(db === undefined ? {} : { db }),
  });
  closers.push(() => rt.close());
  return rt;
}

/** The delivery's latest state, as the `evolution` projection keeps it. */
async function delivery(rt: CanonryRuntime, outcome: string, seq: number) {
  await rt.store.run(
    `INSERT INTO evolution_deliveries
       (project, event_id, target, outcome, attempts, code, reason, record, seq)
     VALUES ('p', 'e', 't', $1, 1, NULL, NULL, NULL, $2)
     ON CONFLICT (project, event_id, target) DO UPDATE SET outcome = excluded.outcome, seq = excluded.seq`,
    [outcome, seq],
  );
}

describe.each(ENGINES)('claims on dead-letter retries, on %s', (engine) => {
  it('one holder per dead letter; released or expired it is taken again, settled never', async () => {
    const rt = await open(engine);
    const a = new RetryClaims(rt.store, 'a');
    const b = new RetryClaims(rt.store, 'b');
    expect(await a.claim('p', 'e', 't')).toBeNull(); // no delivery at all
    await delivery(rt, 'dead_letter', 5);
    const held = await a.claim('p', 'e', 't');
    expect(held?.deadSeq).toBe(5);
    expect(await b.claim('p', 'e', 't')).toBeNull();
    expect(await a.claim('p', 'e', 't')).toBeNull(); // not even by its holder, twice

    await held!.release();
    const again = await b.claim('p', 'e', 't');
    expect(again?.deadSeq).toBe(5);
    expect(await a.claim('p', 'e', 't')).toBeNull();

    // A holder that died: its claim expires by the database's clock.
    await again!.release();
    const brief = new RetryClaims(rt.store, 'brief', 1);
    expect((await brief.claim('p', 'e', 't'))?.deadSeq).toBe(5);
    await new Promise((r) => setTimeout(r, 20));
    const taken = await a.claim('p', 'e', 't');
    expect(taken?.deadSeq).toBe(5);

    // Settled: its outcome is journaled, so nobody takes this dead letter again, expired or not.
    await taken!.finish();
    await taken!.renew(); // a late renewal does not unsettle it
    expect(await b.claim('p', 'e', 't')).toBeNull();
    expect(await brief.claim('p', 'e', 't')).toBeNull();

    // The retry dead-lettered again: a new dead letter, claimed afresh.
    await delivery(rt, 'dead_letter', 9);
    expect((await b.claim('p', 'e', 't'))?.deadSeq).toBe(9);

    // Delivered: not a dead letter, never claimed.
    await delivery(rt, 'delivered', 12);
    expect(await new RetryClaims(rt.store, 'c', 1).claim('p', 'e', 't')).toBeNull();
  });
});
