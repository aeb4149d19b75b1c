import { useMemo } from 'react';
import { DependencyGraph, type GraphEdge, type GraphNode } from '../../ui/graph/index.js';

/**
 * The CSO's reasoning graph (CRP-030 §3) in the shared dependency graph: facts, decisions and tool
 * results, an arrow from what a decision rests on to the decision, top to bottom. The CSO list
 * beside it says the same in words, so the graph draws no list of its own.
 */

export interface CsoFact {
  readonly fact_id: string;
  readonly statement: string;
  readonly provenance: string;
  readonly confidence: number;
  readonly window_origin: number;
}

export interface CsoDecision {
  readonly decision_id: string;
  readonly choice: string;
  readonly rationale: string;
  readonly depends_on: readonly string[];
  readonly window_origin: number;
  readonly needs_revision?: boolean;
  readonly escalated?: string;
  readonly revises?: string;
}

export interface CsoShape {
  readonly established_facts: readonly CsoFact[];
  readonly decisions: readonly CsoDecision[];
  readonly dependency_graph: readonly { dependent: string; depends_on: string }[];
}

/** At most this many nodes are drawn (decisions first, then what they rest on, then the rest). */
export const GRAPH_NODE_LIMIT = 150;
const LABEL_CHARS = 28;

const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

function decisionState(d: CsoDecision): string | null {
  if (d.escalated !== undefined) return 'escalated';
  if (d.needs_revision === true) return 'needs revision';
  return null;
}

/** The nodes drawn (at most {@link GRAPH_NODE_LIMIT}), the edges between them, and how many are left out. */
export function csoGraph(cso: CsoShape): { nodes: GraphNode[]; edges: GraphEdge[]; left: number } {
  const facts = new Map(cso.established_facts.map((f) => [f.fact_id, f]));
  const decisions = new Map(cso.decisions.map((d) => [d.decision_id, d]));
  const linked = new Set(cso.dependency_graph.flatMap((e) => [e.dependent, e.depends_on]));
  const order = [
    ...new Set([
      ...decisions.keys(),
      ...[...linked].filter((id) => !decisions.has(id)),
      ...[...facts.keys()].filter((id) => !linked.has(id)),
    ]),
  ];
  const ids = order.slice(0, GRAPH_NODE_LIMIT);
  const shown = new Set(ids);
  const nodes = ids.map((id): GraphNode => {
    const d = decisions.get(id);
    if (d !== undefined) {
      const state = decisionState(d);
      return {
        id,
        label: clip(d.choice, LABEL_CHARS),
        kind: 'decision',
        state,
        tone: state === null ? 'person' : 'bad',
        look: 'cso-decision',
        detail: `${id}: ${d.choice}, because ${d.rationale}`,
      };
    }
    const f = facts.get(id);
    if (f !== undefined) {
      return {
        id,
        label: clip(f.statement, LABEL_CHARS),
        kind: `fact, ${f.provenance}`,
        state: null,
        tone: 'neutral',
        detail: `${id}: ${f.statement}`,
      };
    }
    return { id, label: id, kind: 'tool result', state: null, tone: 'neutral', look: 'cso-tool' };
  });
  const edges = cso.dependency_graph
    .filter((e) => shown.has(e.dependent) && shown.has(e.depends_on))
    .map((e) => ({ from: e.depends_on, to: e.dependent }));
  return { nodes, edges, left: order.length - ids.length };
}

export function CsoGraph({ cso, label }: { cso: CsoShape; label: string }) {
  const { nodes, edges, left } = useMemo(() => csoGraph(cso), [cso]);
  if (nodes.length === 0) return <p className="muted">The state holds no fact or decision.</p>;
  const caption = `${label}: ${cso.established_facts.length} facts, ${cso.decisions.length} decisions, ${cso.dependency_graph.length} dependencies; the list below says the same in words.`;
  return (
    <>
      <DependencyGraph nodes={nodes} edges={edges} caption={caption} direction="TB" list={false} />
      {left > 0 ? (
        <p className="muted">
          {left} more nodes are not drawn (at most {GRAPH_NODE_LIMIT}); the list holds them all.
        </p>
      ) : null}
    </>
  );
}
