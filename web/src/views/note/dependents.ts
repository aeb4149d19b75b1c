import type { ArtifactStatus, BoardObject, Provenance } from '../../api/types.js';
import type { GraphEdge, GraphNode } from '../../ui/graph/index.js';
import { artifactTone } from '../../ui/states.js';

/** The most nodes drawn: past it the graph stops growing and says how many were left out. */
export const GRAPH_LIMIT = 120;

export const noteHref = (id: string) => `/notes/${encodeURIComponent(id)}`;

const words = (s: string) => s.replace(/_/g, ' ');

function noteNode(o: BoardObject, focus: boolean): GraphNode {
  const stale = o.dependency_state;
  return {
    id: `note:${o.object_id}`,
    label: o.object_id,
    kind: o.object_type,
    state: stale ? words(stale.state) : o.status,
    tone: stale ? 'bad' : o.status === 'disputed' ? 'bad' : focus ? 'person' : 'neutral',
    href: noteHref(o.object_id),
    focus,
    ...(stale ? { detail: stale.cause } : {}),
  };
}

export interface DependentsGraph {
  readonly nodes: GraphNode[];
  readonly edges: GraphEdge[];
  /** Dependents past {@link GRAPH_LIMIT}, not drawn. */
  readonly omitted: number;
}

/**
 * The graph around one note: what it rests on (one step up), every note that rests on it, however
 * far down (breadth first, each once), and the artifacts built on any of them — each with the state
 * the last cascade left it in. Edges run from what moves to what rests on it.
 */
export function dependentsGraph(
  focusId: string,
  provenance: Provenance,
  objects: readonly BoardObject[],
  artifacts: readonly ArtifactStatus[],
): DependentsGraph {
  const byId = new Map(objects.map((o) => [o.object_id, o]));
  const live = objects.filter((o) => o.status !== 'superseded' && o.status !== 'retired');
  const nodes = new Map<string, GraphNode>();
  const edges: GraphEdge[] = [];
  const focus = byId.get(focusId);
  if (focus) nodes.set(`note:${focusId}`, noteNode(focus, true));
  else {
    nodes.set(`note:${focusId}`, {
      id: `note:${focusId}`,
      label: focusId,
      kind: provenance.object.object_type,
      state: provenance.object.status,
      tone: 'person',
      href: noteHref(focusId),
      focus: true,
    });
  }
  for (const dep of provenance.depends_on) {
    const o = byId.get(dep.object_id);
    nodes.set(
      `note:${dep.object_id}`,
      o
        ? noteNode(o, false)
        : {
            id: `note:${dep.object_id}`,
            label: dep.object_id,
            kind: 'note',
            state: dep.status,
            tone: 'warn',
            href: noteHref(dep.object_id),
          },
    );
    edges.push({ from: `note:${dep.object_id}`, to: `note:${focusId}` });
  }
  let omitted = 0;
  const queue = [focusId];
  const seen = new Set([focusId]);
  while (queue.length > 0) {
    const id = queue.shift()!;
    for (const o of live) {
      if (!(o.dependency_refs ?? []).includes(id)) continue;
      if (!seen.has(o.object_id)) {
        if (nodes.size >= GRAPH_LIMIT) {
          omitted++;
          seen.add(o.object_id);
          continue;
        }
        seen.add(o.object_id);
        queue.push(o.object_id);
        nodes.set(`note:${o.object_id}`, noteNode(o, false));
      }
      if (nodes.has(`note:${o.object_id}`))
        edges.push({ from: `note:${id}`, to: `note:${o.object_id}` });
    }
  }
  const notes = new Set([...seen].filter((id) => nodes.has(`note:${id}`)));
  for (const a of artifacts) {
    const inputs = a.manifest.canonical_note_versions.filter((n) => notes.has(n.object_id));
    if (inputs.length === 0) continue;
    if (nodes.size >= GRAPH_LIMIT) {
      omitted++;
      continue;
    }
    const id = `artifact:${a.manifest.artifact_id}`;
    nodes.set(id, {
      id,
      label: a.manifest.artifact_id,
      kind: 'artifact',
      state: words(a.state),
      tone: artifactTone(a.state),
      href: `/artifacts#artifact-${a.manifest.artifact_id}`,
      ...(a.reasons.length > 0 ? { detail: a.reasons.join('; ') } : {}),
    });
    // From every note drawn that it was built on (what the note rests on included).
    for (const n of a.manifest.canonical_note_versions)
      if (nodes.has(`note:${n.object_id}`)) edges.push({ from: `note:${n.object_id}`, to: id });
  }
  return { nodes: [...nodes.values()], edges, omitted };
}
