import { canonicalize } from '../core/index.js';
import type { JournalEntry, Projection } from '../journal/index.js';
import { pieces, type Queryable, rowPlaceholders, runWrites, type Write } from '../store/index.js';
import type { ArtifactManifest } from './artifacts.js';
import { type CommitView, cascade, clearState, commitView, recordStates } from './cascade.js';
import { type CountedRow, countMove, countWrites, uncounted } from './counts.js';
import { applyClaims } from './disputes.js';
import {
  ARTIFACT,
  CANON_ENTRY_KINDS,
  CLASSIFICATION,
  CLASSIFICATION_FAILED,
  CLASSIFIER,
  COMMIT,
  MESSAGE,
  PROPOSAL,
  RECOMPARE,
  REJECT,
} from './entry-kinds.js';
import { edgeWrites, setEdges } from './graph.js';
import type { ClassificationFailure, ClassificationFailureBody } from './intake-failure.js';
import {
  type Audience,
  artifactAudience,
  holderOf,
  messageAudience,
  objectAudience,
  proposalAudience,
  versionAudience,
} from './planes.js';
import type { CommitBody, ProposalRecord } from './records.js';
import { recordsIn } from './records-in.js';
import { type CanonObject, type DependencyPin, isLive, type NoteVersion } from './types.js';

/** The entry kinds canon writes (and its projection reads), by stored name. */
export const CANON_KINDS: readonly string[] = CANON_ENTRY_KINDS.map((k) => k.kind);

/**
 * The proposal records this transaction wrote, by project and id: a commit closes the proposal the
 * entry before it opened (one transaction for both, in a batch for many), so the record it changes
 * is the one just written, not read back and parsed. Only ever what the row holds in this
 * transaction — or, while `stored` is false, what it will hold once the transaction settles; a
 * transaction that rolls back takes its map with it.
 */
const written = new WeakMap<
  Queryable,
  Map<string, { project: string; record: ProposalRecord; stored: boolean }>
>();

function remember(tx: Queryable, project: string, record: ProposalRecord, stored: boolean): void {
  let records = written.get(tx);
  if (!records) {
    records = new Map();
    written.set(tx, records);
  }
  records.set(`${project}\u0000${record.proposal_id}`, { project, record, stored });
}

async function updateProposal(
  tx: Queryable,
  project: string,
  id: string,
  change: (p: ProposalRecord) => ProposalRecord,
): Promise<void> {
  const known = written.get(tx)?.get(`${project}\u0000${id}`);
  let record = known?.record;
  let stored: CountedRow | null = record ? proposalCounted(record) : null;
  if (!record) {
    const rows = await tx.all<{ status: string; holder: string | null; record: string }>(
      'SELECT status, holder, record FROM canon_proposals WHERE project = $1 AND proposal_id = $2',
      [project, id],
    );
    if (!rows[0]) return;
    record = JSON.parse(rows[0].record) as ProposalRecord;
    stored = { status: rows[0].status, holder: rows[0].holder };
  }
  const next = change(record);
  // A proposal opened in this transaction is not in the table yet: settling inserts it as it ends.
  if (known && !known.stored) {
    remember(tx, project, next, false);
    return;
  }
  await tx.run(
    'UPDATE canon_proposals SET status = $3, holder = $4, record = $5 WHERE project = $1 AND proposal_id = $2',
    [project, id, next.status, holderOf(proposalAudience(next)), canonicalize(next)],
  );
  countMove(tx, project, 'proposal', stored, proposalCounted(next));
  remember(tx, project, next, true);
}

/** Where a proposal's row stands for the counts: its status and holder columns. */
function proposalCounted(record: ProposalRecord): CountedRow {
  return { status: record.status, holder: holderOf(proposalAudience(record)) };
}

/** Where an object's row stands for the counts: its status and holder columns. */
function objectCounted(object: CanonObject): CountedRow {
  return { status: object.status, holder: holderOf(objectAudience(object)) };
}

/**
 * Counts the objects a commit moved: each from where it stood before the commit to the row it
 * leaves (an object written twice — its own note and one it supersedes — counted once).
 */
function countCommit(tx: Queryable, project: string, view: CommitView): void {
  const moves = new Map<string, { from: CanonObject | null; to: CanonObject }>();
  view.after.forEach((to, i) => {
    const from = moves.get(to.object_id)?.from ?? view.before[i] ?? null;
    moves.set(to.object_id, { from, to });
  });
  for (const { from, to } of moves.values())
    countMove(tx, project, 'object', from && objectCounted(from), objectCounted(to));
}

