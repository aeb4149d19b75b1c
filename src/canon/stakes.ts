import type { NoteContent, ObjectType, ProposalIntent, Role, Stakes } from './types.js';

/**
 * Tags that make a mutation high-impact (§6 S3). `oversight` flags a note for human oversight (a
 * decision revised too often, say): only the owner changes it.
 */
export const S3_TAGS = [
  'identity',
  'publication',
  'external',
  'legal',
  'medical',
  'financial',
  'irreversible',
  'oversight',
];
/** Tags that make a mutation consequential (§6 S2). */
export const S2_TAGS = ['budget', 'permission', 'accepted-artifact', 'deployment'];
/** Object types whose changes are consequential by nature. */
export const CONSEQUENTIAL_TYPES: readonly ObjectType[] = [
  'decision',
  'policy',
  'permission',
  'constraint',
  'plan',
  'instruction',
];

/** The highest stakes each role may authorize itself; higher stakes need someone above it. */
export const AUTHORITY: Readonly<Record<Role, Stakes | null>> = {
  owner: 'S3',
  editor: 'S2',
  agent: 'S1',
  tool: 'S1',
  viewer: null,
};

/** Stakes as an ordinal, for comparisons. */
export function stakesRank(stakes: Stakes): number {
  return Number(stakes.slice(1));
}

/** True when `role` may authorize a mutation of these stakes. */
export function withinAuthority(role: Role, stakes: Stakes): boolean {
  const ceiling = AUTHORITY[role];
  return ceiling !== null && stakesRank(stakes) <= stakesRank(ceiling);
}

/**
 * Classifies a mutation's stakes (§6), deterministically from what it changes: S3 for identity,
 * publication, external, legal, medical, financial or irreversible state; S2 for consequential types
 * and budget/permission state, and for promoting a note: personal to any shared plane, or working or
 * procedural to the project (§14: no automatic promotion of private state); S0 for a title-only edit;
 * S1 otherwise.
 */
export function classifyStakes(
  candidate: NoteContent,
  current: NoteContent | null,
  intent: ProposalIntent,
  supersededTypes: readonly ObjectType[] = [],
): Stakes {
  const tags = new Set([...candidate.tags, ...(current?.tags ?? [])]);
  if (S3_TAGS.some((t) => tags.has(t))) return 'S3';
  const types = [candidate.object_type, current?.object_type, ...supersededTypes];
  if (S2_TAGS.some((t) => tags.has(t)) || types.some((t) => t && CONSEQUENTIAL_TYPES.includes(t)))
    return 'S2';
  // Leaving the personal plane for a shared one, or joining the project plane (§14).
  const promoted =
    current !== null &&
    current.visibility !== candidate.visibility &&
    (current.visibility === 'personal' || candidate.visibility === 'project');
  if (promoted) return 'S2';
  if (current && intent === 'update' && presentationOnly(current, candidate)) return 'S0';
  return 'S1';
}

function presentationOnly(current: NoteContent, candidate: NoteContent): boolean {
  const strip = (c: NoteContent) => JSON.stringify({ ...c, title: '' });
  return strip(current) === strip(candidate);
}
