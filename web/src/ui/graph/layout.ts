import { type EdgeLabel, graphlib, layout } from '@dagrejs/dagre';
import type { GraphEdge, GraphLayout, GraphNode, PlacedEdge, PlacedNode } from './types.js';

const CHAR_PX = 7.4;
const NODE_HEIGHT = 46;
const MARGIN = 12;

/**
 * Lays a directed graph out in layers, left to right (dagre's Sugiyama layout): what moves first on
 * the left, what rests on it to its right. Edges naming a node not in `nodes` are left out.
 */
export function layOut(nodes: readonly GraphNode[], edges: readonly GraphEdge[]): GraphLayout {
  const g = new graphlib.Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 18, ranksep: 56, marginx: MARGIN, marginy: MARGIN });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) {
    // The whole label is drawn (its accessible name starts with the same words).
    const chars = Math.max(n.label.length, (n.state ?? n.kind).length);
    g.setNode(n.id, { width: Math.max(96, Math.ceil(chars * CHAR_PX) + 24), height: NODE_HEIGHT });
  }
  const known = new Set(nodes.map((n) => n.id));
  const kept = edges.filter((e) => known.has(e.from) && known.has(e.to) && e.from !== e.to);
  for (const e of kept) g.setEdge(e.from, e.to);
  layout(g);
  const placed: PlacedNode[] = nodes.map((n) => {
    const p = g.node(n.id);
    return { ...n, x: p.x, y: p.y, width: p.width, height: p.height };
  });
  const lines: PlacedEdge[] = kept.map((e) => ({
    ...e,
    points: ((g.edge(e.from, e.to) as EdgeLabel | undefined)?.points ?? []).map(({ x, y }) => ({
      x,
      y,
    })),
  }));
  const graph = g.graph();
  return {
    width: Math.ceil(graph.width ?? 0),
    height: Math.ceil(graph.height ?? 0),
    nodes: placed,
    edges: lines,
  };
}