/**
 * The inserts of the proposals this transaction opened, each as it stands now, a few statements for
 * all: a proposal a batch opens is closed by the commit after it, in the same transaction, and one
 * INSERT of the closed record replaces an INSERT and an UPDATE apiece. Each is counted as it goes
 * in.
 */
function proposalWrites(tx: Queryable): Write[] {
  const opened = [...(written.get(tx)?.values() ?? [])].filter((entry) => !entry.stored);
  return pieces(opened).map((piece) => {
    for (const entry of piece) {
      entry.stored = true;
      countMove(tx, entry.project, 'proposal', null, proposalCounted(entry.record));
    }
    return {
      sql: `INSERT INTO canon_proposals (project, proposal_id, object_id, status, holder, seq, record) VALUES ${rowPlaceholders(piece.length, 7)}`,
      params: piece.flatMap(({ project, record }) => [
        project,
        record.proposal_id,
        record.object_id,
        record.status,
        holderOf(proposalAudience(record)),
        record.seq,
        canonicalize(record),
      ]),
    };
  });
}

async function putObject(
  tx: Queryable,
  project: string,
  object: CanonObject,
  seq: number,
): Promise<void> {
  const write = objectWrite(project, object, seq);
  await tx.run(write.sql, write.params);
}

/** The upsert of an object's row: its current pointer. */
function objectWrite(project: string, object: CanonObject, seq: number): Write {
  return {
    sql: `INSERT INTO canon_objects (project, object_id, object_type, status, current_version, version_id, seq, record, holder, superseded_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (project, object_id) DO UPDATE SET object_type = $3, status = $4, current_version = $5,
       version_id = $6, seq = $7, record = $8, holder = $9, superseded_by = $10`,
    params: [
      project,
      object.object_id,
      object.object_type,
      object.status,
      object.current_version_ref,
      object.version_id,
      seq,
      canonicalize(object),
      holderOf(objectAudience(object)),
      object.superseded_by,
    ],
  };
}

/**
 * An object a commit changed that was there before it — its note, updated, or one the note
 * superseded: its row, its edges (the note's pins while it is live, none otherwise) and its state.
 */
async function putChanged(
  tx: Queryable,
  project: string,
  object: CanonObject,
  seq: number,
  pins: readonly DependencyPin[] | null,
  states: boolean,
): Promise<void> {
  await putObject(tx, project, object, seq);
  const live = isLive(object);
  await setEdges(tx, project, 'note', object.object_id, pins && live ? pins : []);
  if (states && (pins !== null || !live)) await clearState(tx, project, 'note', object.object_id);
}

/**
 * A commit's rows. `states` is false in a rehearsal, whose rows only the checks of a batch's later
 * proposals read: the cascade does not run, no dependency state is written (no check of a proposal
 * reads one: working sets, artifacts and provenance do) and the proposal row is not closed (a
 * rehearsal writes none).
 */
async function applyCommit(
  tx: Queryable,
  entry: JournalEntry,
  body: CommitBody,
  states = true,
): Promise<void> {
  const { project, seq } = entry;
  const version: NoteVersion = { ...body.version, receipt_ref: `${project}#${seq}` };
  // The cascade reads canon as the commit found it, with the commit overlaid: the same function
  // over the same transaction state as the receipt's `affected_dependents`. Every read comes
  // before the first write, so a batch's planning answers them from what it has already read.
  const view = await commitView(
    tx,
    project,
    body.version,
    body.supersedes,
    body.operation.operation_type,
  );
  const reached = states ? await cascade(tx, project, view) : [];
  const versionRow: Write = {
    sql: 'INSERT INTO canon_versions (project, object_id, version_id, version_hash, seq, record, holder) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    params: [
      project,
      version.note_id,
      version.version_id,
      version.version_hash,
      seq,
      canonicalize(version),
      holderOf(versionAudience(version)),
    ],
  };
  // The note's own object first, then those it superseded (`commitView`).
  const [own, ...superseded] = view.after as [CanonObject, ...CanonObject[]];
  if (view.created) {
    // A created note: its version, its object and its first edges go in together (one round trip
    // on PostgreSQL); it has no edges to delete and no dependency state to clear yet.
    await runWrites(tx, [
      versionRow,
      objectWrite(project, own, seq),
      ...edgeWrites(project, 'note', own.object_id, isLive(own) ? view.pins : []),
    ]);
  } else {
    await tx.run(versionRow.sql, versionRow.params);
    await putChanged(tx, project, own, seq, view.pins, states);
  }
  for (const object of superseded) await putChanged(tx, project, object, seq, null, states);
  countCommit(tx, project, view);
  await applyClaims(tx, project, seq, version);
  await recordStates(tx, project, seq, reached);
  // A rehearsal writes no proposal rows (see rehearseEntry): there is none to close.
  if (!states) return;
  await updateProposal(tx, project, body.proposal_id, (p) => ({
    ...p,
    status: 'committed',
    required_role: null,
    approval_requires_base: null,
    decided_by: body.operation.authority_basis.approver,
  }));
}

