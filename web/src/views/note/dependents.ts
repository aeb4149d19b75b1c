import type { NoteGraph } from '../../api/types.js';
import type { GraphEdge, GraphNode } from '../../ui/graph/index.js';
import { artifactTone } from '../../ui/states.js';

export const noteHref = (id: string) => `/notes/${encodeURIComponent(id)}`;

const words = (s: string) => s.replace(/_/g, ' ');

/** A node of the server's graph as the drawing takes it: label, state, tone and where it leads. */
function drawnNode(n: NoteGraph['nodes'][number]): GraphNode {
  if (n.kind === 'artifact') {
    const a = n.artifact;
    return {
      id: n.id,
      label: a.manifest.artifact_id,
      kind: 'artifact',
      state: words(a.state),
      tone: artifactTone(a.state),
      href: `/artifacts#artifact-${a.manifest.artifact_id}`,
      ...(a.reasons.length > 0 ? { detail: a.reasons.join('; ') } : {}),
    };
  }
  if (n.kind === 'unknown') {
    return {
      id: n.id,
      label: n.object_id,
      kind: 'note',
      state: 'unknown',
      tone: 'warn',
      href: noteHref(n.object_id),
    };
  }
  const stale = n.dependency_state;
  return {
    id: n.id,
    label: n.object_id,
    kind: n.object_type,
    state: stale ? words(stale.state) : n.status,
    tone: stale ? 'bad' : n.status === 'disputed' ? 'bad' : n.focus ? 'person' : 'neutral',
    href: noteHref(n.object_id),
    focus: n.focus,
    ...(stale ? { detail: stale.cause } : {}),
  };
}

export interface DependentsGraph {
  readonly nodes: GraphNode[];
  readonly edges: GraphEdge[];
  /** Dependents found but not drawn. */
  readonly omitted: number;
  /** The server cut the graph at its node limit. */
  readonly truncated: boolean;
  readonly limit: number;
}

/**
 * The graph around one note as the server answers it (`getObjectGraph`): what it rests on, every
 * note that rests on it however far down, and the artifacts built on any of them — each with the
 * state the last cascade left it in. Edges run from what moves to what rests on it.
 */
export function dependentsGraph(graph: NoteGraph): DependentsGraph {
  return {
    nodes: graph.nodes.map(drawnNode),
    edges: graph.edges.map((e) => ({ from: e.from, to: e.to })),
    omitted: graph.omitted,
    truncated: graph.truncated,
    limit: graph.limit,
  };
}
