import { afterAll, afterEach, beforeAll } from 'vitest';
import { defineEntryKind, type Journal, type Projection } from '../../src/journal/index.js';
import type { Store } from '../../src/store/index.js';
import { Keyring } from '../../src/trust/index.js';
import { tempDir } from './runtime.js';
import type { Engine } from './stores.js';

/** The free-form kind the runtime suites append when all they need is some entry in a project. */
export const NOTE = defineEntryKind<unknown>({ kind: 'test.note', version: 1, schema: {} });

/**
 * Lets a runtime's journal take `test.note` entries: the runtime registers only the kinds its own
 * modules write, and refuses any other (UNKNOWN_ENTRY_KIND).
 */
export function acceptNotes<T extends { readonly journal: Journal }>(runtime: T): T {
  runtime.journal.kinds?.register(NOTE);
  return runtime;
}

/** A small projection used by the journal suites: named counters per project. */
export const COUNTERS: Projection = {
  name: 'test-counters',
  kinds: ['test.count'],
  tables: ['test_counters'],
  async apply(tx, entry) {
    const { name, by } = entry.body as { name: string; by: number };
    await tx.run(
      `INSERT INTO test_counters (project, name, value, last_seq) VALUES ($1, $2, $3, $4)
       ON CONFLICT (project, name) DO UPDATE SET value = test_counters.value + $3, last_seq = $4`,
      [entry.project, name, by, entry.seq],
    );
  },
};

/** Creates the counters table. */
export async function createCounters(store: Store): Promise<void> {
  await store.exec(
    'CREATE TABLE IF NOT EXISTS test_counters (project TEXT NOT NULL, name TEXT NOT NULL, value BIGINT NOT NULL, last_seq BIGINT NOT NULL, PRIMARY KEY (project, name))',
  );
}

/**
 * For a describe block: a function that makes a fresh store of `engine` with the counters table;
 * the store of each test is closed and removed after it.
 */
export function counterStores(engine: Engine): () => Promise<Store> {
  let made: { store: Store; cleanup: () => Promise<void> } | undefined;
  afterEach(async () => {
    if (!made) return;
    const { store, cleanup } = made;
    made = undefined;
    await store.close();
    await cleanup();
  });
  return async () => {
    made = await engine.fresh();
    await createCounters(made.store);
    return made.store;
  };
}

/** Every row of the projection tables for a project, in a stable order, for equality checks. */
export async function projectionRows(store: Store, project: string): Promise<unknown> {
  return {
    counters: await store.all(
      'SELECT name, value, last_seq FROM test_counters WHERE project = $1 ORDER BY name',
      [project],
    ),
  };
}

/** An entry for the counters projection. */
export function count(name: string, by = 1, extra: Record<string, unknown> = {}) {
  return {
    kind: 'test.count',
    body: { name, by },
    actor: 'tester',
    authority: { role: 'owner' },
    ...extra,
  };
}

/**
 * A development keyring for the suite that calls this (made before its tests, removed after): the
 * signer a journal signs checkpoints with, and the trust anchor they verify against.
 */
export function suiteKeyring() {
  let keyring: Keyring | undefined;
  let cleanup = () => {};
  beforeAll(async () => {
    const made = tempDir();
    cleanup = made.cleanup;
    keyring = await Keyring.init(made.dir);
  });
  afterAll(() => cleanup());
  return {
    signer: () => keyring!.signer(),
    anchor: () => ({
      root: keyring!.rootCertificatePem,
      revocationList: keyring!.revocationListPem(),
    }),
  };
}