/**
 * A message's intake state: `classified` once its classification is journaled (for good: the claim
 * is taken once), else `failed` with the last failure and how many there were.
 */
async function applyIntake(
  tx: Queryable,
  entry: JournalEntry,
  body: { readonly message_id: string },
  failure: ClassificationFailureBody | null,
): Promise<void> {
  const { project, seq } = entry;
  const rows = await tx.all<{ state: string; record: string | null }>(
    'SELECT state, record FROM canon_intake WHERE project = $1 AND message_id = $2',
    [project, body.message_id],
  );
  const row = rows[0];
  if (row?.state === 'classified') return;
  let state = 'classified';
  let record: string | null = null;
  if (failure !== null) {
    const before = row?.record ? (JSON.parse(row.record) as ClassificationFailure) : null;
    const failed: ClassificationFailure = {
      ...failure,
      at: entry.at,
      seq,
      attempts: (before?.attempts ?? 0) + 1,
    };
    state = 'failed';
    record = canonicalize(failed);
  }
  await tx.run(
    `INSERT INTO canon_intake (project, message_id, state, seq, record) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (project, message_id) DO UPDATE SET state = $3, seq = $4, record = $5`,
    [project, body.message_id, state, seq, record],
  );
  if (state === 'classified') await markClassified(tx, project, body.message_id);
}

/** Takes a message out of the unclassified ones (`canon_messages_unclassified`). */
async function markClassified(tx: Queryable, project: string, messageId: string): Promise<void> {
  await tx.run(
    'UPDATE canon_messages SET unclassified = 0 WHERE project = $1 AND message_id = $2 AND unclassified = 1',
    [project, messageId],
  );
}

/** An artifact's audience from the versions it cites, as they stand in the projection. */
async function artifactAudienceIn(
  tx: Queryable,
  project: string,
  manifest: ArtifactManifest,
): Promise<Audience> {
  const hashes = [...new Set(manifest.canonical_note_versions.map((n) => n.version_hash))];
  const versions = new Map<string, NoteVersion>();
  for (const piece of pieces(hashes)) {
    const rows = await tx.all<{ record: string }>(
      recordsIn('canon_versions', 'version_hash', piece.length),
      [project, ...piece],
    );
    for (const r of rows) {
      const v = JSON.parse(r.record) as NoteVersion;
      versions.set(v.version_hash, v);
    }
  }
  return artifactAudience(manifest, (hash) => versions.get(hash));
}

/**
 * Canon's projection: messages, objects (the current pointers), versions, proposals, artifacts,
 * each message's intake state, each project's classifier configuration and the board's totals
 * (`counts.ts`, kept as the rows they count move and written as the transaction settles), all derived from
 * `canon.*` journal entries inside the append transaction and rebuilt by replay.
 */
