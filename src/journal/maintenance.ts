import { CanonryError, type ContentHash } from '../core/index.js';
import type { TrustAnchor } from '../trust/index.js';
import { readBase } from './base.js';
import { verifyCheckpoint } from './checkpoint.js';
import { rowHash } from './entry-hash.js';
import { parseProject } from './entry-input.js';
import { type EntryRow, SELECT_ENTRIES } from './entry-row.js';
import type { Journal } from './journal.js';
import { scanEntries } from './scan.js';
import type { VerifyReport } from './types.js';
import { verifyChain } from './verify-chain.js';

/** How much of a chain {@link verifyProject} walks. */
export interface VerifyScope {
  /**
   * `full` (default): every entry from the chain's base, and every checkpoint. `tail`: only what
   * follows the last signed checkpoint (whose signature and entry are checked), for a fast check on
   * start — the checkpoint vouches for everything before it.
   */
  readonly scope?: 'full' | 'tail';
  /**
   * What a checkpoint signed by a since-revoked issuer is: `break` (default; a relying party must not
   * trust it) or `skip` — it vouches for nothing, and the entries it covered are verified from the
   * checkpoint before it (what a server does on start: revoking an issuer is no tampering).
   */
  readonly revoked?: 'break' | 'skip';
}

function checkpointBreak(
  project: string,
  head: { seq: number; hash: ContentHash } | null,
  seq: number,
  detail: string,
): VerifyReport {
  return {
    project,
    ok: false,
    checked: 0,
    head: head ?? { seq: 0, hash: '' as ContentHash },
    broken: { seq, reason: 'checkpoint-mismatch', detail },
    checkpoints: 0,
  };
}

/** A stored checkpoint, checked: its signature (with an anchor), its project, its seq and hash. */
function checkedCheckpoint(
  stored: unknown,
  project: string,
  anchor: TrustAnchor | undefined,
): { seq: number; head_hash: ContentHash } | { bad: number; revoked: boolean } {
  const c = stored as { seq?: unknown; head_hash?: unknown; project?: unknown } | null;
  const seq = typeof c?.seq === 'number' ? c.seq : 0;
  if (!c || c.project !== project || !Number.isSafeInteger(c.seq))
    return { bad: seq, revoked: false };
  if (anchor) {
    // The store's own checkpoints, kept since they were signed: a checkpoint carries no time, and
    // one whose issuer expired since is no tampering, so no validity window is judged here unless
    // the caller names an instant. Offline, a segment's checkpoint is judged at the verifier's time.
    const verified = verifyCheckpoint(stored, { ...anchor, at: anchor.at ?? null });
    if (!verified.ok) return { bad: seq, revoked: verified.issues[0]?.code === 'ISSUER_REVOKED' };
  }
  return { seq, head_hash: c.head_hash as ContentHash };
}

/**
 * Verifies a project's chain in the live store: every entry's hash and link from the chain's base
 * (genesis, or the signed anchor a pruned prefix left), the recorded head, and every signed
 * checkpoint (its signature against the pinned root when an anchor is given, and the entry it
 * names). The report names the first broken seq and why, and how many entries follow the last
 * checkpoint (the unsigned tail, and the time of its oldest entry). A project with no entries is
 * an empty chain; the faces answer UNKNOWN_PROJECT for it (see {@link requireJournal}).
 */
