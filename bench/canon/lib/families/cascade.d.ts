/** Types of cascade.js (plain JavaScript, shared by the bench and its tests). */
export interface Node {
  id: string;
  title: string;
  type: 'fact' | 'decision' | 'artifact';
  level: number;
  affected: boolean;
  parents: string[];
  version: number;
  value: string;
  base: Map<string, number>;
}
export interface Item {
  id: string;
  kind: 'note' | 'artifact';
  depth: number;
}
export interface CascadeTruth {
  max_depth: number;
  move: 'update' | 'restore' | 'supersede' | 'dispute';
  diamonds: number;
  root: string;
  move_event: string;
  revised: string | null;
  receipt: Item[];
  needs_revision: Item[];
  unaffected: { id: string; kind: 'note' | 'artifact' }[];
  items: { id: string; kind: 'note' | 'artifact'; title: string }[];
  edges: { from: string; to: string; version: number | undefined }[];
}
export const MOVES: readonly ['update', 'restore', 'supersede', 'dispute'];
export function slug(title: string): string;
export function needsRevision(nodes: Map<string, Node>): Map<string, number>;
export function dependentsOf(nodes: Map<string, Node>, root: string): Map<string, number>;