export const CANON_PROJECTION: Projection = {
  name: 'canon',
  // 2: proposals carry approval_role and approval_requires_base (closed ones no pending role);
  // canon_claims, canon_intake, canon_classifier, canon_edges, canon_dependency_states.
  version: 2,
  kinds: CANON_KINDS,
  tables: [
    'canon_messages',
    'canon_objects',
    'canon_versions',
    'canon_proposals',
    'canon_artifacts',
    'canon_artifact_inputs',
    'canon_claims',
    'canon_intake',
    'canon_classifier',
    'canon_edges',
    'canon_dependency_states',
    'canon_counts',
  ],
  async settle(tx) {
    // The proposals' inserts first (they count them), then the counts, in one round trip on
    // PostgreSQL: a commit's counts cost it no round trip of their own.
    const proposals = proposalWrites(tx);
    await runWrites(tx, [...proposals, ...countWrites(tx)]);
  },
  async apply(tx, entry) {
    const { project, seq } = entry;
    switch (entry.kind) {
      case MESSAGE.kind: {
        const { message } = MESSAGE.body(entry);
        await tx.run(
          'INSERT INTO canon_messages (project, message_id, holder, seq, record, unclassified) VALUES ($1, $2, $3, $4, $5, 1)',
          [
            project,
            message.message_id,
            holderOf(messageAudience(message)),
            seq,
            canonicalize({ ...message, seq }),
          ],
        );
        return;
      }
      case PROPOSAL.kind: {
        const { proposal } = PROPOSAL.body(entry);
        const record: ProposalRecord = {
          ...proposal,
          approval_role: proposal.required_role,
          approval_requires_base: null,
          seq,
        };
        // Inserted when the transaction settles, closed by then if its commit follows.
        remember(tx, project, record, false);
        // A message with a proposal counts as classified (one taken in before classifications
        // were journaled has no other mark of it).
        if (record.message_id !== null) await markClassified(tx, project, record.message_id);
        return;
      }
      case RECOMPARE.kind: {
        const b = RECOMPARE.body(entry);
        await updateProposal(tx, project, b.proposal_id, (p) =>
          p.status !== 'pending'
            ? p
            : {
                ...p,
                base_version: b.base_version,
                comparison: b.comparison,
                gate: b.gate,
                required_role: b.required_role,
                approval_role: b.required_role,
                approval_requires_base: b.base_version,
                status: 'pending',
              },
        );
        return;
      }
      case COMMIT.kind:
        return applyCommit(tx, entry, COMMIT.body(entry));
      case REJECT.kind: {
        const b = REJECT.body(entry);
        await updateProposal(tx, project, b.proposal_id, (p) => ({
          ...p,
          status: 'rejected',
          required_role: null,
          approval_requires_base: null,
          decided_by: b.by,
          reason: b.reason,
        }));
        return;
      }
      case CLASSIFICATION.kind:
        return applyIntake(tx, entry, CLASSIFICATION.body(entry), null);
      case CLASSIFICATION_FAILED.kind: {
        const failure = CLASSIFICATION_FAILED.body(entry);
        return applyIntake(tx, entry, failure, failure);
      }
      case CLASSIFIER.kind: {
        const body = CLASSIFIER.body(entry);
        await tx.run(
          `INSERT INTO canon_classifier (project, seq, record) VALUES ($1, $2, $3)
           ON CONFLICT (project) DO UPDATE SET seq = $2, record = $3`,
          [project, seq, canonicalize({ ...body, at: entry.at, seq })],
        );
        return;
      }
      case ARTIFACT.kind: {
        const { manifest } = ARTIFACT.body(entry);
        const holder = holderOf(await artifactAudienceIn(tx, project, manifest));
        const [was] = await tx.all<{ holder: string | null }>(
          'SELECT holder FROM canon_artifacts WHERE project = $1 AND artifact_id = $2',
          [project, manifest.artifact_id],
        );
        countMove(tx, project, 'artifact', was ? { status: '', holder: was.holder } : null, {
          status: '',
          holder,
        });
        await tx.run(
          `INSERT INTO canon_artifacts (project, artifact_id, seq, record, holder) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (project, artifact_id) DO UPDATE SET seq = $3, record = $4, holder = $5`,
          [project, manifest.artifact_id, seq, canonicalize(manifest), holder],
        );
        await tx.run('DELETE FROM canon_artifact_inputs WHERE project = $1 AND artifact_id = $2', [
          project,
          manifest.artifact_id,
        ]);
        for (const note of manifest.canonical_note_versions) {
          await tx.run(
            'INSERT INTO canon_artifact_inputs (project, artifact_id, object_id, version_hash) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
            [project, manifest.artifact_id, note.object_id, note.version_hash],
          );
        }
        // A new manifest names the versions it was built from now: what a cascade said of the
        // old one no longer holds (its direct state is computed against canon when read).
        await setEdges(
          tx,
          project,
          'artifact',
          manifest.artifact_id,
          manifest.canonical_note_versions,
        );
        await clearState(tx, project, 'artifact', manifest.artifact_id);
        return;
      }
    }
  },
};

/**
 * Whether a batch's rehearsal applies entries of this kind: not proposals (a proposal's checks read
 * objects, versions, edges and claims, never another proposal). `rehearsal.ts` skips the others
 * before building their entries.
 */
export const rehearsed = (kind: string): boolean => kind !== PROPOSAL.kind;

/**
 * Canon's projection of an entry {@link rehearsed} applies, as a batch rehearses it (see
 * `rehearsal.ts`): every row the projection writes but the dependency states of a commit's cascade,
 * which no check of a later proposal reads.
 */
export function rehearseEntry(tx: Queryable, entry: JournalEntry): Promise<void> {
  // Its rows are rolled back: the counts they would move are not kept.
  return uncounted(tx, () =>
    entry.kind === COMMIT.kind
      ? applyCommit(tx, entry, COMMIT.body(entry), false)
      : CANON_PROJECTION.apply(tx, entry),
  );
}
