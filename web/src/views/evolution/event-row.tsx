import { useState } from 'react';
import type { EventDetail, EventRow as Row } from '../../api/evolution.js';
import { Badge, Hash } from '../../ui/badges.js';
import { QueryState } from '../../ui/query-state.js';
import { UserText } from '../../ui/user-text.js';
import { Deliveries } from './deliveries.js';
import { GovernanceFacts } from './governance-facts.js';
import { useEvent } from './queries.js';
import type { EventVerdict } from './verification.js';

function when(ms: number | null): string {
  const d = new Date(ms ?? Number.NaN);
  return Number.isNaN(d.getTime()) ? 'unknown' : d.toISOString();
}

function VerdictBadge({ verdict }: { verdict: EventVerdict | null }) {
  if (!verdict) return null;
  if (verdict.state === 'verified')
    return <Badge tone="good">signature and governance verified</Badge>;
  if (verdict.state === 'failed') {
    return (
      <Badge tone="bad" title={verdict.message}>
        verification failed: {verdict.code}
      </Badge>
    );
  }
  return <Badge>not checked by the last verification</Badge>;
}

/** Who signed the event and where it came from. */
function Signer({ event }: { event: EventDetail }) {
  return (
    <section aria-label={`Signer and origin of event #${event.seq}`}>
      <h4>Signer and origin</h4>
      <dl className="facts">
        <dt>Signed by</dt>
        <dd>
          {event.signed ? 'Ed25519, certificate ' : 'unsigned, certificate '}
          <Hash value={event.signingIdentity} />
        </dd>
        <dt>Node</dt>
        <dd>{event.sourceNode ? <UserText text={event.sourceNode} /> : 'unknown'}</dd>
        <dt>Creator</dt>
        <dd>{event.creator ? <UserText text={event.creator} /> : 'unknown'}</dd>
        <dt>Made</dt>
        <dd>{when(event.createdAt)}</dd>
        <dt>Schema</dt>
        <dd>
          <code>{event.schemaVersion}</code>
        </dd>
        <dt>From</dt>
        <dd>
          <code>{event.origin.kind}</code> at journal #{event.origin.seq ?? '?'} of{' '}
          {event.origin.project}
        </dd>
        <dt>Sources</dt>
        <dd>
          <ul className="items">
            {event.sources.map((s) => (
              <li key={s.id}>
                <code>
                  <UserText text={s.id} />
                </code>{' '}
                ({s.kind})
              </li>
            ))}
          </ul>
        </dd>
        {event.scores.length > 0 ? (
          <>
            <dt>Scores</dt>
            <dd>{event.scores.map(([k, v]) => `${k.replace(/_/g, ' ')} ${v}`).join(', ')}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

function Detail({ id }: { id: string }) {
  const event = useEvent(id);
  return (
    <QueryState query={event}>
      {(e) => (
        <div className="evo-detail">
          <GovernanceFacts event={e} />
          <Signer event={e} />
          <Deliveries event={e} />
        </div>
      )}
    </QueryState>
  );
}

/**
 * One event: its place, type, class and time, its verification result when one ran, and on
 * request its effective governance, signer and deliveries.
 */
export function EventRow({ row, verdict }: { row: Row; verdict: EventVerdict | null }) {
  const [open, setOpen] = useState(false);
  return (
    <li
      className="entry evo-event"
      data-event-id={row.event_id}
      data-event-type={row.event_type}
      data-verdict={verdict?.state ?? ''}
    >
      <p className="badges">
        <strong>#{row.seq}</strong>
        <Badge tone="person">{row.event_type}</Badge>
        <code>{row.class}</code>
        <time dateTime={when(row.created_at)}>{when(row.created_at)}</time>
        {row.pending > 0 ? <Badge tone="warn">{row.pending} pending</Badge> : null}
        <VerdictBadge verdict={verdict} />
      </p>
      <details onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
        <summary>Governance, signer and deliveries of #{row.seq}</summary>
        {open ? <Detail id={row.event_id} /> : null}
      </details>
    </li>
  );
}
