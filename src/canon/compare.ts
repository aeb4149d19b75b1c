import { AUTHORITY, classifyStakes, withinAuthority } from './stakes.js';
import type {
  NoteContent,
  NoteVersion,
  ObjectType,
  Principal,
  ProposalIntent,
  Stakes,
} from './types.js';
import { CONFIDENCE_STATES } from './types.js';

/** One computed check of the two-note comparison (§5): its answer and what it found. */
export interface CheckResult {
  readonly result: boolean;
  readonly detail: string;
  readonly items?: readonly string[];
}

/** The eight questions of §5, in the order every view lists them. */
export const COMPARISON_CHECKS = [
  'information_removed',
  'source_or_authority_change',
  'certainty_raised_without_evidence',
  'suggestion_to_directive',
  'dispute_collapsed',
  'dependents_made_stale',
  'reversible',
  'within_authority',
] as const;

/** The name of one §5 check. */
export type ComparisonCheckName = (typeof COMPARISON_CHECKS)[number];

/** The eight questions of §5, each answered by a computed check. */
export type ComparisonChecks = { readonly [K in ComparisonCheckName]: CheckResult };

/**
 * Whether a check's answer is a concern: `true` is for the six risk questions, `false` for the two
 * safety ones (reversible, within the actor's authority).
 */
export function isConcern(name: ComparisonCheckName, result: boolean): boolean {
  return name === 'reversible' || name === 'within_authority' ? !result : result;
}

/** One side of the two-note view. */
export interface NoteSide {
  readonly version_hash: string | null;
  readonly content: NoteContent | null;
  /** The authority it stands (or would stand) on. */
  readonly authority: { readonly principal: string; readonly role: string } | null;
}

/** The two-note comparison (§5): current vs candidate, and the computed answers. */
export interface Comparison {
  readonly current: NoteSide;
  readonly candidate: NoteSide;
  readonly checks: ComparisonChecks;
  readonly stakes: Stakes;
}

/** What the comparison needs to know beyond the two notes. */
export interface CompareContext {
  readonly intent: ProposalIntent;
  readonly proposer: Principal;
  /** Artifacts built from the current version. */
  readonly dependentArtifacts: readonly string[];
  /** Objects whose dependency_refs name this object. */
  readonly dependentObjects: readonly string[];
  /** Types of the objects a supersede would replace. */
  readonly supersededTypes?: readonly ObjectType[];
  /** Whether the source message was phrased as a suggestion (assistant/agent "I propose", "could"). */
  readonly fromSuggestion?: boolean;
  /** Hedged sentences among what the candidate cites (`hedge.ts`), whoever spoke them. */
  readonly hedges?: readonly string[];
}

const SUGGESTIVE: readonly ObjectType[] = ['preference', 'question', 'uncertainty'];
const DIRECTIVE: readonly ObjectType[] = [
  'decision',
  'instruction',
  'constraint',
  'policy',
  'permission',
];
const MODAL_DIRECTIVE = /\b(must|shall|always|never|required|will use|is decided)\b/i;

/** Who a version stands on: its approver if it had one, else its proposer. */
function standingAuthority(version: NoteVersion): { principal: string; role: string } | null {
  const a = version.authority as {
    proposer?: { id: string; role: string };
    approver?: { id: string; role: string } | null;
  } | null;
  const who = a?.approver ?? a?.proposer;
  return who ? { principal: who.id, role: who.role } : null;
}

function rank(state: NoteContent['confidence_state']): number {
  return CONFIDENCE_STATES.indexOf(state);
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim().toLowerCase().replace(/\s+/g, ' '))
    .filter(Boolean);
}

function removedInformation(
  current: NoteContent | null,
  candidate: NoteContent,
  intent: ProposalIntent,
): string[] {
  if (!current) return [];
  if (intent === 'retire') return [current.text];
  const kept = candidate.text.toLowerCase().replace(/\s+/g, ' ');
  const removed = sentences(current.text).filter((s) => !kept.includes(s.replace(/[.!?]$/, '')));
  const shapeKeys = (c: NoteContent) =>
    c.shape && typeof c.shape === 'object' && !Array.isArray(c.shape) ? Object.keys(c.shape) : [];
  const candidateKeys = new Set(shapeKeys(candidate));
  removed.push(
    ...shapeKeys(current)
      .filter((k) => !candidateKeys.has(k))
      .map((k) => `shape.${k}`),
  );
  const cited = new Set(candidate.sources.map((s) => s.message_id));
  removed.push(
    ...current.sources.filter((s) => !cited.has(s.message_id)).map((s) => `source ${s.message_id}`),
  );
  return removed;
}

/**
 * Compares the current note with the candidate (§5). Every answer is computed from the two notes and
 * the context — never taken from the proposer — so the gate can rely on it.
 */
