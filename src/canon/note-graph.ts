import { CanonryError } from '../core/index.js';
import { artifactStatusesOf } from './artifact-ops.js';
import type { ArtifactStatus } from './artifacts.js';
import type { DependencyState } from './cascade.js';
import type { CanonReader } from './read.js';
import type { CanonObject, ObjectStatus } from './types.js';

/** A note in the graph, with the state the last cascade left it in. */
export interface GraphNote {
  readonly kind: 'note';
  /** `note:<object_id>`. */
  readonly id: string;
  readonly object_id: string;
  readonly object_type: string;
  readonly status: ObjectStatus;
  readonly title: string;
  readonly dependency_state: DependencyState | null;
  readonly focus: boolean;
}

/** A dependency the focus names that this viewer cannot read, or that does not exist. */
export interface GraphUnknown {
  readonly kind: 'unknown';
  readonly id: string;
  readonly object_id: string;
}

/** An artifact built on a note of the graph, with its §10 state. */
export interface GraphArtifact {
  readonly kind: 'artifact';
  /** `artifact:<artifact_id>`. */
  readonly id: string;
  readonly artifact: ArtifactStatus;
}

export type GraphNode = GraphNote | GraphUnknown | GraphArtifact;

/**
 * The dependency graph around one note, as a viewer may read it (LCSM §10, §14): what the note
 * rests on (one step up), every live note resting on it however far down (breadth first, each
 * once), and the artifacts built on any note drawn. Edges run from what moves to what rests on it.
 */
export interface NoteGraph {
  readonly project: string;
  readonly object_id: string;
  readonly limit: number;
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly { readonly from: string; readonly to: string }[];
  /**
   * Dependents found but not drawn, past `limit` nodes: a floor, since each note's dependents are
   * read only to `limit + 1`.
   */
  readonly omitted: number;
  /** The graph is cut: dependents were left out, or a note has more than were read. */
  readonly truncated: boolean;
}

/** The most nodes a graph may be asked for. */
export const NOTE_GRAPH_MAX = 1_000;

const noteKey = (id: string) => `note:${id}`;
const artifactKey = (id: string) => `artifact:${id}`;

function graphNote(o: CanonObject, state: DependencyState | null, focus: boolean): GraphNote {
  return {
    kind: 'note',
    id: noteKey(o.object_id),
    object_id: o.object_id,
    object_type: o.object_type,
    status: o.status,
    title: o.title,
    dependency_state: state,
    focus,
  };
}

/**
 * The {@link NoteGraph} around `objectId` with at most `limit` nodes. Its work is bounded by
 * `limit`, not by the project: each note drawn reads at most `limit + 1` dependents of a kind from
 * the edge index (one range), so a note with more dependents than that marks the graph truncated.
 */
export async function noteGraph(
  reader: CanonReader,
  objectId: string,
  limit: number,
): Promise<NoteGraph> {
  const focus = await reader.object(objectId);
  if (!focus) throw new CanonryError('UNKNOWN_OBJECT', `no object ${objectId}`);
  const notes = new Map<string, CanonObject>([[objectId, focus]]);
  const nodes = new Map<string, GraphNode | null>([[noteKey(objectId), null]]);
  const edges: { from: string; to: string }[] = [];
  let omitted = 0;
  let truncated = false;
  const cap = limit + 1;

  const up = await reader.objectsById(focus.dependency_refs);
  for (const id of focus.dependency_refs) {
    if (nodes.size >= limit) {
      omitted++;
      continue;
    }
    const dep = up.get(id);
    if (dep) {
      notes.set(id, dep);
      nodes.set(noteKey(id), null);
    } else nodes.set(noteKey(id), { kind: 'unknown', id: noteKey(id), object_id: id });
    edges.push({ from: noteKey(id), to: noteKey(objectId) });
  }

  const down = [objectId];
  const seen = new Set([objectId]);
  for (let next = down.shift(); next !== undefined; next = down.shift()) {
    const ids = await reader.dependentIds(next, 'note', cap);
    if (ids.length === cap) truncated = true;
    const found = await reader.objectsById(ids);
    for (const id of ids) {
      const o = found.get(id);
      if (!o) continue;
      if (!seen.has(id)) {
        seen.add(id);
        if (nodes.size >= limit) {
          omitted++;
          continue;
        }
        notes.set(id, o);
        nodes.set(noteKey(id), null);
        down.push(id);
      }
      if (nodes.has(noteKey(id))) edges.push({ from: noteKey(next), to: noteKey(id) });
    }
  }

  const drawn = [...notes.keys()];
  const built = new Set<string>();
  for (const id of drawn) {
    const ids = await reader.dependentIds(id, 'artifact', cap);
    if (ids.length === cap) truncated = true;
    for (const a of ids) built.add(a);
  }
  const artifactIds = [...built];
  const manifests = await reader.artifactsById(artifactIds);
  const shown = [];
  for (const id of artifactIds) {
    const m = manifests.get(id);
    if (!m) continue;
    if (nodes.size >= limit) {
      omitted++;
      continue;
    }
    nodes.set(artifactKey(id), null);
    shown.push(m);
  }
  for (const status of await artifactStatusesOf(reader, shown)) {
    const key = artifactKey(status.manifest.artifact_id);
    nodes.set(key, { kind: 'artifact', id: key, artifact: status });
    for (const n of status.manifest.canonical_note_versions) {
      if (notes.has(n.object_id)) edges.push({ from: noteKey(n.object_id), to: key });
    }
  }

  const states = await reader.noteDependencyStates(drawn);
  for (const [id, o] of notes) {
    nodes.set(noteKey(id), graphNote(o, states.get(noteKey(id)) ?? null, id === objectId));
  }
  return {
    project: reader.project,
    object_id: objectId,
    limit,
    nodes: [...nodes.values()].filter((n): n is GraphNode => n !== null),
    edges,
    omitted,
    truncated: truncated || omitted > 0,
  };
}
