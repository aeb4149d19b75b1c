import { Link } from 'wouter';
import type { Delivery, EventDetail } from '../../api/evolution.js';
import { atLeast } from '../../session/roles.js';
import { useMe } from '../../session/session-context.js';
import { Badge, type Tone } from '../../ui/badges.js';
import { ErrorNote } from '../../ui/query-state.js';
import { UserText } from '../../ui/user-text.js';
import { useRetry } from './queries.js';

const TONE: Readonly<Record<Delivery['outcome'], Tone>> = {
  delivered: 'good',
  refused: 'warn',
  dead_letter: 'bad',
};

const WORD: Readonly<Record<Delivery['outcome'], string>> = {
  delivered: 'delivered',
  refused: 'refused',
  dead_letter: 'dead letter',
};

/** The canon proposal a memory delivery made, when its record names one. */
function proposalOf(d: Delivery): string | null {
  const id = (d.record as { proposal_id?: unknown } | null)?.proposal_id;
  return typeof id === 'string' && id !== '' ? id : null;
}

/**
 * Where the event went: each target it was routed to, delivered, refused (with the reason the
 * target or the path gave) or dead-lettered after its attempts ran out — which an editor may retry;
 * a routed target with no delivery yet is pending.
 */
export function Deliveries({ event }: { event: EventDetail }) {
  const me = useMe();
  const retry = useRetry(event.eventId);
  const mayRetry = atLeast(me.role, 'editor');
  const delivered = new Set(event.deliveries.map((d) => d.target));
  const pending = event.targets.filter((t) => !delivered.has(t));
  return (
    <section aria-label={`Deliveries of event #${event.seq}`}>
      <h4>Deliveries</h4>
      {event.deliveries.length === 0 && pending.length === 0 ? (
        <p className="muted">Routed to no target.</p>
      ) : (
        <div className="table-wrap">
          <table className="checks deliveries">
            <thead>
              <tr>
                <th scope="col">Target</th>
                <th scope="col">Outcome</th>
                <th scope="col">Attempts</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {event.deliveries.map((d) => (
                <tr key={d.target} data-target={d.target} data-outcome={d.outcome}>
                  <th scope="row">
                    <code>{d.target}</code>
                  </th>
                  <td>
                    <Badge tone={TONE[d.outcome]}>{WORD[d.outcome] ?? d.outcome}</Badge>
                  </td>
                  <td>{d.attempts}</td>
                  <td>
                    {d.code ? <code>{d.code}</code> : null}
                    {d.reason ? (
                      <>
                        {' '}
                        <UserText text={d.reason} />
                      </>
                    ) : null}
                    {proposalOf(d) ? (
                      <>
                        proposed to canon as{' '}
                        <Link href={`/review/${encodeURIComponent(proposalOf(d)!)}`}>
                          {proposalOf(d)}
                        </Link>
                      </>
                    ) : null}
                    {d.outcome === 'dead_letter' && mayRetry ? (
                      <button
                        type="button"
                        className="retry"
                        disabled={retry.isPending}
                        onClick={() => retry.mutate(d.target)}
                      >
                        {retry.isPending && retry.variables === d.target
                          ? 'Retrying…'
                          : `Retry delivery to ${d.target}`}
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
              {pending.map((t) => (
                <tr key={t} data-target={t} data-outcome="pending">
                  <th scope="row">
                    <code>{t}</code>
                  </th>
                  <td>
                    <Badge>pending</Badge>
                  </td>
                  <td>0</td>
                  <td className="muted">not dispatched yet</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div role="status" aria-live="polite">
        {retry.data ? (
          <p>
            Retried {retry.data.target}: {WORD[retry.data.outcome] ?? retry.data.outcome} after{' '}
            {retry.data.attempts} attempt{retry.data.attempts === 1 ? '' : 's'}.
          </p>
        ) : null}
      </div>
      {retry.error ? <ErrorNote error={retry.error} /> : null}
    </section>
  );
}
