import { type FormEvent, useState } from 'react';
import { useDecision } from '../../api/queries.js';
import type { ProposalView } from '../../api/types.js';
import { mayApprove, mayReject } from '../../session/roles.js';
import { useMe } from '../../session/session-context.js';
import { ErrorNote } from '../../ui/query-state.js';
import { UserText } from '../../ui/user-text.js';

/**
 * Accept or reject, as the signed-in role allows: the controls a role may not use are not on the
 * page at all (the server refuses them anyway). An approval after a re-comparison names the base
 * the person has now seen (`approval_requires_base`).
 */
export function Decision({ view }: { view: ProposalView }) {
  const me = useMe();
  const { approve, reject } = useDecision(view.proposal_id);
  const [reason, setReason] = useState('');
  if (view.status !== 'pending') {
    const by = view.decided_by ? `${view.decided_by.id} (${view.decided_by.role})` : 'the gate';
    return (
      <section aria-labelledby="decision-h">
        <h2 id="decision-h">Decision</h2>
        <p>
          {view.status === 'committed' ? 'Committed' : 'Rejected'} by {by}
          {view.reason ? (
            <>
              : <UserText text={view.reason} />
            </>
          ) : (
            '.'
          )}
        </p>
      </section>
    );
  }
  const canApprove = mayApprove(me, view.required_role);
  const canReject = mayReject(me, view.proposer);
  const withdraw = canReject && me.role !== 'owner' && me.role !== 'editor';
  const submitReject = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim()) reject.mutate(reason.trim());
  };
  return (
    <section aria-labelledby="decision-h" className="decision">
      <h2 id="decision-h">Decision</h2>
      {view.stale ? (
        <p className="warn-note">
          Canon moved since this comparison. Approving compares it again; then approve what it now
          overwrites.
        </p>
      ) : null}
      {!canApprove && !canReject ? (
        <p className="muted">
          Your role ({me.role}) cannot decide this proposal
          {view.required_role ? `; it needs ${view.required_role}` : ''}.
        </p>
      ) : null}
      {canApprove ? (
        <button
          type="button"
          className="primary"
          disabled={approve.isPending}
          onClick={() => approve.mutate(view.approval_requires_base ?? null)}
        >
          Accept
        </button>
      ) : null}
      {canReject ? (
        <form onSubmit={submitReject} className="reject">
          <label>
            {withdraw ? 'Why withdraw it' : 'Why reject it'}
            <input
              name="reason"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              maxLength={1000}
              required
            />
          </label>
          <button type="submit" disabled={reject.isPending || reason.trim() === ''}>
            {withdraw ? 'Withdraw' : 'Reject'}
          </button>
        </form>
      ) : null}
      {approve.error ? <ErrorNote error={approve.error} /> : null}
      {reject.error ? <ErrorNote error={reject.error} /> : null}
    </section>
  );
}
