import { CanonryError } from '../core/index.js';
import {
  type ArtifactManifest,
  type ArtifactStatus,
  artifactInput,
  artifactState,
} from './artifacts.js';
import type { Canon } from './canon.js';
import { withCascade } from './cascade.js';
import { ARTIFACT } from './entry-kinds.js';
import type { ArtifactPageQuery } from './page.js';
import type { CanonReader } from './read.js';
import { ACCEPTANCE_STATES, type AcceptanceState, MACHINE_ROLES, type Principal } from './types.js';

/**
 * Journals a new manifest version as `canon.artifact`, under the acting principal's authority, if
 * the artifact is still at the version before it (none for version 1): decided under the journal's
 * head lock, so a registration or review that landed since the caller read it is CONFLICT — never
 * a second manifest of the same number, nor a person's review silently replaced.
 */
async function appendManifest(
  canon: Canon,
  principal: Principal,
  manifest: ArtifactManifest,
): Promise<ArtifactManifest> {
  const project = principal.project;
  await canon.journal.append(
    project,
    ARTIFACT.input(
      { manifest, by: principal },
      {
        actor: principal.id,
        authority: { principal: principal.id, role: principal.role, project },
      },
    ),
    {
      precondition: async (tx) => {
        const now = await canon.reader(project, tx).artifact(manifest.artifact_id);
        if ((now?.artifact_version ?? 0) !== manifest.artifact_version - 1) {
          throw new CanonryError(
            'CONFLICT',
            `${manifest.artifact_id} changed while this was decided: read it again`,
          );
        }
      },
    },
  );
  return manifest;
}

/**
 * Registers (or re-registers, as a new artifact_version) an artifact manifest (§10). Every canonical
 * version it names must exist and be readable by the registrant (§14: an artifact citing a personal
 * version is its holder's alone); an agent may register artifacts but never accept them.
 */
export async function registerArtifact(
  canon: Canon,
  principal: Principal,
  input: unknown,
): Promise<ArtifactManifest> {
  if (principal.role === 'viewer')
    throw new CanonryError('FORBIDDEN', 'viewers cannot register artifacts');
  const manifest = artifactInput(input);
  if (MACHINE_ROLES.includes(principal.role) && manifest.acceptance_state === 'accepted') {
    throw new CanonryError(
      'FORBIDDEN',
      `a machine principal (${principal.role}) cannot accept an artifact`,
    );
  }
  const reader = canon.readerFor(principal);
  for (const note of manifest.canonical_note_versions) {
    const version = await reader.version(note.version_hash);
    if (!version || version.note_id !== note.object_id) {
      throw new CanonryError(
        'UNKNOWN_VERSION',
        `${note.object_id} has no version ${note.version_hash}`,
      );
    }
  }
  const previous = await reader.artifact(manifest.artifact_id);
  if (!previous && (await canon.reader(principal.project).artifact(manifest.artifact_id))) {
    // Another principal's personal artifact holds the id: all one learns is that it is taken.
    throw new CanonryError(
      'CONFLICT',
      `${manifest.artifact_id} is not available; choose another id`,
    );
  }
  if (
    MACHINE_ROLES.includes(principal.role) &&
    previous &&
    previous.acceptance_state !== 'proposed'
  ) {
    throw new CanonryError(
      'FORBIDDEN',
      `a person reviewed ${manifest.artifact_id}; a machine principal cannot replace that review`,
    );
  }
  return appendManifest(canon, principal, {
    ...manifest,
    artifact_version: (previous?.artifact_version ?? 0) + 1,
  });
}

/** Records a person's review of an artifact: accepted or rejected (owners and editors only). */
export async function reviewArtifact(
  canon: Canon,
  principal: Principal,
  artifactId: string,
  acceptance: unknown,
): Promise<ArtifactManifest> {
  if (principal.role !== 'owner' && principal.role !== 'editor') {
    throw new CanonryError('FORBIDDEN', 'only an owner or an editor reviews artifacts');
  }
  if (!(ACCEPTANCE_STATES as readonly unknown[]).includes(acceptance)) {
    throw new CanonryError(
      'INVALID_ARTIFACT',
      'acceptance_state is proposed, accepted or rejected',
    );
  }
  const previous = await canon.readerFor(principal).artifact(artifactId);
  if (!previous) throw new CanonryError('UNKNOWN_ARTIFACT', `no artifact ${artifactId}`);
  return appendManifest(canon, principal, {
    ...previous,
    artifact_version: previous.artifact_version + 1,
    acceptance_state: acceptance as AcceptanceState,
  });
}

/**
 * One page of the artifacts `reader` may read (§14, {@link ArtifactPageQuery}), each with its §10
 * state: against the canon it may read, or — when its inputs are current but a cascade reached it
 * through a note that needs revision — the state the cascade recorded (possibly stale, with the
 * path). The state is computed for the page's artifacts alone, from the objects, versions and
 * cascade states they name.
 */
export async function artifactStatusPage(
  reader: CanonReader,
  q: ArtifactPageQuery,
): Promise<ArtifactStatus[]> {
  return artifactStatusesOf(reader, await reader.artifactPage(q));
}

/** One artifact `reader` may read with its §10 state, or null (absent, or not the reader's). */
export async function artifactStatus(
  reader: CanonReader,
  id: string,
): Promise<ArtifactStatus | null> {
  const manifest = await reader.artifact(id);
  return manifest ? (await artifactStatusesOf(reader, [manifest]))[0]! : null;
}

/**
 * The §10 states of these manifests `reader` read (a page of them, or its first rows), from what
 * they name alone: the objects, versions and cascade states of these manifests, no others.
 */
export async function artifactStatusesOf(
  reader: CanonReader,
  manifests: readonly ArtifactManifest[],
): Promise<ArtifactStatus[]> {
  if (manifests.length === 0) return [];
  const lookup = await reader.lookupFor(manifests);
  const cascaded = await reader.artifactDependencyStates(manifests.map((m) => m.artifact_id));
  return manifests.map((m) => withCascade(artifactState(m, lookup), cascaded));
}
