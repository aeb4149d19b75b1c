import { Link } from 'wouter';
import { useBoard } from '../../api/queries.js';
import type { ArtifactStatus, BoardObject, ObjectType, ProposalRecord } from '../../api/types.js';
import { Badge } from '../../ui/badges.js';
import { Limited } from '../../ui/limited.js';
import { QueryState } from '../../ui/query-state.js';
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

function Pending({ proposals }: { proposals: readonly ProposalRecord[] }) {
  return (
    <section aria-labelledby="pending-h" className="pending">
      <h2 id="pending-h">Awaiting review ({proposals.length})</h2>
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
    </section>
  );
}

function Artifacts({ artifacts }: { artifacts: readonly ArtifactStatus[] }) {
  if (artifacts.length === 0) return null;
  return (
    <section aria-labelledby="artifacts-h">
      <h2 id="artifacts-h">Artifacts ({artifacts.length})</h2>
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
    </section>
  );
}

/**
 * The board (LCSM §9): current notes by type, each with its status, who made it current (a
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
          return (
            <>
              <Pending proposals={b.pending} />
              <section aria-labelledby="current-h">
                <h2 id="current-h">Current notes ({current.length})</h2>
                {current.length === 0 ? <p className="muted">Canon is empty.</p> : null}
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
              </section>
              <Artifacts artifacts={b.artifacts} />
              {history.length > 0 ? (
                <details className="history">
                  <summary>History: superseded and retired ({history.length})</summary>
                  <Limited items={history} limit={GROUP_LIMIT} noun="past notes">
                    {(shown) => (
                      <div className="notes">
                        {shown.map((n) => (
                          <NoteCard key={n.object_id} note={n} />
                        ))}
                      </div>
                    )}
                  </Limited>
                </details>
              ) : null}
            </>
          );
        }}
      </QueryState>
    </>
  );
}
