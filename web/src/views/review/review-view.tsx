import { Link } from 'wouter';
import { useProposal } from '../../api/queries.js';
import { Badge } from '../../ui/badges.js';
import { QueryState } from '../../ui/query-state.js';
import { Checks } from './checks.js';
import { Decision } from './decision.js';
import { Gate } from './gate.js';
import { NotePane } from './note-side.js';

/**
 * The two-note commit (LCSM §5): the current note and the candidate side by side, every check of
 * the comparison, what the change makes stale, the gate's verdict and its signed event, and the
 * decision the signed-in role may take.
 */
export function ReviewView({ params }: { params: { id: string } }) {
  const proposal = useProposal(params.id);
  return (
    <QueryState query={proposal}>
      {(view) => {
        const stale = view.checks.dependents_made_stale;
        return (
          <article className="review" data-proposal-id={view.proposal_id} data-status={view.status}>
            <p>
              <Link href="/review">← All proposals</Link>
            </p>
            <h1>
              {view.intent} <code>{view.object_id}</code>
            </h1>
            <p className="badges">
              <Badge tone={view.status === 'pending' ? 'warn' : 'neutral'}>{view.status}</Badge>
              <span>
                proposed by {view.proposer?.id} ({view.proposer?.role})
              </span>
              {view.classifier ? <span className="muted">classifier {view.classifier}</span> : null}
            </p>
            {view.rationale ? <p className="muted">{view.rationale}</p> : null}
            <div className="two-note">
              <NotePane side={view.current} heading="Current" />
              <NotePane side={view.candidate} heading="Candidate" />
            </div>
            <section aria-labelledby="stale-h">
              <h2 id="stale-h">What it makes stale</h2>
              {stale?.items && stale.items.length > 0 ? (
                <ul className="rows">
                  {stale.items.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              ) : (
                <p className="muted">
                  {stale?.detail ?? 'Nothing depends on the current version.'}
                </p>
              )}
            </section>
            <Checks checks={view.checks} />
            <Gate view={view} />
            <Decision view={view} />
          </article>
        );
      }}
    </QueryState>
  );
}
