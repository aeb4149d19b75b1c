import { CanonryError, type ContentHash, isContentHash } from '../core/index.js';
import {
  ACCEPTANCE_STATES,
  type AcceptanceState,
  type CanonObject,
  type NoteVersion,
  OBJECT_ID,
} from './types.js';
import { refuseAuthorityClaims } from './validate.js';

/** What an artifact was built from (LCSM §10). */
export interface ArtifactManifest {
  readonly artifact_id: string;
  readonly artifact_version: number;
  readonly title: string;
  readonly input_refs: readonly string[];
  /** The exact canonical versions it was built from. */
  readonly canonical_note_versions: readonly {
    readonly object_id: string;
    readonly version_hash: ContentHash;
  }[];
  readonly tool_or_model_refs: readonly string[];
  readonly output_digest: ContentHash;
  readonly verification_refs: readonly string[];
  readonly acceptance_state: AcceptanceState;
}

/** The §10 states an artifact can be in once canon moves. */
export type ArtifactState =
  | 'current'
  | 'possibly_stale'
  | 'definitely_stale'
  | 'unaffected'
  | 'requires_regeneration'
  | 'requires_human_review';

/** An artifact with its state against current canon, and why. */
export interface ArtifactStatus {
  readonly manifest: ArtifactManifest;
  readonly state: ArtifactState;
  readonly reasons: readonly string[];
}

function wellFormed(v: unknown, max: number): v is string {
  return typeof v === 'string' && v.length > 0 && v.length <= max && v.isWellFormed();
}

function strings(value: unknown, field: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > 100 || !value.every((v) => wellFormed(v, 500))) {
    throw new CanonryError('INVALID_ARTIFACT', `${field} must be a list of at most 100 strings`, {
      field,
    });
  }
  return value;
}

/** Checks a manifest from outside (without its version, which canon assigns). */
export function artifactInput(value: unknown): Omit<ArtifactManifest, 'artifact_version'> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CanonryError('INVALID_ARTIFACT', 'the manifest must be an object');
  }
  const m = value as Record<string, unknown>;
  refuseAuthorityClaims(m);
  const allowed = [
    'artifact_id',
    'title',
    'input_refs',
    'canonical_note_versions',
    'tool_or_model_refs',
    'output_digest',
    'verification_refs',
    'acceptance_state',
  ];
  const unknown = Object.keys(m).find((k) => !allowed.includes(k));
  if (unknown !== undefined)
    throw new CanonryError(
      'INVALID_ARTIFACT',
      `unknown field ${JSON.stringify(unknown.slice(0, 64))}`,
    );
  if (typeof m.artifact_id !== 'string' || !OBJECT_ID.test(m.artifact_id)) {
    throw new CanonryError(
      'INVALID_ARTIFACT',
      'artifact_id must be lowercase letters, digits, . _ -',
    );
  }
  if (!isContentHash(m.output_digest))
    throw new CanonryError('INVALID_ARTIFACT', 'output_digest must be a sha256: hash');
  const notes = m.canonical_note_versions;
  if (!Array.isArray(notes) || notes.length === 0 || notes.length > 100) {
    throw new CanonryError(
      'INVALID_ARTIFACT',
      'canonical_note_versions must list 1–100 { object_id, version_hash }',
    );
  }
  if (m.title !== undefined && !wellFormed(m.title, 200)) {
    throw new CanonryError('INVALID_ARTIFACT', 'title must be a string of 1–200 characters', {
      field: 'title',
    });
  }
  const acceptance = m.acceptance_state ?? 'proposed';
  if (!(ACCEPTANCE_STATES as readonly unknown[]).includes(acceptance)) {
    throw new CanonryError(
      'INVALID_ARTIFACT',
      'acceptance_state is proposed, accepted or rejected',
    );
  }
  return {
    artifact_id: m.artifact_id,
    title: (m.title as string | undefined) ?? m.artifact_id,
    input_refs: strings(m.input_refs, 'input_refs'),
    canonical_note_versions: notes.map((n, i) => {
      const note = n as Record<string, unknown>;
      const exact =
        typeof n === 'object' &&
        n !== null &&
        !Array.isArray(n) &&
        Object.keys(note).sort().join(',') === 'object_id,version_hash' &&
        isContentHash(note.version_hash) &&
        typeof note.object_id === 'string' &&
        OBJECT_ID.test(note.object_id);
      if (!exact) {
        throw new CanonryError(
          'INVALID_ARTIFACT',
          `canonical_note_versions[${i}] must be exactly { object_id, version_hash }`,
        );
      }
      return {
        object_id: note.object_id as string,
        version_hash: note.version_hash as ContentHash,
      };
    }),
    tool_or_model_refs: strings(m.tool_or_model_refs, 'tool_or_model_refs'),
    output_digest: m.output_digest,
    verification_refs: strings(m.verification_refs, 'verification_refs'),
    acceptance_state: acceptance as AcceptanceState,
  };
}

