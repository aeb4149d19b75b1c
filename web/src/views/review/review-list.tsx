import { Link } from 'wouter';
import { useProposals } from '../../api/queries.js';
import type { ProposalRecord } from '../../api/types.js';
import { Badge } from '../../ui/badges.js';
import { Limited } from '../../ui/limited.js';
import { QueryState } from '../../ui/query-state.js';

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

/** Every proposal: the pending ones to review first, then what was decided, newest first. */
export function ReviewList() {
  const proposals = useProposals();
  return (
    <>
      <h1>Review</h1>
      <QueryState query={proposals}>
        {({ proposals: all }) => {
          const pending = all.filter((p) => p.status === 'pending');
          const decided = all.filter((p) => p.status !== 'pending').reverse();
          return (
            <>
              <section aria-labelledby="review-pending-h">
                <h2 id="review-pending-h">Pending ({pending.length})</h2>
                {pending.length === 0 ? <p className="muted">Nothing to review.</p> : null}
                <ul className="rows">
                  {pending.map((p) => (
                    <Row key={p.proposal_id} p={p} />
                  ))}
                </ul>
              </section>
              <section aria-labelledby="review-decided-h">
                <h2 id="review-decided-h">Decided ({decided.length})</h2>
                <Limited items={decided} limit={50} noun="decided proposals">
                  {(shown) => (
                    <ul className="rows">
                      {shown.map((p) => (
                        <Row key={p.proposal_id} p={p} />
                      ))}
                    </ul>
                  )}
                </Limited>
              </section>
            </>
          );
        }}
      </QueryState>
    </>
  );
}
