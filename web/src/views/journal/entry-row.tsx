import { useState } from 'react';
import type { JournalLine } from '../../api/journal.js';
import { useReceipt } from '../../api/queries.js';
import { Badge, Hash } from '../../ui/badges.js';
import { QueryState } from '../../ui/query-state.js';
import { UserText } from '../../ui/user-text.js';

function show(value: unknown): string {
  if (value === null) return 'none';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(show).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function ReceiptOf({ seq }: { seq: number }) {
  const receipt = useReceipt(seq);
  return (
    <QueryState query={receipt}>
      {(r) => (
        <dl className="facts receipt">
          <dt>Receipt</dt>
          <dd>
            <Hash value={r.receipt_hash} /> <Badge>{r.acceptance_state}</Badge>
          </dd>
          <dt>Checks</dt>
          <dd>
            {r.checks.length === 0
              ? 'none'
              : r.checks.map((c) => `${c.name ?? '?'}: ${c.result ?? '?'}`).join('; ')}
          </dd>
          {r.warnings && r.warnings.length > 0 ? (
            <>
              <dt>Warnings</dt>
              <dd>
                <UserText text={r.warnings.join('; ')} />
              </dd>
            </>
          ) : null}
          {r.affected_dependents && r.affected_dependents.length > 0 ? (
            <>
              <dt>Affected</dt>
              <dd>
                {r.affected_dependents
                  .map((d) => (typeof d === 'string' ? d : `${d.kind} ${d.id}: ${d.state}`))
                  .join('; ')}
              </dd>
            </>
          ) : null}
          {r.rollback_route ? (
            <>
              <dt>Rollback</dt>
              <dd>{r.rollback_route}</dd>
            </>
          ) : null}
          <dt>Chain parent</dt>
          <dd>
            <Hash value={r.hash_chain_parent} />
          </dd>
        </dl>
      )}
    </QueryState>
  );
}

/** One entry: its place, kind, time and actor, its kind's summary, and its receipt on request. */
export function EntryRow({ entry }: { entry: JournalLine }) {
  const [open, setOpen] = useState(false);
  if ('redacted' in entry) {
    return (
      <li id={`entry-${entry.seq}`} className="entry" data-seq={entry.seq} data-redacted="true">
        <p className="badges">
          <strong>#{entry.seq}</strong>
          <Badge>redacted</Badge>
          <span className="muted">
            another principal's personal plane: its place in the chain only
          </span>
          <Hash value={entry.hash} />
        </p>
      </li>
    );
  }
  const fields = Object.entries(entry.summary ?? {});
  const who = entry.authority.principal ?? entry.actor;
  const role = entry.authority.role ?? entry.authority.system;
  return (
    <li id={`entry-${entry.seq}`} className="entry" data-seq={entry.seq} data-kind={entry.kind}>
      <p className="badges">
        <strong>#{entry.seq}</strong>
        <code>{entry.kind}</code>
        <time dateTime={entry.at}>{entry.at}</time>
        <span>
          <UserText text={who} />
          {role ? ` (${role})` : ''}
        </span>
        <Hash value={entry.hash} />
      </p>
      {fields.length > 0 ? (
        <dl className="facts summary">
          {fields.map(([k, v]) => (
            <div key={k} className="pair">
              <dt>{k.replace(/_/g, ' ')}</dt>
              <dd>
                <UserText text={show(v)} />
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
      <details onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
        <summary>Receipt of #{entry.seq}</summary>
        {open ? <ReceiptOf seq={entry.seq} /> : null}
      </details>
    </li>
  );
}
