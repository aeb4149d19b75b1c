import type { ArchivedMessage, Classification, ProposalDraft } from '../classification.js';
import { CONFIDENCE_STATES, type ConfidenceState, type ObjectStatus } from '../types.js';
import { citesSource } from './cues.js';

/** Roles whose messages are suggestions at most: assistants, agents and tools. */
const MACHINE_ROLES: ReadonlySet<string> = new Set(['assistant', 'agent', 'tool']);

/**
 * Whether a message is a machine's: an assistant, agent or tool message, or anything an agent or
 * tool principal sent. Its drafts are suggestions: provisional, and inferred unless they cite a source.
 */
export function isMachineAuthor(message: Pick<ArchivedMessage, 'role' | 'actor_role'>): boolean {
  return MACHINE_ROLES.has(message.role) || MACHINE_ROLES.has(message.actor_role);
}

/** What a draft from this author may claim. */
export interface AuthorBounds {
  readonly machine: boolean;
  /** The strongest confidence without a citation in the cited spans. */
  readonly confidence: ConfidenceState;
  /** The statuses a draft may carry (`retired` also, with intent `retire`). */
  readonly statuses: readonly ObjectStatus[];
}

/** The bounds of the message's author: the rule table of `src/canon/classify/README.md`. */
export function authorBounds(message: Pick<ArchivedMessage, 'role' | 'actor_role'>): AuthorBounds {
  const machine = isMachineAuthor(message);
  return machine
    ? { machine, confidence: 'inferred', statuses: ['provisional', 'disputed'] }
    : { machine, confidence: 'asserted', statuses: ['active', 'provisional', 'disputed'] };
}

const rank = (state: ConfidenceState) => CONFIDENCE_STATES.indexOf(state);

/** The problems of one draft against its author's bounds, as `<code>: <detail>` reasons. */
function draftBoundIssues(
  draft: ProposalDraft,
  path: string,
  message: ArchivedMessage,
  bounds: AuthorBounds,
): string[] {
  const issues: string[] = [];
  const { confidence_state: claimed, status } = draft.candidate;
  const author = `a message from ${message.role} (${message.actor_role})`;
  if (claimed === 'verified') {
    // Verification is an act with references (a test run, a review record); a draft cites only spans
    // of the message it came from, so no classifier can make a note verified.
    issues.push(
      `no_verification: ${path} claims verified, but a draft carries no verification references`,
    );
  } else if (claimed === 'sourced') {
    const cited = draft.candidate.sources.some(({ span }) =>
      citesSource(message.text.slice(span[0], span[1])),
    );
    if (!cited) issues.push(`over_confident: ${path} claims sourced, but its spans cite no source`);
  } else if (rank(claimed) > rank(bounds.confidence)) {
    issues.push(
      `over_confident: ${path} claims ${claimed}; ${author} is ${bounds.confidence} at most unless it cites a source`,
    );
  }
  const retiring = status === 'retired' && draft.intent === 'retire';
  if (!bounds.statuses.includes(status) && !retiring) {
    issues.push(
      `over_status: ${path} claims status ${status}; ${author} may propose ${bounds.statuses.join(', ')}`,
    );
  }
  return issues;
}

/**
 * The problems of a classification against the rules no classifier may break, whatever its prompt
 * said: never `verified`, never more confidence or a stronger status than the author's role allows.
 * Empty when it is within bounds. Out-of-bounds drafts are refused, never clamped.
 */
export function boundIssues(
  classification: Pick<Classification, 'drafts'>,
  message: ArchivedMessage,
): string[] {
  const bounds = authorBounds(message);
  return classification.drafts.flatMap((draft, i) =>
    draftBoundIssues(draft, `/drafts/${i}`, message, bounds),
  );
}
