/** Types of `dag.js` for the TypeScript tests. */
export interface Edge {
  dependent: string;
  depends_on: string;
}
export type NodeKind = 'hub' | 'layer 0' | 'layer 1' | 'layer 2' | 'layer 3' | 'layer 4';
export function layeredDag(
  seed: number,
  edgeCount: number,
): { nodes: { id: string; kind: NodeKind }[]; edges: Edge[] };
export function dependentsBySweep(
  nodes: { id: string }[],
  dependencies: Map<string, string[]>,
  root: string,
): Set<string>;
export function dependenciesOf(edges: Edge[]): Map<string, string[]>;
