import { CanonryError } from '../core/index.js';
import type { ArchivedMessage } from './classification.js';
import type { Comparison } from './compare.js';
import {
  type Audience,
  messageAudience,
  objectAudience,
  readableWithin,
  sameAudience,
} from './planes.js';
import type { CanonReader } from './read.js';
import type { CanonObject, NoteContent } from './types.js';

function violation(message: string, field: string): never {
  throw new CanonryError('PLANE_VIOLATION', message, { field });
}

/**
 * The §14 rules of a proposal, checked with the proposer's own reader (`mine`), so what they cannot
 * read is absent, never "forbidden". A note may cite, come from and depend on only what every reader
 * of the note can read (a `project` note cannot cite a personal message or depend on a personal
 * note); it replaces only notes with the same readers (a personal note cannot take a shared one out
 * of canon, a shared one cannot name a personal one); and a shared note never becomes personal (that
 * would take it from everyone by one principal's act: retire it instead). Promotion of a personal
 * note to a shared plane is allowed, as its holder's explicit proposal, and is S2 (`stakes.ts`).
 */
export async function checkPlanes(
  mine: CanonReader,
  audience: Audience,
  object: CanonObject | null,
  candidate: NoteContent,
  refs: { readonly message_id?: string | null; readonly supersedes?: readonly string[] },
  dependencies: ReadonlyMap<string, CanonObject>,
  messages: ReadonlyMap<string, ArchivedMessage>,
): Promise<void> {
  if (object && objectAudience(object).shared && !audience.shared) {
    violation(
      `${object.object_id} is shared with the project; it cannot become personal`,
      'visibility',
    );
  }
  const cited = [
    ...candidate.sources.map((s) => s.message_id),
    ...(refs.message_id ? [refs.message_id] : []),
  ];
  for (const id of new Set(cited)) {
    const message = messages.get(id);
    if (message && !readableWithin(messageAudience(message), audience)) {
      violation(
        `message ${id} is personal; a note its readers cannot trace to it cannot cite it`,
        'sources',
      );
    }
  }
  for (const id of candidate.dependency_refs) {
    const dep = dependencies.get(id);
    if (dep && !readableWithin(objectAudience(dep), audience)) {
      violation(`${id} is personal; a shared note cannot depend on it`, 'dependency_refs');
    }
  }
  for (const id of refs.supersedes ?? []) {
    const old = await mine.object(id);
    if (!old)
      throw new CanonryError('UNKNOWN_OBJECT', `${id} is not a current object to supersede`);
    if (!sameAudience(objectAudience(old), audience)) {
      violation(
        `${id} and the candidate are not read by the same principals; one cannot replace the other`,
        'supersedes',
      );
    }
  }
}

/**
 * The two-note comparison as the readers of a candidate may see it when they cannot read the current
 * version (a personal note proposed for the project): the answers stay (the gate judged them), what
 * they would quote of the personal version goes.
 */
export function withoutBase(comparison: Comparison): Comparison {
  const c = comparison.checks;
  const candidate = comparison.candidate.content;
  return {
    ...comparison,
    current: { version_hash: null, content: null, authority: comparison.current.authority },
    checks: {
      ...c,
      information_removed: {
        result: c.information_removed.result,
        detail: c.information_removed.result
          ? 'the candidate leaves out part of the personal version (not shown)'
          : 'nothing removed',
        items: [],
      },
      source_or_authority_change: {
        result: c.source_or_authority_change.result,
        detail: c.source_or_authority_change.result
          ? 'sources or authority differ from the personal version (not shown)'
          : 'same sources and authority',
        items: [],
      },
      certainty_raised_without_evidence: {
        result: c.certainty_raised_without_evidence.result,
        detail: `personal version → ${candidate?.confidence_state ?? 'none'}${c.certainty_raised_without_evidence.result ? ' with no new source' : ''}`,
      },
    },
  };
}
