import { Link } from 'wouter';
import { useGraph, useProvenance } from '../../api/queries.js';
import { Badge } from '../../ui/badges.js';
import { QueryState } from '../../ui/query-state.js';
import { UserText } from '../../ui/user-text.js';
import { DependentsSection } from './dependents-section.js';
import { ProvenanceWalk } from './provenance-walk.js';
import { Versions } from './versions.js';

/**
 * One note (LCSM §3, §8, §10): what it says now and whether it still stands, the provenance walk,
 * every version with restore (which appends), and the graph of what rests on it.
 */
export function NoteView({ params }: { params: { id: string } }) {
  const id = params.id;
  const provenance = useProvenance(id);
  const graph = useGraph(id);
  return (
    <QueryState query={provenance}>
      {(p) => {
        const o = p.object;
        const stale = p.dependency_state;
        return (
          <article className="note-page" data-object-id={o.object_id} data-status={o.status}>
            <p>
              <Link href="/">← Board</Link>
            </p>
            <h1>
              <UserText text={o.title || o.object_id} />{' '}
              <code className="muted">{o.object_id}</code>
            </h1>
            <p className="note-text lead">{o.text}</p>
            <p className="badges">
              <Badge tone={o.status === 'disputed' ? 'bad' : 'good'}>{o.status}</Badge>
              <Badge>{o.object_type}</Badge>
              <Badge>v{o.version_id}</Badge>
              {p.effective !== 'in_effect' ? (
                <Badge tone="warn">{p.effective.replace(/_/g, ' ')}</Badge>
              ) : null}
              {stale ? <Badge tone="bad">{stale.state.replace(/_/g, ' ')}</Badge> : null}
            </p>
            {stale ? (
              <p className="why" data-testid="needs-revision">
                Needs revision: {stale.cause}
              </p>
            ) : null}
            <ProvenanceWalk p={p} />
            <Versions
              objectId={o.object_id}
              history={p.history}
              total={p.versions}
              current={o.current_version_ref}
            />
            <QueryState query={graph}>
              {(g) => <DependentsSection objectId={o.object_id} graph={g} />}
            </QueryState>
          </article>
        );
      }}
    </QueryState>
  );
}
