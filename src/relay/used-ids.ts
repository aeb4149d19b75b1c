import { CanonryError } from '../core/index.js';
import { objectIdOf } from './canon-map.js';
import { type MergeContext, type MergeResult, mergeContribution, namedIds } from './merge.js';
import type { Relay } from './relay.js';
import type { CognitiveStateObject, Contribution } from './types.js';

/**
 * A window's merge that creates no fact or decision under an id the session used before. Canon
 * keeps a note for every item a session ever held, so an id that has left the state stays taken: a
 * new item under it would fail canon's commit (the note exists, or is retired), and would fail the
 * same way on every retry. One batch read of the notes of the ids the merge would create; only
 * when one is taken does the merge run again, with it kept out.
 */

/** Rounds of merging at most: each keeps out what the last one met; more is a bug, not input. */
const MAX_ROUNDS = 4;

export async function mergeUnused(
  relay: Relay,
  project: string,
  prior: CognitiveStateObject | null,
  contribution: Contribution,
  ctx: MergeContext,
): Promise<MergeResult> {
  const named = namedIds(contribution);
  const used = new Set<string>();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const merged = mergeContribution(prior, contribution, used.size > 0 ? { ...ctx, used } : ctx);
    // Tool results are not among them: listing one again refreshes its note (`refreshedTools`).
    const taken = await takenBefore(relay, project, ctx.session_id, merged.added);
    if (taken.length === 0) return merged;
    for (const id of taken) {
      const field = named.get(id);
      if (field !== undefined) {
        throw new CanonryError(
          'MODEL_OUTPUT_INVALID',
          `${field}: ${id} named an item that has left the state in an earlier window; a new item takes a new id`,
          { field },
        );
      }
      used.add(id);
    }
  }
  throw new CanonryError('CONFLICT', 'no unused ids were found for the window’s new items');
}

/** The ids among `ids` whose canon note the session already has. */
async function takenBefore(
  relay: Relay,
  project: string,
  sessionId: string,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const byObject = new Map(ids.map((id) => [objectIdOf(sessionId, id), id]));
  const found = await relay.projectCanon.reader(project).objectsById([...byObject.keys()]);
  return [...found.keys()].map((objectId) => byObject.get(objectId)!);
}