/** Looks up what staleness needs: the current object and a version by hash. */
export interface CanonLookup {
  object(id: string): CanonObject | undefined;
  version(hash: ContentHash): NoteVersion | undefined;
}

/**
 * The §10 state of an artifact against current canon. Each dependency is current (same version),
 * possibly stale (the object moved but its statement did not: only sources, confidence or title), or
 * definitely stale (statement changed, or the object was superseded or retired). A definitely stale
 * artifact a person accepted requires human review; one a tool or model made requires regeneration.
 * An input now disputed requires human review whoever made the artifact: which claim it should
 * follow is a person's call.
 * With `moved`, artifacts that do not depend on that object are `unaffected` by the move.
 */
export function artifactState(
  manifest: ArtifactManifest,
  canon: CanonLookup,
  moved?: string,
): ArtifactStatus {
  if (moved !== undefined && !manifest.canonical_note_versions.some((n) => n.object_id === moved)) {
    return { manifest, state: 'unaffected', reasons: [`does not depend on ${moved}`] };
  }
  const reasons: string[] = [];
  let worst: 'current' | 'possibly_stale' | 'definitely_stale' = 'current';
  let disputed = false;
  for (const dep of manifest.canonical_note_versions) {
    const now = canon.object(dep.object_id);
    if (
      now &&
      now.current_version_ref === dep.version_hash &&
      now.status !== 'superseded' &&
      now.status !== 'retired'
    )
      continue;
    const then = canon.version(dep.version_hash);
    const current = now ? canon.version(now.current_version_ref) : undefined;
    if (!now || now.status === 'superseded' || now.status === 'retired') {
      reasons.push(
        `${dep.object_id} ${now ? now.status : 'gone'}${now?.superseded_by ? ` by ${now.superseded_by}` : ''}`,
      );
      worst = 'definitely_stale';
    } else if (now.status === 'disputed') {
      reasons.push(`${dep.object_id} disputed, now v${now.version_id}`);
      disputed = true;
      worst = 'definitely_stale';
    } else if (then && current && sameStatement(then, current)) {
      reasons.push(`${dep.object_id} now v${now.version_id}, statement unchanged`);
      if (worst === 'current') worst = 'possibly_stale';
    } else {
      reasons.push(`${dep.object_id} changed, now v${now.version_id}`);
      worst = 'definitely_stale';
    }
  }
  if (worst !== 'definitely_stale') return { manifest, state: worst, reasons };
  if (manifest.acceptance_state === 'accepted' || disputed)
    return { manifest, state: 'requires_human_review', reasons };
  if (manifest.tool_or_model_refs.length > 0 && manifest.acceptance_state !== 'rejected') {
    return { manifest, state: 'requires_regeneration', reasons };
  }
  return { manifest, state: 'definitely_stale', reasons };
}

/** Whether two versions state the same thing: text, type, shape and status (title, sources, confidence aside). */
export function sameStatement(a: NoteVersion, b: NoteVersion): boolean {
  return (
    a.content.text === b.content.text &&
    a.content.object_type === b.content.object_type &&
    JSON.stringify(a.content.shape) === JSON.stringify(b.content.shape) &&
    a.content.status === b.content.status
  );
}