export async function verifyProject(
  journal: Journal,
  project: string,
  anchor?: TrustAnchor,
  { scope = 'full', revoked = 'break' }: VerifyScope = {},
): Promise<VerifyReport> {
  const name = parseProject(project);
  const { store } = journal;
  const heads = await store.all<{ seq: number; hash: string }>(
    'SELECT seq, hash FROM journal_heads WHERE project = $1',
    [name],
  );
  const head = heads[0] ? { seq: Number(heads[0].seq), hash: heads[0].hash as ContentHash } : null;
  // A snapshot: the head first, then only what it covers. Appends commit entries and head together,
  // so entries past the head read here belong to appends made after it, not to this chain.
  const upTo = head?.seq ?? 0;
  const base = await readBase(store, name);
  if (base.seq > 0) {
    // The anchor's signature still chains to the root when its issuer was revoked since, and the
    // pruned rows cannot be re-read: with `skip` it stands (checked without the revocation list).
    const against = anchor && revoked === 'skip' ? { root: anchor.root } : anchor;
    const anchorOk = checkedCheckpoint(base.checkpoint, name, against);
    if ('bad' in anchorOk || anchorOk.seq !== base.seq || anchorOk.head_hash !== base.hash) {
      return checkpointBreak(
        name,
        head,
        base.seq,
        `the pruned prefix's anchor at seq ${base.seq} does not verify`,
      );
    }
  }
  const checkpoints: { seq: number; head_hash: ContentHash }[] = [];
  for (const stored of await journal.checkpoints(name, upTo)) {
    const checked = checkedCheckpoint(stored, name, anchor);
    if ('bad' in checked && checked.revoked && revoked === 'skip') continue;
    if ('bad' in checked) {
      return checkpointBreak(
        name,
        head,
        checked.bad,
        `the checkpoint at seq ${checked.bad} does not verify`,
      );
    }
    if (checked.seq > base.seq) checkpoints.push(checked);
  }
  let start = { seq: base.seq + 1, prevHash: base.hash };
  const last = checkpoints.at(-1);
  if (scope === 'tail' && last !== undefined) {
    const rows = await store.values<EntryRow>(`${SELECT_ENTRIES} WHERE project = $1 AND seq = $2`, [
      name,
      last.seq,
    ]);
    const row = rows[0];
    if (!row || rowHash(row) !== row[12] || row[12] !== last.head_hash) {
      return checkpointBreak(
        name,
        head,
        last.seq,
        `the entry at seq ${last.seq} is not the one its signed checkpoint names`,
      );
    }
    start = { seq: last.seq + 1, prevHash: last.head_hash };
  }
  const walked = scope === 'tail' && last !== undefined ? [] : checkpoints;
  const report = await verifyChain(scanEntries(store, name, start.seq - 1, upTo), {
    project: name,
    start,
    head,
    checkpoints: walked,
    findByHash: async (hash) => {
      const rows = await store.all<{ seq: number }>(
        'SELECT seq FROM journal_entries WHERE project = $1 AND hash = $2',
        [name, hash],
      );
      return rows[0] ? Number(rows[0].seq) : null;
    },
  });
  if (!report.ok) return report;
  const signedTo = Math.max(last?.seq ?? 0, base.seq);
  const unsigned = await unsignedTail(journal, name, signedTo, upTo);
  const full = {
    ...report,
    checkpoints: scope === 'tail' ? (last ? 1 : 0) : report.checkpoints,
    ...(base.seq > 0 ? { base: base.seq } : {}),
    unsigned,
  };
  return beyondHead(journal, name, upTo, full);
}

/** How many entries follow the last signature, and when the oldest of them was appended. */
async function unsignedTail(
  journal: Journal,
  project: string,
  signedTo: number,
  upTo: number,
): Promise<{ entries: number; since: string | null }> {
  if (upTo <= signedTo) return { entries: 0, since: null };
  const rows = await journal.store.all<{ at: string }>(
    'SELECT at FROM journal_entries WHERE project = $1 AND seq = $2',
    [project, signedTo + 1],
  );
  return { entries: upTo - signedTo, since: rows[0]?.at ?? null };
}

/**
 * Rows or signed checkpoints past a head that has not moved were not appended: the rows were
 * inserted behind the journal, or the chain was cut back and its head rewritten under a signature
 * that covers more.
 */
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
  const signed = await journal.store.all<{ s: number | null }>(
    'SELECT MIN(seq) AS s FROM journal_checkpoints WHERE project = $1 AND seq > $2',
    [project, upTo],
  );
  const extra = rows[0]?.s;
  const cover = signed[0]?.s;
  if ((extra === null || extra === undefined) && (cover === null || cover === undefined)) {
    return report;
  }
  if ((await journal.head(project)).seq !== upTo) return report;
  if (cover !== null && cover !== undefined) {
    return {
      ...report,
      ok: false,
      broken: {
        seq: upTo,
        reason: 'head-mismatch',
        detail: `a signed checkpoint covers seq ${cover}, past the recorded head ${upTo}`,
      },
    };
  }
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

/** UNKNOWN_PROJECT unless `project` has a journal: a check of nothing must never read "verified". */
export async function requireJournal(journal: Journal, project: string): Promise<void> {
  if ((await journal.head(project)).seq === 0) {
    throw new CanonryError('UNKNOWN_PROJECT', `project ${project} has no journal`, { project });
  }
}