export function compareNotes(
  current: NoteVersion | null,
  candidate: NoteContent,
  context: CompareContext,
): Comparison {
  const now = current?.content ?? null;
  const currentAuthority = current ? standingAuthority(current) : null;
  const stakes = classifyStakes(candidate, now, context.intent, context.supersededTypes);
  const removed = removedInformation(now, candidate, context.intent);

  const oldSources = new Set(now?.sources.map((s) => s.message_id) ?? []);
  const newSources = candidate.sources
    .filter((s) => !oldSources.has(s.message_id))
    .map((s) => s.message_id);
  const lostSources = [...oldSources].filter(
    (id) => !candidate.sources.some((s) => s.message_id === id),
  );
  const roleChanged = currentAuthority !== null && currentAuthority.role !== context.proposer.role;

  const before = now ? rank(now.confidence_state) : rank('asserted');
  const raised = rank(candidate.confidence_state) > before && newSources.length === 0;

  // A hedged source becomes a directive only when the candidate claims it as asserted or stronger.
  const hedged =
    (context.hedges?.length ?? 0) > 0 && rank(candidate.confidence_state) >= rank('asserted');
  const wasSuggestion =
    context.fromSuggestion === true ||
    hedged ||
    (now !== null &&
      (SUGGESTIVE.includes(now.object_type) ||
        now.status === 'provisional' ||
        now.confidence_state === 'inferred'));
  const becomesDirective =
    DIRECTIVE.includes(candidate.object_type) ||
    (candidate.status === 'active' && MODAL_DIRECTIVE.test(candidate.text));
  // A resolution is the governed way to settle a dispute: it names the claim that stands and says why
  // (`disputes.ts`), and the gate holds an agent's for confirmation. Anything else that settles one
  // collapses it.
  const resolving = context.intent === 'resolve';
  const collapsed =
    now?.status === 'disputed' &&
    candidate.status !== 'disputed' &&
    context.intent !== 'dispute' &&
    !resolving;
  const stale = [...context.dependentArtifacts, ...context.dependentObjects];
  const irreversible =
    candidate.tags.includes('irreversible') || candidate.tags.includes('external');
  const within = withinAuthority(context.proposer.role, stakes);

  return {
    current: {
      version_hash: current?.version_hash ?? null,
      content: now,
      authority: currentAuthority,
    },
    candidate: {
      version_hash: null,
      content: candidate,
      authority: { principal: context.proposer.id, role: context.proposer.role },
    },
    stakes,
    checks: {
      information_removed: {
        result: removed.length > 0,
        detail:
          removed.length > 0
            ? `${removed.length} item(s) of the current note are not in the candidate`
            : 'nothing removed',
        items: removed,
      },
      source_or_authority_change: {
        // A creation has no current note whose source or authority could change.
        result: now !== null && (newSources.length > 0 || lostSources.length > 0 || roleChanged),
        detail: roleChanged
          ? `authority changes from ${currentAuthority?.role} to ${context.proposer.role}`
          : newSources.length + lostSources.length > 0
            ? `sources change (+${newSources.length} −${lostSources.length})`
            : 'same sources and authority',
        items: [...newSources.map((s) => `+${s}`), ...lostSources.map((s) => `-${s}`)],
      },
      certainty_raised_without_evidence: {
        result: raised,
        detail: `${now?.confidence_state ?? 'none'} → ${candidate.confidence_state}${raised ? ' with no new source' : ''}`,
      },
      suggestion_to_directive: {
        result: wasSuggestion && becomesDirective,
        detail: !(wasSuggestion && becomesDirective)
          ? 'no change of modality'
          : hedged
            ? `the source hedged; the candidate states it as a ${candidate.object_type}`
            : `a suggestion becomes a ${candidate.object_type}`,
        ...(hedged && becomesDirective ? { items: context.hedges } : {}),
      },
      dispute_collapsed: {
        result: collapsed,
        detail: collapsed
          ? 'a disputed state would become settled without a resolution'
          : resolving
            ? 'a resolution names the claim that stands; the others stay in history'
            : 'no dispute collapsed',
      },
      dependents_made_stale: {
        result: stale.length > 0,
        detail: `${context.dependentArtifacts.length} artifact(s) and ${context.dependentObjects.length} object(s) depend on the current version`,
        items: stale,
      },
      reversible: {
        result: !irreversible,
        detail: irreversible
          ? 'marked external or irreversible: restoring canon cannot undo its effect'
          : 'append-preserving: the current version stays restorable',
      },
      within_authority: {
        result: within,
        detail: `${context.proposer.role} may authorize up to ${AUTHORITY[context.proposer.role] ?? 'nothing'}; this is ${stakes}`,
      },
    },
  };
}
