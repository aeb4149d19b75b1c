import { CanonryError, type ContentHash } from '../core/index.js';
import type { CanonReader } from './read.js';
import { isLive, type ProposalIntent } from './types.js';

/** The canon a proposal was compared against; a commit must find it unchanged. */
export interface Expected {
  readonly objectId: string;
  readonly base: ContentHash | null;
  /** The target must still be current (not superseded or retired); false only for a restore. */
  readonly live: boolean;
  /** Objects the proposal replaces, which must all still be current. */
  readonly supersedes: readonly string[];
}

/** What a proposal expects canon to still be when it commits. */
export function expectedOf(p: {
  object_id: string;
  base_version: ContentHash | null;
  intent: ProposalIntent;
  supersedes?: readonly string[];
}): Expected {
  return {
    objectId: p.object_id,
    base: p.base_version,
    live: p.intent !== 'restore',
    supersedes: p.supersedes ?? [],
  };
}

/** Why canon is no longer what a proposal was compared against, or null when it still is. */
export async function movedSince(reader: CanonReader, expected: Expected): Promise<string | null> {
  const object = await reader.object(expected.objectId);
  const now = object?.current_version_ref ?? null;
  if (now !== expected.base) return `${expected.objectId} moved to ${now ?? 'nothing'}`;
  if (expected.live && object && !isLive(object)) return `${expected.objectId} is ${object.status}`;
  for (const id of expected.supersedes) {
    if (!isLive(await reader.object(id))) return `${id} is no longer current`;
  }
  return null;
}

/**
 * Inside an append transaction (`reader` reads through it): refuses with CONFLICT if canon moved
 * since the comparison.
 */
export async function refuseMoved(reader: CanonReader, expected: Expected): Promise<void> {
  const moved = await movedSince(reader, expected);
  if (moved !== null)
    throw new CanonryError('CONFLICT', `${moved} during the commit; compare again`);
}
