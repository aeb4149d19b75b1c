import type { ArtifactManifest } from './artifacts.js';
import type { ArchivedMessage } from './classification.js';
import type { ProposalRecord } from './records.js';
import type { CanonObject, NoteContent, NoteVersion, Visibility } from './types.js';

/**
 * Who may read something in canon (LCSM §14 planes): every principal of the project, or one
 * principal alone. `project`, `working` and `procedural` notes are shared (the plane says what a
 * note is for, not who reads it); a `personal` note or message belongs to the principal who made it.
 */
export type Audience =
  | { readonly shared: true }
  | { readonly shared: false; readonly holder: string };

/** Everyone in the project. */
export const SHARED: Audience = { shared: true };

/** The audience of something with this visibility, made by `holder`. */
export function audienceOf(visibility: Visibility | undefined, holder: string): Audience {
  return visibility === 'personal' ? { shared: false, holder } : SHARED;
}

function proposerId(authority: unknown): string {
  const proposer = (authority as { proposer?: { id?: unknown } } | null)?.proposer;
  // A record without a proposer is not one canon wrote: it belongs to nobody who can ask for it.
  return typeof proposer?.id === 'string' ? proposer.id : '';
}

/**
 * A version's audience. Only its holder can read (and so propose on) a personal note, so every
 * personal version's proposer is the principal it belongs to.
 */
export function versionAudience(version: Pick<NoteVersion, 'content' | 'authority'>): Audience {
  return audienceOf(version.content.visibility, proposerId(version.authority));
}

/** An object's audience: its current version's. */
export function objectAudience(
  object: Pick<CanonObject, 'visibility' | 'authority_basis'>,
): Audience {
  return audienceOf(object.visibility, proposerId(object.authority_basis));
}

/** A message's audience; a message archived before messages had a visibility is `project`. */
export function messageAudience(message: Pick<ArchivedMessage, 'visibility' | 'actor'>): Audience {
  return audienceOf(message.visibility, message.actor);
}

/** A proposal's audience: its candidate's, as its proposer would hold it. */
export function proposalAudience(
  proposal: Pick<ProposalRecord, 'candidate' | 'proposer'>,
): Audience {
  return audienceOf(proposal.candidate.visibility, proposal.proposer.id);
}

/**
 * The principal something belongs to alone (its row's `holder` column), or null when every principal
 * of the project reads it: what a page of proposals or messages is chosen by in SQL.
 */
export function holderOf(audience: Audience): string | null {
  return audience.shared ? null : audience.holder;
}

/** The audience of a note as a principal proposes it. */
export function candidateAudience(candidate: Pick<NoteContent, 'visibility'>, proposer: string) {
  return audienceOf(candidate.visibility, proposer);
}

/**
 * An artifact's audience: personal when it cites a personal version (registering needs every cited
 * version to be readable, so all personal ones have the registrant as holder), shared otherwise.
 * A cited version that cannot be found makes it nobody's: it is never shown.
 */
export function artifactAudience(
  manifest: Pick<ArtifactManifest, 'canonical_note_versions'>,
  versionOf: (hash: string) => Pick<NoteVersion, 'content' | 'authority'> | null | undefined,
): Audience {
  for (const cited of manifest.canonical_note_versions) {
    const version = versionOf(cited.version_hash);
    if (!version) return { shared: false, holder: '' };
    const audience = versionAudience(version);
    if (!audience.shared) return audience;
  }
  return SHARED;
}

/** Whether the principal `viewer` may read what `audience` may (null: the operator, who reads all). */
export function mayRead(viewer: string | null, audience: Audience): boolean {
  return (
    viewer === null || audience.shared || (audience.holder !== '' && audience.holder === viewer)
  );
}

/** Whether every reader of `outer` can read `inner`: what a note may cite or depend on. */
export function readableWithin(inner: Audience, outer: Audience): boolean {
  return inner.shared || (!outer.shared && outer.holder === inner.holder);
}

/** Whether two audiences are the same readers. */
export function sameAudience(a: Audience, b: Audience): boolean {
  return a.shared ? b.shared : !b.shared && a.holder === b.holder;
}
