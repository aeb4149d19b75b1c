import { CanonryError } from '../core/index.js';
import { resolvedContent } from './disputes.js';
import type { CanonReader } from './read.js';
import type { ProposalInput } from './types.js';

/**
 * The proposal that resolves a dispute of `objectId` in favour of its open claim `claimId`: the
 * object's current content stating that claim, with the rationale that says why it stands (§15).
 */
export async function resolveInput(
  reader: CanonReader,
  objectId: string,
  claimId: string,
  rationale: string,
): Promise<ProposalInput> {
  const current = await reader.current(objectId);
  if (!current) throw new CanonryError('UNKNOWN_OBJECT', `no object ${objectId}`);
  return {
    object_id: objectId,
    intent: 'resolve',
    base_version: current.version_hash,
    candidate: resolvedContent(current, claimId),
    claim_id: claimId,
    rationale,
  };
}
