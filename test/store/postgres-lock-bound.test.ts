// The store's bound on a write's lock waits (PostgreSQL): 4/5 of the answer timeout where nobody
// set `lock_timeout`, the operator's own where someone did, none inside a migration's exclusive
// transaction. The served behaviour is in test/server/store-lock-wait.test.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PostgresStore } from '../../src/store/index.js';
import { freshPostgresSchema, postgresAvailable } from '../helpers/stores.js';

let schema: Awaited<ReturnType<typeof freshPostgresSchema>>;
const opened: PostgresStore[] = [];

function storeWith(params: Record<string, string>, settings: Record<string, string> = {}) {
  const url = new URL(schema.url);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const options = Object.entries(settings).map(([k, v]) => ` -c ${k}=${v}`);
  url.searchParams.set('options', `${url.searchParams.get('options') ?? ''}${options.join('')}`);
  const store = new PostgresStore({ connectionString: url.toString(), max: 1 });
  opened.push(store);
  return store;
}

/** A setting as a write transaction's session sees it. */
async function setting(store: PostgresStore, name: string, exclusive = false): Promise<string> {
  return store.transaction(
    async (tx) => (await tx.all<{ v: string }>(`SELECT current_setting('${name}') AS v`))[0]!.v,
    { exclusive },
  );
}

describe.skipIf(!postgresAvailable)('a PostgreSQL store’s bound on lock waits', () => {
  beforeEach(async () => {
    schema = await freshPostgresSchema();
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    await schema.drop();
  });

  it('bounds a write session’s lock waits at 4/5 of the answer timeout, and checks its client', async () => {
    expect(await setting(storeWith({}), 'lock_timeout')).toBe('24s');
    const quick = storeWith({ query_timeout: '1500' });
    expect(await setting(quick, 'lock_timeout')).toBe('1200ms');
    expect(await setting(quick, 'client_connection_check_interval')).toBe('1s');
  });

  it('leaves an operator’s lock_timeout as it is', async () => {
    expect(await setting(storeWith({}, { lock_timeout: '100' }), 'lock_timeout')).toBe('100ms');
    expect(await setting(storeWith({}, { lock_timeout: '0' }), 'lock_timeout')).toBe('0');
  });

  it('lifts its own bound in a migration’s exclusive transaction, but not an operator’s', async () => {
    const store = storeWith({});
    expect(await setting(store, 'lock_timeout', true)).toBe('0');
    expect(await setting(store, 'lock_timeout')).toBe('24s');
    const operators = storeWith({}, { lock_timeout: '100' });
    expect(await setting(operators, 'lock_timeout', true)).toBe('100ms');
  });
});
