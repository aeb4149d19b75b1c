import { CanonryError, type ContentHash } from '../core/index.js';
import type { CanonReader } from './read.js';
import type { NoteContent, ProposalInput } from './types.js';

/** A version's content as a restore proposes it: a superseded or retired note comes back active. */
export function restored(content: NoteContent): NoteContent {
  return {
    ...content,
    status:
      content.status === 'superseded' || content.status === 'retired' ? 'active' : content.status,
  };
}

/**
 * The proposal that restores `objectId` to its version `version` — by hash or by number
 * (`version_id`) — as `reader`'s viewer sees the object: UNKNOWN_OBJECT or UNKNOWN_VERSION otherwise.
 */
export async function restoreInput(
  reader: CanonReader,
  objectId: string,
  version: ContentHash | number,
  rationale?: string,
): Promise<ProposalInput> {
  const object = await reader.object(objectId);
  if (!object) throw new CanonryError('UNKNOWN_OBJECT', `no object ${objectId}`);
  const old = await reader.versionNamed(objectId, version);
  if (!old) throw new CanonryError('UNKNOWN_VERSION', `${objectId} has no version ${version}`);
  return {
    object_id: objectId,
    intent: 'restore',
    base_version: object.current_version_ref,
    candidate: restored(old.content),
    restore_version: old.version_hash,
    rationale: rationale ?? `restore version ${old.version_id}`,
  };
}
