export { DependencyGraph } from './dependency-graph.js';
export type { GraphEdge, GraphNode } from './types.js';
