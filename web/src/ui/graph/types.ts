import type { Tone } from '../badges.js';

/** A node of a dependency graph: what it is, where it leads, and its state in words. */
export interface GraphNode {
  readonly id: string;
  /** Its name, drawn whole. */
  readonly label: string;
  /** What kind of thing it is, in words: `note`, `artifact`, `fact`… */
  readonly kind: string;
  /** Its state in words (`needs revision`, `current`…), or null when it has none to tell. */
  readonly state: string | null;
  /** The state's colour; the words above say the same. */
  readonly tone: Tone;
  /** Where activating it goes (a workbench path); without one the node is drawn, not a link. */
  readonly href?: string;
  /** A class for the node's own look (a decision drawn apart from a fact), beside its tone. */
  readonly look?: string;
  /** The node the graph is about, drawn apart. */
  readonly focus?: boolean;
  /** More to say about it (a cause, a reason), read with its name. */
  readonly detail?: string;
}

/** `from` → `to`: what moves first, then what rests on it. */
export interface GraphEdge {
  readonly from: string;
  readonly to: string;
}

/** A node placed by the layout: its centre and size. */
export interface PlacedNode extends GraphNode {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface PlacedEdge extends GraphEdge {
  readonly points: readonly { readonly x: number; readonly y: number }[];
}

export interface GraphLayout {
  readonly width: number;
  readonly height: number;
  readonly nodes: readonly PlacedNode[];
  readonly edges: readonly PlacedEdge[];
}
