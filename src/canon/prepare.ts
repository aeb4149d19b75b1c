import { CanonryError, type ContentHash } from '../core/index.js';
import type { Queryable } from '../store/index.js';
import type { Canon } from './canon.js';
import type { ArchivedMessage } from './classification.js';
import { checkResolve, prepareDispute } from './disputes.js';
import { pinDependencies, refuseCycle } from './graph.js';
import { checkReferences, judge } from './judge.js';
import { checkPlanes } from './plane-rules.js';
import { candidateAudience, mayRead, objectAudience } from './planes.js';
import type { CanonReader } from './read.js';
import type { ClaimInput } from './records.js';
import { restored } from './restore.js';
import {
  type CanonObject,
  isLive,
  type NoteContent,
  type Principal,
  type ProposalInput,
} from './types.js';

/**
 * The object a proposal targets as its proposer may see it, refused unless the intent fits it
 * (create only what does not exist, change only what is live) and `base_version` is its current
 * version. `reader` is the operator's.
 */
async function target(
  reader: CanonReader,
  principal: Principal,
  input: ProposalInput,
  known: CanonObject | null | undefined,
): Promise<{ object: CanonObject | null; currentHash: ContentHash | null }> {
  const existing = known !== undefined ? known : await reader.object(input.object_id);
  const object = existing && mayRead(principal.id, objectAudience(existing)) ? existing : null;
  if (existing && !object) {
    // Another principal's personal note holds the id. It does not exist for this principal; all a
    // proposal can learn is that the id is taken (ids are one namespace per project).
    if (input.intent === 'create' || input.intent === 'supersede') {
      throw new CanonryError('CONFLICT', `${input.object_id} is not available; choose another id`);
    }
    throw new CanonryError('UNKNOWN_OBJECT', `no object ${input.object_id}`);
  }
  if (input.intent === 'create' && object) {
    throw new CanonryError(
      'CONFLICT',
      `${input.object_id} exists; propose an update against its current version`,
      {
        current_version: object.current_version_ref,
      },
    );
  }
  if (input.intent !== 'create' && input.intent !== 'supersede' && !object) {
    throw new CanonryError('UNKNOWN_OBJECT', `no object ${input.object_id}`);
  }
  if (object && input.intent !== 'restore' && !isLive(object)) {
    throw new CanonryError(
      'CONFLICT',
      `${input.object_id} is ${object.status}; restore it to change it`,
      {
        status: object.status,
      },
    );
  }
  if ((input.supersedes ?? []).includes(input.object_id)) {
    throw new CanonryError('INVALID_PROPOSAL', 'an object cannot supersede itself');
  }
  const currentHash = (object?.current_version_ref as ContentHash | undefined) ?? null;
  if (input.base_version !== currentHash) {
    throw new CanonryError(
      'CONFLICT',
      `${input.object_id} is at ${currentHash ?? 'no version'}; compare again`,
      {
        current_version: currentHash,
      },
    );
  }
  return { object, currentHash };
}

/**
 * Checks a proposal against current canon and the archive — its target and base, the restored
 * version, the dispute or resolution, the message and sources it cites, its dependencies (pinned,
 * no cycle) and planes (§14) — then compares the two notes (§5) and runs the gate (§6). Returns the
 * candidate as it will be proposed (restored, disputed, pinned), the claim of a dispute, and the
 * judgement. Every read goes through `db` (a batch reads canon as its earlier items leave it).
 */
export async function prepareProposal(
  canon: Canon,
  principal: Principal,
  input: ProposalInput,
  fromSuggestion: boolean,
  db: Pick<Queryable, 'all'> = canon.journal.store,
  /** The target's row as `db` holds it (null: none), when the caller read it already; else read. */
  known?: CanonObject | null,
) {
  const reader = canon.reader(principal.project, db);
  const mine = canon.readerFor(principal, db);
  const { object, currentHash } = await target(reader, principal, input, known);
  let candidate = input.candidate;
  if (input.intent === 'restore') {
    const old = input.restore_version ? await mine.version(input.restore_version) : null;
    if (!old || old.note_id !== input.object_id) {
      throw new CanonryError('UNKNOWN_VERSION', 'restore_version is not a version of this object');
    }
    candidate = restored(old.content);
  }
  let claim: ClaimInput | null = null;
  if (input.intent === 'dispute' || input.intent === 'resolve') {
    const current = currentHash ? await reader.version(currentHash) : null;
    if (!current) throw new CanonryError('UNKNOWN_OBJECT', `no object ${input.object_id}`);
    if (input.intent === 'resolve') checkResolve(current, input);
    else ({ candidate, claim } = prepareDispute(current, input, principal));
  }
  // A dispute's claim cites its own sources: they must quote the archive and be readable by the
  // object's readers, like the note's.
  const citing = (note: NoteContent) =>
    claim ? { ...note, sources: [...note.sources, ...claim.sources] } : note;
  // The messages the proposal names, read once for the archive check and the plane rules.
  const named = [
    ...(input.message_id ? [input.message_id] : []),
    ...citing(candidate).sources.map((s) => s.message_id),
  ];
  const messages =
    named.length === 0 ? new Map<string, ArchivedMessage>() : await mine.messagesById(named);
  if (input.message_id && !messages.has(input.message_id)) {
    throw new CanonryError('UNKNOWN_MESSAGE', `no archived message ${input.message_id}`);
  }
  checkReferences(messages, citing(candidate));
  // What the note rests on, read once for pinning and the plane rules.
  const dependencies =
    candidate.dependency_refs.length === 0
      ? new Map<string, CanonObject>()
      : await mine.objectsById(candidate.dependency_refs);
  candidate = await pinDependencies(mine, candidate, dependencies);
  // A cycle through a note needs an edge into it, and every edge points at an object that was
  // there when it was made (objects are never deleted): a note proposed into being has none, and
  // naming itself was refused by pinning (it has no version to pin). Its walk would read each
  // dependency level for nothing.
  if (object) await refuseCycle(db, principal.project, input.object_id, candidate);
  await checkPlanes(
    mine,
    candidateAudience(candidate, principal.id),
    object,
    citing(candidate),
    input,
    dependencies,
    messages,
  );
  const judged = await judge(
    canon.kernel,
    await canon.gateOf(principal.project, db),
    reader,
    currentHash,
    {
      message_id: input.message_id ?? null,
      object_id: input.object_id,
      intent: input.intent,
      candidate,
      supersedes: input.supersedes ?? [],
      proposer: principal,
      from_suggestion: fromSuggestion,
    },
    messages,
  );
  return { ...judged, candidate, claim };
}
