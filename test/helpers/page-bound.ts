import { expect } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import {
  type NoteContent,
  type Principal,
  type ProposalOutcome,
  registerArtifact,
} from '../../src/canon/index.js';
import { contentHash } from '../../src/core/index.js';
import type { Queryable } from '../../src/store/index.js';
import { create, currentHash, type EngineRuntime, PROJECT } from './canon.js';

/** The rows a reader was handed: in all, and by the statements that read `FROM table`. */
export interface RowsSeen {
  rows: number;
  from(table: string): number;
}

/**
 * `store` with every `all` counted: a page read through it says how many rows the store handed
 * over, which is what bounds its work (never the time it took).
 */
export function counting<S extends Pick<Queryable, 'all'>>(store: S): { db: S; seen: RowsSeen } {
  const reads: { sql: string; rows: number }[] = [];
  const seen: RowsSeen = {
    rows: 0,
    from: (table) =>
      reads
        .filter(({ sql }) => new RegExp(`FROM ${table}\\b`).test(sql))
        .reduce((n, { rows }) => n + rows, 0),
  };
  const db = new Proxy(store, {
    get(target, key, receiver) {
      if (key !== 'all') return Reflect.get(target, key, receiver);
      return async (sql: string, params?: readonly unknown[]) => {
        const rows = await target.all(sql, params as never);
        seen.rows += rows.length;
        reads.push({ sql, rows: rows.length });
        return rows;
      };
    },
  });
  return { db, seen };
}

/** SQLite reads every range of `sql` on `table` from the index range `range` names, never a scan. */
export async function expectIndexedReads(
  store: Pick<Queryable, 'all'>,
  table: string,
  sql: string,
  params: readonly unknown[],
  range: string,
): Promise<void> {
  const plan = await store.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params as never);
  const reads = plan.map((r) => r.detail).filter((d) => d.includes(table));
  expect(reads.length).toBeGreaterThan(0);
  for (const read of reads) expect(read).toContain(`SEARCH ${table} USING INDEX ${range}`);
}

/**
 * A note of a bounded-page scenario, titled by its id and holding its value, personal to `p` or
 * the project's. The scenario's ground truth: people commit their own notes, and an agent's (a
 * decision) waits for a person.
 */
export async function scenarioNote(
  runtime: CanonryRuntime,
  p: Principal,
  id: string,
  personal: boolean,
  extra: Partial<NoteContent> = {},
): Promise<ProposalOutcome> {
  const agent = p.role === 'agent';
  const outcome = await create(runtime, p, id, {
    title: id,
    text: `The value of ${id}.`,
    visibility: personal ? 'personal' : 'project',
    ...(agent ? { object_type: 'decision' } : {}),
    ...extra,
  });
  expect(outcome.proposal.status).toBe(agent ? 'pending' : 'committed');
  return outcome;
}

/** An artifact `id` of `p` built on the current version of the note `on`. */
export async function scenarioArtifact(
  runtime: CanonryRuntime,
  p: Principal,
  id: string,
  on: string,
): Promise<void> {
  await registerArtifact(runtime.canon, p, {
    artifact_id: id,
    canonical_note_versions: [{ object_id: on, version_hash: await currentHash(runtime, on) }],
    output_digest: contentHash({ id }),
  });
}

/**
 * `e`'s database turned into one made before `table` had a holder (the column, the `indexes` on it
 * and its `migration`'s mark gone), then opened by another runtime: that runtime, and the holder its
 * migration gave each row, by `idColumn`.
 */
export async function reopenedWithoutHolder(
  e: EngineRuntime,
  table: string,
  idColumn: string,
  indexes: readonly string[],
  migration: string,
): Promise<{ again: CanonryRuntime; holders: Map<string, string | null> }> {
  const { store } = e.runtime;
  await store.exec(indexes.map((index) => `DROP INDEX ${index};`).join(' '));
  await store.exec(`ALTER TABLE ${table} DROP COLUMN holder`);
  await store.run('DELETE FROM canonry_migrations WHERE name = $1', [migration]);
  const again = await e.another();
  const rows = await again.store.all<{ id: string; holder: string | null }>(
    `SELECT ${idColumn} AS id, holder FROM ${table} WHERE project = $1`,
    [PROJECT],
  );
  return { again, holders: new Map(rows.map((r) => [r.id, r.holder])) };
}
