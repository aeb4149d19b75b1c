// The database's own conditions, as an operator's settings or a failover make them: a read-only
// database (a standby), a `lock_timeout`, a `statement_timeout`. Each is a typed store error naming
// its SQLSTATE — never a raw driver error, which the server would answer 500 INTERNAL — and the
// store works again once the condition passes.
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CanonryError } from '../../src/core/index.js';
import { JOURNAL_MIGRATIONS, Journal } from '../../src/journal/index.js';
import { migrate, PostgresStore } from '../../src/store/index.js';
import { count } from '../helpers/journal.js';
import { freshPostgresSchema, postgresAvailable } from '../helpers/stores.js';

let schema: Awaited<ReturnType<typeof freshPostgresSchema>>;
const opened: { close(): Promise<unknown> }[] = [];

/** A store on the schema whose sessions start with `settings` (libpq `options`, as an operator sets them). */
function storeWith(settings: Record<string, string>): PostgresStore {
  const url = new URL(schema.url);
  const options = [
    url.searchParams.get('options') ?? '',
    ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`),
  ].join(' ');
  url.searchParams.set('options', options);
  const store = new PostgresStore({ connectionString: url.toString(), max: 2 });
  opened.push(store);
  return store;
}

async function failure(work: () => Promise<unknown>): Promise<CanonryError> {
  const err = await work().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CanonryError);
  return err as CanonryError;
}

describe.skipIf(!postgresAvailable)(
  'a PostgreSQL store under the database’s own conditions',
  () => {
    beforeEach(async () => {
      schema = await freshPostgresSchema();
      const setup = storeWith({});
      await setup.exec('CREATE TABLE t (id INT PRIMARY KEY, x INT)');
      await setup.run('INSERT INTO t (id, x) VALUES (1, 0)');
    });
    afterEach(async () => {
      while (opened.length > 0) await opened.pop()!.close();
      await schema.drop();
    });

    it('answers writes to a read-only database (a standby) STORE_UNAVAILABLE, reads still answer', async () => {
      const standby = storeWith({ default_transaction_read_only: 'on' });
      const single = await failure(() => standby.run('UPDATE t SET x = 1 WHERE id = 1'));
      expect(single.code).toBe('STORE_UNAVAILABLE');
      expect(single.details).toEqual({ sqlstate: '25006' });
      expect(single.message).toContain('read-only');
      const inTx = await failure(() =>
        standby.transaction((tx) => tx.run('UPDATE t SET x = 2 WHERE id = 1')),
      );
      expect(inTx.code).toBe('STORE_UNAVAILABLE');
      expect(await standby.all('SELECT x FROM t')).toEqual([{ x: 0 }]);
      // The journal's appends too: typed, and nothing of them kept.
      const writable = storeWith({});
      await migrate(writable, { journal: JOURNAL_MIGRATIONS });
      const journal = new Journal(standby);
      const append = await failure(() => journal.append('alpha', count('on a standby')));
      expect(append.code).toBe('STORE_UNAVAILABLE');
      await journal.close();
      expect(await writable.all('SELECT count(*)::int AS n FROM journal_entries')).toEqual([
        { n: 0 },
      ]);
    });

    it('answers a lock not granted within lock_timeout STORE_BUSY, and the same work succeeds once the lock is free', async () => {
      const holder = new pg.Client({ connectionString: schema.url });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT * FROM t WHERE id = 1 FOR UPDATE');
        const impatient = storeWith({ lock_timeout: '100' });
        const update = () =>
          impatient.transaction((tx) => tx.run('UPDATE t SET x = 3 WHERE id = 1'));
        const err = await failure(update);
        expect(err.code).toBe('STORE_BUSY');
        expect(err.details).toEqual({ sqlstate: '55P03' });
        await holder.query('COMMIT');
        await update();
        expect(await impatient.all('SELECT x FROM t')).toEqual([{ x: 3 }]);
      } finally {
        await holder.end();
      }
    });

    it('answers a statement cancelled by statement_timeout STORE_UNAVAILABLE', async () => {
      const hurried = storeWith({ statement_timeout: '100' });
      const err = await failure(() => hurried.all('SELECT pg_sleep(2)'));
      expect(err.code).toBe('STORE_UNAVAILABLE');
      expect(err.details).toEqual({ sqlstate: '57014' });
      expect(await hurried.all('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    });
  },
);
