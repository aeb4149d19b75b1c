import { Link } from 'wouter';
import { useProposalPages } from '../../api/queries.js';
import type { ProposalRecord } from '../../api/types.js';
import { Badge } from '../../ui/badges.js';
import { ErrorNote, MorePages } from '../../ui/query-state.js';

/** Proposals per page: the next page is read on request, never the project's whole history. */
const PAGE = 50;

function Row({ p }: { p: ProposalRecord }) {
  return (
    <li data-proposal-id={p.proposal_id} data-status={p.status}>
      <Link href={`/review/${p.proposal_id}`}>
        {p.intent} <code>{p.object_id}</code>
      </Link>{' '}
      by {p.proposer.id} ({p.proposer.role}) <Badge>{p.comparison.stakes}</Badge>{' '}
      <Badge tone={p.status === 'pending' ? 'warn' : p.status === 'committed' ? 'good' : 'neutral'}>
        {p.status}
      </Badge>
    </li>
  );
}

/** One paged list of proposals: the pages read so far, and a button for the next. */
function ProposalPages({
  status,
  heading,
  empty,
}: {
  status: 'pending' | 'decided';
  heading: string;
  empty: string;
}) {
  const pages = useProposalPages(status, PAGE);
  const rows = pages.data?.pages.flatMap((p) => p.proposals) ?? [];
  const id = `review-${status}-h`;
  return (
    <section aria-labelledby={id} data-proposals={status}>
      <h2 id={id}>
        {heading} ({rows.length}
        {pages.hasNextPage ? '+' : ''})
      </h2>
      {pages.data === undefined && pages.error ? <ErrorNote error={pages.error} /> : null}
      {pages.data === undefined && !pages.error ? (
        <p className="muted" aria-busy="true">
          Loading…
        </p>
      ) : null}
      {pages.data !== undefined && rows.length === 0 ? <p className="muted">{empty}</p> : null}
      <ul className="rows">
        {rows.map((p) => (
          <Row key={p.proposal_id} p={p} />
        ))}
      </ul>
      <MorePages pages={pages} page={PAGE} />
    </section>
  );
}

/**
 * Proposals a page at a time: the pending ones to review first, oldest first, then what was decided,
 * newest first.
 */
export function ReviewList() {
  return (
    <>
      <h1>Review</h1>
      <ProposalPages status="pending" heading="Pending" empty="Nothing to review." />
      <ProposalPages status="decided" heading="Decided" empty="Nothing decided yet." />
    </>
  );
}
