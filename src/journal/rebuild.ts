import { CanonryError, canonicalize, hashBytes } from '../core/index.js';
import type { Queryable } from '../store/index.js';
import { readBase } from './base.js';
import { rowHash } from './entry-hash.js';
import { parseProject } from './entry-input.js';
import { type EntryRow, rowToEntry, SELECT_ENTRIES } from './entry-row.js';
import type { Journal } from './journal.js';
import { applyProjections, settleProjections } from './projections.js';
import { PAGE } from './scan.js';
import type { JournalEntry, Projection, VerifyReport } from './types.js';

/** The projection tables of a journal, each once, in declaration order. */
function tablesOf(journal: Journal): string[] {
  return [...new Set(journal.projections.flatMap((p) => p.tables))];
}

/**
 * Deletes the project's projection rows and replays its entries from the chain's base inside `tx`
 * (which holds the head lock): every row is re-hashed from its stored text before it is replayed,
 * so a forged entry is CHAIN_BROKEN, never projected truth. Returns the entries replayed.
 */
async function replay(
  tx: Queryable,
  journal: Journal,
  name: string,
  onProgress?: (seq: number) => void,
): Promise<number> {
  const lock = journal.store.capabilities.rowLocks ? ' FOR UPDATE' : '';
  const consumers = new Map<string, readonly Projection[]>();
  const consumersOf = (kind: string) => {
    let found = consumers.get(kind);
    if (!found) {
      found = journal.projections.filter((p) => p.kinds === '*' || p.kinds.includes(kind));
      consumers.set(kind, found);
    }
    return found;
  };
  // Appends to this project wait until the transaction ends, so none can slip between scan and end.
  await tx.all(`SELECT seq FROM journal_heads WHERE project = $1${lock}`, [name]);
  for (const table of tablesOf(journal))
    await tx.run(`DELETE FROM ${table} WHERE project = $1`, [name]);
  const base = await readBase(tx, name);
  const settling = new Set<Projection>();
  let last = base.seq;
  let prev: string = base.hash;
  for (;;) {
    const rows = await tx.values<EntryRow>(
      `${SELECT_ENTRIES} WHERE project = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [name, last, PAGE],
    );
    for (const row of rows) {
      // The hash is recomputed from the stored canonical texts, without parsing entries no
      // projection reads.
      const seq = Number(row[1]);
      const reason =
        seq !== last + 1
          ? 'missing-entry'
          : row[11] !== prev || rowHash(row) !== row[12]
            ? 'hash-mismatch'
            : null;
      if (reason) {
        const at = reason === 'missing-entry' ? last + 1 : seq;
        throw new CanonryError('CHAIN_BROKEN', `entry ${at} of ${name} does not verify`, {
          seq: at,
          reason,
        });
      }
      const applies = consumersOf(row[4]);
      if (applies.length > 0) {
        let entry: JournalEntry;
        try {
          entry = rowToEntry(row);
        } catch {
          throw new CanonryError('CHAIN_BROKEN', `entry ${seq} of ${name} is unreadable`, {
            seq,
            reason: 'unreadable',
          });
        }
        // A body a projection reads must be its kind's: one that is not fails here, at its seq,
        // rather than as a projection's row built from a shape nobody wrote.
        journal.kinds?.checkStored(entry);
        await applyProjections(tx, applies, entry, settling);
      }
      prev = row[12];
      last = seq;
      if (onProgress && (last - base.seq) % 10_000 === 0) onProgress(seq);
    }
    // A page at a time, so what a projection keeps until it settles stays bounded.
    await settleProjections(tx, settling);
    if (rows.length < PAGE) break;
  }
  return last - base.seq;
}

/**
 * Rebuilds every projection of a project from the journal alone, in one transaction: its rows are
 * deleted and every entry replayed from the chain's base. Afterwards the tables equal what live
 * appends made; a corrupted projection is repaired. A chain that does not verify is refused
 * (CHAIN_BROKEN) and nothing changes.
 */
export async function rebuildProject(
  journal: Journal,
  project: string,
  onProgress?: (seq: number) => void,
): Promise<{ project: string; entries: number; projections: string[] }> {
  const name = parseProject(project);
  try {
    return await journal.store.transaction(async (tx) => {
      const entries = await replay(tx, journal, name, onProgress);
      return { project: name, entries, projections: journal.projections.map((p) => p.name) };
    });
  } catch (err) {
    if (
      err instanceof CanonryError &&
      (err.code === 'CHAIN_BROKEN' ||
        err.code === 'ENTRY_BODY_INVALID' ||
        err.code === 'UNKNOWN_ENTRY_KIND')
    ) {
      throw new CanonryError(err.code, `${err.message}; nothing rebuilt`, err.details);
    }
    throw err;
  }
}

/**
 * The digest of one projection table's rows of a project: each row's canonical JSON, sorted, hashed
 * together, so it depends on the rows and nothing else (not their physical order).
 */
async function tableDigest(db: Pick<Queryable, 'all'>, table: string, project: string) {
  const rows = await db.all(`SELECT * FROM ${table} WHERE project = $1`, [project]);
  const texts = rows.map((row) => canonicalize(row)).sort();
  return hashBytes(`${texts.length}\n${texts.join('\n')}`);
}

/** Thrown to roll back the replay a projection check made; never escapes. */
const ROLLBACK = Symbol('rollback');

/**
 * Compares every projection table of a project with what replaying its journal makes of it: the
 * live rows' digests are taken, the journal is replayed in a transaction that is then rolled back,
 * and the digests compared. Returns the tables checked and the first that differs (null when all
 * match). The replay holds the project's head lock (SQLite: the write lock) while it runs.
 */
export async function verifyProjections(
  journal: Journal,
  project: string,
): Promise<{ checked: string[]; mismatch: string | null }> {
  const name = parseProject(project);
  const tables = tablesOf(journal);
  if (tables.length === 0) return { checked: [], mismatch: null };
  let result: { checked: string[]; mismatch: string | null } = { checked: tables, mismatch: null };
  try {
    await journal.store.transaction(async (tx) => {
      // Taken inside the transaction, after the head lock, so no append lands between the two.
      const lock = journal.store.capabilities.rowLocks ? ' FOR UPDATE' : '';
      await tx.all(`SELECT seq FROM journal_heads WHERE project = $1${lock}`, [name]);
      const live = new Map<string, string>();
      for (const table of tables) live.set(table, await tableDigest(tx, table, name));
      await replay(tx, journal, name);
      for (const table of tables) {
        if ((await tableDigest(tx, table, name)) !== live.get(table)) {
          result = { checked: tables, mismatch: table };
          break;
        }
      }
      throw ROLLBACK;
    });
  } catch (err) {
    if (err !== ROLLBACK) throw err;
  }
  return result;
}

/**
 * A chain report with the projection check added: when the chain verified, the projections are
 * compared with a replay, and a table that differs fails the report (`projection-mismatch`).
 */
export async function withProjectionCheck(
  journal: Journal,
  report: VerifyReport,
): Promise<VerifyReport> {
  if (!report.ok) return report;
  const projections = await verifyProjections(journal, report.project);
  if (projections.mismatch === null) return { ...report, projections };
  return {
    ...report,
    ok: false,
    projections,
    broken: {
      seq: report.head.seq,
      reason: 'projection-mismatch',
      detail: `the ${projections.mismatch} table differs from a replay of the journal`,
    },
  };
}
