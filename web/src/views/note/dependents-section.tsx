import { useMemo } from 'react';
import type { Api } from '../../api/client.js';
import type { Provenance } from '../../api/types.js';
import { DependencyGraph } from '../../ui/graph/index.js';
import { dependentsGraph, GRAPH_LIMIT } from './dependents.js';

/** What the note rests on and what rests on it, as a graph of cascade states (LCSM §10). */
export function DependentsSection({
  objectId,
  provenance,
  board,
}: {
  objectId: string;
  provenance: Provenance;
  board: Awaited<ReturnType<Api['board']>>;
}) {
  const graph = useMemo(() => {
    const o = board.objects;
    const all = [...o.active, ...o.provisional, ...o.disputed, ...o.superseded, ...o.retired];
    return dependentsGraph(objectId, provenance, all, board.artifacts);
  }, [objectId, provenance, board]);
  const stale = graph.nodes.filter((n) => n.tone === 'bad' && !n.focus).length;
  return (
    <section aria-labelledby="dependents-h">
      <h2 id="dependents-h">Dependencies and dependents</h2>
      {graph.nodes.length === 1 ? (
        <p className="muted">Nothing depends on this note, and it depends on nothing.</p>
      ) : (
        <>
          <p className="muted">
            Arrows run from what moves to what rests on it. {graph.nodes.length - 1} connected;{' '}
            {stale === 0 ? 'none stale.' : `${stale} stale or needing revision.`}
            {graph.omitted > 0
              ? ` ${graph.omitted} more past the first ${GRAPH_LIMIT} are not drawn.`
              : ''}
          </p>
          <DependencyGraph
            nodes={graph.nodes}
            edges={graph.edges}
            caption={`What ${objectId} rests on, and the notes and artifacts that rest on it`}
          />
        </>
      )}
    </section>
  );
}
