import { useMemo } from 'react';
import type { NoteGraph } from '../../api/types.js';
import { DependencyGraph } from '../../ui/graph/index.js';
import { dependentsGraph } from './dependents.js';

/** What the note rests on and what rests on it, as a graph of cascade states (LCSM §10). */
export function DependentsSection({ objectId, graph }: { objectId: string; graph: NoteGraph }) {
  const drawn = useMemo(() => dependentsGraph(graph), [graph]);
  const stale = drawn.nodes.filter((n) => n.tone === 'bad' && !n.focus).length;
  // The server reads a bounded number of each note's dependents, so what it found past the cut is
  // a floor, not a count.
  const cut = drawn.truncated
    ? ` Cut at the first ${drawn.limit}: ${drawn.omitted > 0 ? `at least ${drawn.omitted} more` : 'more'} not drawn.`
    : '';
  return (
    <section aria-labelledby="dependents-h">
      <h2 id="dependents-h">Dependencies and dependents</h2>
      {drawn.nodes.length === 1 ? (
        <p className="muted">Nothing depends on this note, and it depends on nothing.</p>
      ) : (
        <>
          <p className="muted">
            Arrows run from what moves to what rests on it. {drawn.nodes.length - 1} connected;{' '}
            {stale === 0 ? 'none stale.' : `${stale} stale or needing revision.`}
            {cut}
          </p>
          <DependencyGraph
            nodes={drawn.nodes}
            edges={drawn.edges}
            caption={`What ${objectId} rests on, and the notes and artifacts that rest on it`}
          />
        </>
      )}
    </section>
  );
}
