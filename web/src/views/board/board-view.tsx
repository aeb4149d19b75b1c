import { useState } from 'react';
import { Link } from 'wouter';
import { useBoard, useObjectPages } from '../../api/queries.js';
import type { ArtifactStatus, BoardObject, ObjectType, ProposalRecord } from '../../api/types.js';
import { Badge } from '../../ui/badges.js';
import { Limited } from '../../ui/limited.js';
import { MorePages, QueryState } from '../../ui/query-state.js';
import { UserText } from '../../ui/user-text.js';
import { NoteCard } from './note-card.js';

/** The order note types are shown in: what binds first, then what was chosen, then the rest. */
const TYPE_ORDER: readonly ObjectType[] = [
  'constraint',
  'decision',
  'policy',
  'permission',
  'preference',
  'fact',
  'plan',
  'instruction',
  'question',
  'uncertainty',
  'dispute',
  'dependency',
  'artifact_ref',
];

function byType(notes: readonly BoardObject[]): [ObjectType, BoardObject[]][] {
  const groups = new Map<ObjectType, BoardObject[]>();
  for (const n of notes) groups.set(n.object_type, [...(groups.get(n.object_type) ?? []), n]);
  return TYPE_ORDER.filter((t) => groups.has(t)).map((t) => [t, groups.get(t)!]);
}

/** Notes of one type rendered at first; the rest behind a button (see `Limited`). */
const GROUP_LIMIT = 48;

const label = (type: string) => type.replace('_', ' ').replace(/^./, (c) => c.toUpperCase());

/** A board group's total and whether it holds more than the board shows (`getBoard`'s counts). */
interface Count {
  readonly total: number;
  readonly more: boolean;
}

/** The notes of one status read on after the board's group ends, a page of this many at a time. */
const MORE_PAGE = 50;

/**
 * The rest of a status's notes past the board's first ones: nothing is read until asked for, then
 * `listObjects` a page at a time after the group's last id.
 */
function MoreNotes({
  status,
  after,
  count,
  shown,
}: {
  status: string;
  after: string;
  count: Count;
  shown: number;
}) {
  const [open, setOpen] = useState(false);
  const pages = useObjectPages(status, after, MORE_PAGE, open);
  if (!count.more) return null;
  if (!open)
    return (
      <button
        type="button"
        className="more"
        data-more-status={status}
        onClick={() => setOpen(true)}
      >
        Show {status} notes past the first {shown} ({count.total - shown} more)
      </button>
    );
  const objects = pages.data?.pages.flatMap((p) => p.objects) ?? [];
  return (
    <>
      <ul className="rows" data-more-notes={status}>
        {objects.map((o) => (
          <li key={o.object_id} data-object-id={o.object_id}>
            <Link href={`/notes/${encodeURIComponent(o.object_id)}`}>
              <code>{o.object_id}</code>
            </Link>{' '}
            <UserText text={o.title ?? ''} /> <Badge>{o.status}</Badge>
          </li>
        ))}
      </ul>
      <MorePages pages={pages} page={MORE_PAGE} />
    </>
  );
}

