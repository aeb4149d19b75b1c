import dagre from '@dagrejs/dagre';
import { useMemo } from 'react';
import { ScrollRegion } from '../../ui/scroll-region.js';

/**
 * The CSO's reasoning graph (CRP-030 §3) laid out by dagre and drawn as SVG: facts, decisions and
 * tool results, an arrow from what a decision rests on to the decision. A small component of the
 * relay view's own; the list beside it says the same in words.
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

type NodeKind = 'fact' | 'decision' | 'tool';

interface LaidNode {
  readonly id: string;
  readonly kind: NodeKind;
  readonly text: string;
  readonly flagged: boolean;
  readonly x: number;
  readonly y: number;
}

/** At most this many nodes are drawn (decisions first, then what they rest on, then the rest). */
export const GRAPH_NODE_LIMIT = 150;
const NODE_W = 190;
const NODE_H = 46;
const CHARS = 26;

const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

function layout(cso: CsoShape) {
  const facts = new Map(cso.established_facts.map((f) => [f.fact_id, f]));
  const decisions = new Map(cso.decisions.map((d) => [d.decision_id, d]));
  const linked = new Set(cso.dependency_graph.flatMap((e) => [e.dependent, e.depends_on]));
  const order = [
    ...decisions.keys(),
    ...[...linked].filter((id) => !decisions.has(id)),
    ...[...facts.keys()].filter((id) => !linked.has(id)),
  ];
  const ids = [...new Set(order)].slice(0, GRAPH_NODE_LIMIT);
  const shown = new Set(ids);
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'TB', nodesep: 18, ranksep: 42, marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const id of ids) g.setNode(id, { width: NODE_W, height: NODE_H });
  const edges = cso.dependency_graph.filter(
    (e) => shown.has(e.dependent) && shown.has(e.depends_on),
  );
  for (const e of edges) g.setEdge(e.depends_on, e.dependent);
  dagre.layout(g);
  const nodes: LaidNode[] = ids.map((id) => {
    const at = g.node(id) as { x: number; y: number };
    const d = decisions.get(id);
    const f = facts.get(id);
    return {
      id,
      kind: d ? 'decision' : f ? 'fact' : 'tool',
      text: d ? d.choice : f ? f.statement : 'tool result',
      flagged: d?.needs_revision === true || d?.escalated !== undefined,
      x: at.x,
      y: at.y,
    };
  });
  const paths = g.edges().map((e) => ({
    key: `${e.v}>${e.w}`,
    points: (g.edge(e) as { points: { x: number; y: number }[] }).points,
  }));
  const size = g.graph() as { width?: number; height?: number };
  return {
    nodes,
    paths,
    width: Math.ceil(size.width ?? 0),
    height: Math.ceil(size.height ?? 0),
    left: order.length - ids.length,
    edges: edges.length,
  };
}

export function CsoGraph({ cso, label }: { cso: CsoShape; label: string }) {
  const laid = useMemo(() => layout(cso), [cso]);
  if (laid.nodes.length === 0) return <p className="muted">The state holds no fact or decision.</p>;
  const summary = `${label}: ${cso.established_facts.length} facts, ${cso.decisions.length} decisions, ${cso.dependency_graph.length} dependencies; the list below says the same in words.`;
  return (
    <>
      <ScrollRegion className="graph-scroll" label={`${label} (scrollable)`}>
        <svg
          className="cso-graph"
          role="img"
          aria-label={summary}
          width={laid.width}
          height={laid.height}
          viewBox={`0 0 ${laid.width} ${laid.height}`}
        >
          <defs>
            <marker
              id="cso-arrow"
              viewBox="0 0 10 10"
              refX="9"
              refY="5"
              markerWidth="7"
              markerHeight="7"
              orient="auto-start-reverse"
            >
              <path d="M0,0 L10,5 L0,10 z" className="cso-arrow" />
            </marker>
          </defs>
          {laid.paths.map((p) => (
            <polyline
              key={p.key}
              className="cso-edge"
              points={p.points.map((pt) => `${pt.x},${pt.y}`).join(' ')}
              markerEnd="url(#cso-arrow)"
            />
          ))}
          {laid.nodes.map((n) => (
            <g
              key={n.id}
              className={`cso-node cso-${n.kind}${n.flagged ? ' cso-flagged' : ''}`}
              data-node={n.id}
              transform={`translate(${n.x - NODE_W / 2},${n.y - NODE_H / 2})`}
            >
              <title>{`${n.kind} ${n.id}: ${n.text}`}</title>
              <rect width={NODE_W} height={NODE_H} rx={n.kind === 'decision' ? 2 : 10} />
              <text x={8} y={17} className="cso-id">
                {clip(`${n.flagged ? '⚠ ' : ''}${n.id}`, CHARS)}
              </text>
              <text x={8} y={35}>
                {clip(n.text, CHARS + 2)}
              </text>
            </g>
          ))}
        </svg>
      </ScrollRegion>
      {laid.left > 0 ? (
        <p className="muted">
          {laid.left} more nodes are not drawn (at most {GRAPH_NODE_LIMIT}); the list holds them
          all.
        </p>
      ) : null}
    </>
  );
}
