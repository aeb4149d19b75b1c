import { type MouseEvent, useId, useMemo } from 'react';
import { Link, useLocation } from 'wouter';
import { ScrollRegion } from '../scroll-region.js';
import { type GraphDirection, layOut } from './layout.js';
import type { GraphEdge, GraphNode, PlacedEdge, PlacedNode } from './types.js';

/**
 * The accessible name of a node: first the words drawn on it (its label, then its state or kind),
 * then what it is, why, what it rests on and what rests on it.
 */
function nameOf(node: GraphNode, edges: readonly GraphEdge[], label: (id: string) => string) {
  const from = edges.filter((e) => e.to === node.id).map((e) => label(e.from));
  const to = edges.filter((e) => e.from === node.id).map((e) => label(e.to));
  return [
    `${node.label} ${node.state ?? node.kind}`,
    node.state ? node.kind : null,
    node.detail ?? null,
    from.length > 0 ? `rests on ${from.join(', ')}` : null,
    to.length > 0 ? `${to.join(', ')} rest${to.length === 1 ? 's' : ''} on it` : null,
  ]
    .filter((s) => s !== null)
    .join('; ');
}

function path(points: PlacedEdge['points']): string {
  return points
    .map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`)
    .join(' ');
}

function NodeShape({ node }: { node: PlacedNode }) {
  const left = node.x - node.width / 2;
  const top = node.y - node.height / 2;
  return (
    <>
      <rect x={left} y={top} width={node.width} height={node.height} rx={6} />
      {/* One text, so its words read with a space between, as the accessible name starts. */}
      <text textAnchor="middle">
        <tspan x={node.x} y={node.y - 5} className="graph-label">
          {node.label}
        </tspan>{' '}
        <tspan x={node.x} y={node.y + 13} className="graph-state">
          {node.state ?? node.kind}
        </tspan>
      </text>
    </>
  );
}

function Node({ node, name }: { node: PlacedNode; name: string }) {
  const [, navigate] = useLocation();
  const className = `graph-node tone-${node.tone}${node.focus ? ' graph-focus' : ''}${node.look ? ` ${node.look}` : ''}`;
  const { href } = node;
  if (href === undefined) {
    // Not a link: its title names it (a hover shows it; the list or the view's own list reads it).
    return (
      <g className={className} data-node-id={node.id} data-state={node.state ?? ''}>
        <title>{name}</title>
        <NodeShape node={node} />
      </g>
    );
  }
  const go = (event: MouseEvent) => {
    // A plain click stays in the app; a modified one opens the link as the browser would.
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a
      href={href}
      onClick={go}
      aria-label={name}
      className={className}
      data-node-id={node.id}
      data-state={node.state ?? ''}
    >
      <NodeShape node={node} />
    </a>
  );
}

/**
 * A directed dependency graph, laid out by dagre and drawn as SVG: every node a link with a text
 * label and an accessible name that says its state and its edges (Tab moves through the linked ones,
 * Enter opens one), in a region that scrolls by keyboard, and the same graph as a list for a screen
 * reader or a narrow screen (`list={false}` when the view lists the same items itself). Used by the
 * Note view (a note's dependents and their cascade states) and the Relay view (a CSO's reasoning
 * graph, top to bottom).
 */
export function DependencyGraph({
  nodes,
  edges,
  caption,
  direction = 'LR',
  list = true,
}: {
  nodes: readonly GraphNode[];
  edges: readonly GraphEdge[];
  caption: string;
  direction?: GraphDirection;
  list?: boolean;
}) {
  const id = useId();
  const arrow = `${id}-arrow`.replace(/:/g, '');
  const placed = useMemo(() => layOut(nodes, edges, direction), [nodes, edges, direction]);
  const labels = new Map(nodes.map((n) => [n.id, `${n.kind} ${n.label}`]));
  const label = (nodeId: string) => labels.get(nodeId) ?? nodeId;
  return (
    <figure className="graph" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`}>{caption}</figcaption>
      <ScrollRegion className="graph-scroll" label={`${caption} (scrollable)`}>
        <svg
          width={placed.width}
          height={placed.height}
          viewBox={`0 0 ${placed.width} ${placed.height}`}
        >
          <title>{caption}</title>
          <defs>
            <marker
              id={arrow}
              viewBox="0 0 10 10"
              refX="9"
              refY="5"
              markerWidth="7"
              markerHeight="7"
              orient="auto-start-reverse"
            >
              <path d="M0,0 L10,5 L0,10 z" className="graph-arrow" />
            </marker>
          </defs>
          <g className="graph-edges">
            {placed.edges.map((e) => (
              <path
                key={`${e.from}->${e.to}`}
                d={path(e.points)}
                className="graph-edge"
                markerEnd={`url(#${arrow})`}
              />
            ))}
          </g>
          {placed.nodes.map((n) => (
            <Node key={n.id} node={n} name={nameOf(n, edges, label)} />
          ))}
        </svg>
      </ScrollRegion>
      {list ? (
        <details className="graph-list">
          <summary>The same graph as a list</summary>
          <ul>
            {nodes.map((n) => (
              <li key={n.id} data-node-id={n.id}>
                {n.href === undefined ? (
                  `${n.kind} ${n.label}`
                ) : (
                  <Link href={n.href}>
                    {n.kind} {n.label}
                  </Link>
                )}
                {n.state ? ` — ${n.state}` : ''}
                {n.detail ? ` (${n.detail})` : ''}
                {edges.some((e) => e.to === n.id)
                  ? `; rests on ${edges
                      .filter((e) => e.to === n.id)
                      .map((e) => label(e.from))
                      .join(', ')}`
                  : ''}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </figure>
  );
}