function Pending({ proposals, count }: { proposals: readonly ProposalRecord[]; count: Count }) {
  return (
    <section aria-labelledby="pending-h" className="pending">
      <h2 id="pending-h">
        Awaiting review (<span data-board-count="pending">{count.total}</span>)
      </h2>
      {proposals.length === 0 ? (
        <p className="muted">No proposal is waiting.</p>
      ) : (
        <ul className="rows">
          {proposals.map((p) => (
            <li key={p.proposal_id} data-proposal-id={p.proposal_id}>
              <Link href={`/review/${p.proposal_id}`}>
                {p.intent} <code>{p.object_id}</code>
              </Link>{' '}
              by {p.proposer.id}{' '}
              <Badge
                tone={
                  p.proposer.role === 'agent' || p.proposer.role === 'tool' ? 'model' : 'person'
                }
              >
                {p.proposer.role}
              </Badge>{' '}
              <Badge>{p.comparison.stakes}</Badge> <Badge tone="warn">{p.gate.label}</Badge>
              {p.candidate ? (
                <span className="muted">
                  {' '}
                  — <UserText text={p.candidate.text} />
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {count.more ? (
        <p>
          <Link href="/review" data-board-more="pending">
            {count.total - proposals.length} more awaiting review: see Review
          </Link>
        </p>
      ) : null}
    </section>
  );
}

function Artifacts({ artifacts, count }: { artifacts: readonly ArtifactStatus[]; count: Count }) {
  if (artifacts.length === 0) return null;
  return (
    <section aria-labelledby="artifacts-h">
      <h2 id="artifacts-h">
        Artifacts (<span data-board-count="artifacts">{count.total}</span>)
      </h2>
      <ul className="rows">
        {artifacts.map((a) => (
          <li
            key={a.manifest.artifact_id}
            data-artifact-id={a.manifest.artifact_id}
            data-state={a.state}
          >
            <code>{a.manifest.artifact_id}</code>{' '}
            <Badge tone={a.state === 'current' || a.state === 'unaffected' ? 'good' : 'bad'}>
              {a.state.replace(/_/g, ' ')}
            </Badge>{' '}
            <Badge>{a.manifest.acceptance_state}</Badge>
            {a.reasons.length > 0 ? <span className="muted"> — {a.reasons.join('; ')}</span> : null}
          </li>
        ))}
      </ul>
      {count.more ? (
        <p>
          <Link href="/artifacts" data-board-more="artifacts">
            All {count.total} artifacts, a page at a time
          </Link>
        </p>
      ) : null}
    </section>
  );
}

/**
 * The board (LCSM §9): the server's first notes of each status (`getBoard`, 50 a group) by type,
 * each group's total in its heading and the rest read on request (`MoreNotes`, the Review and
 * Artifacts views): current notes by type, each with its status, who made it current (a
 * person's decision or a model's proposal), its sources and confidence, and what is wrong with it
 * (disputed, expired, needs revision). Proposals waiting for review come first; superseded and
 * retired notes are history, folded away.
 */
export function BoardView() {
  const board = useBoard();
  return (
    <>
      <h1>Board</h1>
      <QueryState query={board}>
        {(b) => {
          const current = [...b.objects.active, ...b.objects.provisional, ...b.objects.disputed];
          const history = [...b.objects.superseded, ...b.objects.retired];
          const c = b.counts.objects;
          const more = (statuses: readonly (keyof typeof b.objects)[]) =>
            statuses.map((status) => (
              <MoreNotes
                key={status}
                status={status}
                after={b.objects[status].at(-1)?.object_id ?? ''}
                count={c[status]}
                shown={b.objects[status].length}
              />
            ));
          const currentTotal = c.active.total + c.provisional.total + c.disputed.total;
          const historyTotal = c.superseded.total + c.retired.total;
          return (
            <>
              <Pending proposals={b.pending} count={b.counts.pending} />
              <section aria-labelledby="current-h">
                <h2 id="current-h">
                  Current notes (<span data-board-count="current">{currentTotal}</span>)
                </h2>
                {currentTotal === 0 ? <p className="muted">Canon is empty.</p> : null}
                {byType(current).map(([type, notes]) => (
                  <section key={type} aria-labelledby={`type-${type}`} className="type-group">
                    <h3 id={`type-${type}`} className="type-h">
                      {label(type)} ({notes.length})
                    </h3>
                    <Limited
                      items={notes}
                      limit={GROUP_LIMIT}
                      noun={`${label(type).toLowerCase()} notes`}
                    >
                      {(shown) => (
                        <div className="notes">
                          {shown.map((n) => (
                            <NoteCard key={n.object_id} note={n} />
                          ))}
                        </div>
                      )}
                    </Limited>
                  </section>
                ))}
                {more(['active', 'provisional', 'disputed'])}
              </section>
              <Artifacts artifacts={b.artifacts} count={b.counts.artifacts} />
              {historyTotal > 0 ? (
                <details className="history">
                  <summary>
                    History: superseded and retired (
                    <span data-board-count="history">{historyTotal}</span>)
                  </summary>
                  <Limited items={history} limit={GROUP_LIMIT} noun="past notes">
                    {(shown) => (
                      <div className="notes">
                        {shown.map((n) => (
                          <NoteCard key={n.object_id} note={n} />
                        ))}
                      </div>
                    )}
                  </Limited>
                  {more(['superseded', 'retired'])}
                </details>
              ) : null}
            </>
          );
        }}
      </QueryState>
    </>
  );
}
