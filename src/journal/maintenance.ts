import { CanonryError, type ContentHash } from '../core/index.js';
import type { TrustAnchor } from '../trust/index.js';
import { verifyCheckpoint } from './checkpoint.js';
import {
  type EntryRow,
  genesisHash,
  parseProject,
  rowHash,
  rowToEntry,
  SELECT_ENTRIES,
} from './entry.js';
import type { Journal } from './journal.js';
import { PAGE, scanEntries } from './scan.js';
import type { JournalEntry, Projection, VerifyReport } from './types.js';
import { verifyChain } from './verify-chain.js';

/**
 * Verifies a project's chain in the live store: every entry's hash and link, the recorded head, and
 * every signed checkpoint (its signature against the pinned root when an anchor is given, and the
 * entry it names). The report names the first broken seq and why.
 */
export async function verifyProject(
  journal: Journal,
  project: string,
  anchor?: TrustAnchor,
): Promise<VerifyReport> {
  const name = parseProject(project);
  const { store } = journal;
  const heads = await store.all<{ seq: number; hash: string }>(
    'SELECT seq, hash FROM journal_heads WHERE project = $1',
    [name],
  );
  const head = heads[0] ? { seq: Number(heads[0].seq), hash: heads[0].hash as ContentHash } : null;
  const checkpoints: { seq: number; head_hash: ContentHash }[] = [];
  // A snapshot: the head first, then only what it covers. Appends commit entries and head together,
  // so entries past the head read here belong to appends made after it, not to this chain.
  const upTo = head?.seq ?? 0;
  for (const stored of await journal.checkpoints(name, upTo)) {
    const checked = anchor ? verifyCheckpoint(stored, anchor) : null;
    const c = stored as { seq?: unknown; head_hash?: unknown; project?: unknown } | null;
    if ((checked && !checked.ok) || !c || c.project !== name) {
      const seq = typeof c?.seq === 'number' ? c.seq : 0;
      return {
        project: name,
        ok: false,
        checked: 0,
        head: head ?? { seq: 0, hash: '' as ContentHash },
        broken: {
          seq,
          reason: 'checkpoint-mismatch',
          detail: `the checkpoint at seq ${seq} does not verify`,
        },
        checkpoints: 0,
      };
    }
    checkpoints.push({ seq: Number(c.seq), head_hash: c.head_hash as ContentHash });
  }
  const report = await verifyChain(scanEntries(store, name, 0, upTo), {
    project: name,
    head,
    checkpoints,
    findByHash: async (hash) => {
      const rows = await store.all<{ seq: number }>(
        'SELECT seq FROM journal_entries WHERE project = $1 AND hash = $2',
        [name, hash],
      );
      return rows[0] ? Number(rows[0].seq) : null;
    },
  });
  return report.ok ? beyondHead(journal, name, upTo, report) : report;
}

/** Rows past a head that has not moved were not appended: they were inserted behind the journal. */
async function beyondHead(
  journal: Journal,
  project: string,
  upTo: number,
  report: VerifyReport,
): Promise<VerifyReport> {
  const rows = await journal.store.all<{ s: number | null }>(
    'SELECT MIN(seq) AS s FROM journal_entries WHERE project = $1 AND seq > $2',
    [project, upTo],
  );
  const extra = rows[0]?.s;
  if (extra === null || extra === undefined) return report;
  if ((await journal.head(project)).seq !== upTo) return report;
  return {
    ...report,
    ok: false,
    broken: {
      seq: Number(extra),
      reason: 'head-mismatch',
      detail: `seq ${extra} is stored past the recorded head ${upTo}`,
    },
  };
}

/**
 * Rebuilds every projection of a project from the journal alone, in one transaction: its rows are
 * deleted and every entry replayed from seq 1. Afterwards the tables equal what live appends made;
 * a corrupted projection is repaired. Every entry's hash and link are checked as it is replayed; a
 * chain that does not verify is refused (CHAIN_BROKEN) and nothing changes.
 */
export async function rebuildProject(
  journal: Journal,
  project: string,
  onProgress?: (seq: number) => void,
): Promise<{ project: string; entries: number; projections: string[] }> {
  const name = parseProject(project);
  const tables = [...new Set(journal.projections.flatMap((p) => p.tables))];
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
  return journal.store.transaction(async (tx) => {
    // Appends to this project wait until the rebuild commits, so none can slip between scan and commit.
    await tx.all(`SELECT seq FROM journal_heads WHERE project = $1${lock}`, [name]);
    for (const table of tables) await tx.run(`DELETE FROM ${table} WHERE project = $1`, [name]);
    let entries = 0;
    let prev: string = genesisHash(name);
    for (;;) {
      const rows = await tx.values<EntryRow>(
        `${SELECT_ENTRIES} WHERE project = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
        [name, entries, PAGE],
      );
      for (const row of rows) {
        // Replay only what verifies: a forged entry must never become projected truth. The hash is
        // recomputed from the stored canonical texts, without parsing entries no projection reads.
        const seq = Number(row[1]);
        const reason =
          seq !== entries + 1
            ? 'missing-entry'
            : row[11] !== prev || rowHash(row) !== row[12]
              ? 'hash-mismatch'
              : null;
        if (reason) {
          const at = reason === 'missing-entry' ? entries + 1 : seq;
          throw new CanonryError(
            'CHAIN_BROKEN',
            `entry ${at} of ${name} does not verify; nothing rebuilt`,
            { seq: at, reason },
          );
        }
        const applies = consumersOf(row[4]);
        if (applies.length > 0) {
          let entry: JournalEntry;
          try {
            entry = rowToEntry(row);
          } catch {
            throw new CanonryError(
              'CHAIN_BROKEN',
              `entry ${seq} of ${name} is unreadable; nothing rebuilt`,
              { seq, reason: 'unreadable' },
            );
          }
          for (const projection of applies) await projection.apply(tx, entry);
        }
        prev = row[12];
        entries++;
        if (onProgress && entries % 10_000 === 0) onProgress(seq);
      }
      if (rows.length < PAGE) break;
    }
    return { project: name, entries, projections: journal.projections.map((p) => p.name) };
  });
}
