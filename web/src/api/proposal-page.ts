/**
 * A page of proposals as the workbench asks for it: pending ones oldest first (the next to review
 * on top), decided ones newest first; `cursor` is the journal seq the previous page ended at.
 */
export interface ProposalPageRequest {
  readonly status: 'pending' | 'decided';
  readonly order: 'oldest' | 'newest';
  readonly limit: number;
  readonly cursor: number | null;
}

/** The query of `listProposals` for a page: the cursor is `after` oldest first, `before` newest. */
export function proposalPageQuery(page: ProposalPageRequest) {
  const { status, order, limit, cursor } = page;
  if (cursor === null) return { status, order, limit };
  return order === 'oldest'
    ? { status, order, limit, after: cursor }
    : { status, order, limit, before: cursor };
}
