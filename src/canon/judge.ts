import { CanonryError, type ContentHash } from '../core/index.js';
import type { CompiledProtocol, Kernel } from '../kernel/index.js';
import type { ArchivedMessage } from './classification.js';
import { compareNotes } from './compare.js';
import { gateInput, runGate } from './gate.js';
import { hedgedSources } from './hedge.js';
import { withoutBase } from './plane-rules.js';
import {
  type Audience,
  objectAudience,
  proposalAudience,
  readableWithin,
  versionAudience,
} from './planes.js';
import type { CanonReader } from './read.js';
import type { ProposalRecord } from './records.js';
import { isLive, type NoteContent, type ObjectType } from './types.js';

/**
 * The two-note comparison (§5) of a candidate against the object's version `currentHash`, and the
 * gate's signed verdict on it (§6): the same judgement for a new proposal and a re-comparison.
 * `reader` is the operator's: the comparison is then cut to what the proposal's readers may read.
 */
export async function judge(
  kernel: Kernel,
  gateProtocol: CompiledProtocol,
  reader: CanonReader,
  currentHash: ContentHash | null,
  p: Pick<
    ProposalRecord,
    | 'object_id'
    | 'intent'
    | 'candidate'
    | 'supersedes'
    | 'proposer'
    | 'from_suggestion'
    | 'message_id'
  >,
  /** The messages the proposal names, when its preparation read them already. */
  messages?: ReadonlyMap<string, ArchivedMessage>,
) {
  const supersededTypes = await typesOfSuperseded(reader, p.supersedes);
  const current = currentHash ? await reader.version(currentHash) : null;
  // The comparison is journaled with the proposal and read by the proposal's readers: it names
  // only dependents they may read (§14), and the gate judges what they can see.
  const audience = proposalAudience(p);
  const stale = await staleDependents(reader, audience, p.object_id, currentHash, p.supersedes);
  // Nothing rests on an object with no version yet (a pin names a version that exists).
  const dependents =
    currentHash === null
      ? []
      : (await reader.dependentObjects(p.object_id)).filter((o) =>
          readableWithin(objectAudience(o), audience),
        );
  const full = compareNotes(current, p.candidate, {
    intent: p.intent,
    proposer: p.proposer,
    dependentArtifacts: stale,
    dependentObjects: dependents.map((o) => o.object_id),
    supersededTypes,
    fromSuggestion: p.from_suggestion,
    hedges: await hedgedSources(reader, p.candidate.sources, p.message_id, messages),
  });
  const gate = runGate(
    kernel,
    gateProtocol,
    gateInput(full, p.proposer.role, p.intent, p.candidate.object_type),
  );
  const comparison =
    current && !readableWithin(versionAudience(current), audience) ? withoutBase(full) : full;
  return { current, comparison, stale, gate };
}

/**
 * Sources must quote the archive exactly (for `reader`'s viewer). Dependencies are checked where they
 * are pinned (`pinDependencies`).
 */
export function checkReferences(
  messages: ReadonlyMap<string, ArchivedMessage>,
  candidate: NoteContent,
): void {
  for (const source of candidate.sources) {
    const message = messages.get(source.message_id);
    const [start, end] = source.span;
    if (!message || end > message.text.length || message.text.slice(start, end) !== source.quote) {
      throw new CanonryError(
        'SOURCE_MISSING',
        `source ${source.message_id}[${start}:${end}] does not match the archive`,
      );
    }
  }
}

async function typesOfSuperseded(
  reader: CanonReader,
  ids: readonly string[],
): Promise<ObjectType[]> {
  const types: ObjectType[] = [];
  for (const id of ids) {
    const old = await reader.object(id);
    if (!old || !isLive(old))
      throw new CanonryError('UNKNOWN_OBJECT', `${id} is not a current object to supersede`);
    types.push(old.object_type);
  }
  return types;
}

/** Artifacts a mutation makes stale, among those the proposal's readers may read. */
export async function staleDependents(
  reader: CanonReader,
  audience: Audience,
  objectId: string,
  version: ContentHash | null,
  supersedes: readonly string[] = [],
): Promise<string[]> {
  const built = version ? await reader.artifactsBuiltFrom(objectId, version) : [];
  for (const id of supersedes) built.push(...(await reader.artifactsBuiltFrom(id)));
  return (await reader.artifactsWithin(built, audience)).sort();
}
