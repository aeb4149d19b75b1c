import { type EdgeLabel, graphlib, layout } from '@dagrejs/dagre';
import type { GraphEdge, GraphLayout, GraphNode, PlacedEdge, PlacedNode } from './types.js';

const CHAR_PX = 7.4;
const NODE_HEIGHT = 46;
const MARGIN = 12;

/** Which way what rests on a node lies from it: to its right, or below it. */
export type GraphDirection = 'LR' | 'TB';

/**
 * Lays a directed graph out in layers (dagre's Sugiyama layout): what moves first on the left (or
 * at the top), what rests on it to its right (or below). Edges naming a node not in `nodes` are
 * left out.
 */
export function layOut(
  nodes: readonly GraphNode[],
  edges: readonly GraphEdge[],
  direction: GraphDirection = 'LR',
): GraphLayout {
  const g = new graphlib.Graph();
  g.setGraph({
    rankdir: direction,
    nodesep: 18,
    ranksep: direction === 'LR' ? 56 : 42,
    marginx: MARGIN,
    marginy: MARGIN,
  });
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
