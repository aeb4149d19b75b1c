import { CanonryError, type ContentHash, compareCodeUnits } from '../core/index.js';
import { pieces, type Queryable, rowPlaceholders, type Write } from '../store/index.js';
import type { CanonReader } from './read.js';
import type { CanonObject, DependencyPin, NoteContent } from './types.js';

/** What can depend on a note: another note (its current version) or an artifact (its manifest). */
export type DependentKind = 'note' | 'artifact';

/** One edge of the dependency graph: a dependent made against an exact version of a note. */
export interface Edge {
  readonly from_kind: DependentKind;
  readonly from_id: string;
  readonly to_id: string;
  readonly to_version: ContentHash;
}

type Db = Pick<Queryable, 'all'>;

/**
 * Replaces a dependent's outgoing edges (none when `pins` is empty). A created note's first edges
 * need no delete: its commit writes them with `edgeWrites`.
 */
export async function setEdges(
  tx: Queryable,
  project: string,
  kind: DependentKind,
  id: string,
  pins: readonly DependencyPin[],
): Promise<void> {
  await tx.run('DELETE FROM canon_edges WHERE project = $1 AND from_kind = $2 AND from_id = $3', [
    project,
    kind,
    id,
  ]);
  for (const write of edgeWrites(project, kind, id, pins)) await tx.run(write.sql, write.params);
}

/** The inserts of a dependent's edges (none for no pins): one per piece of its pins. */
export function edgeWrites(
  project: string,
  kind: DependentKind,
  id: string,
  pins: readonly DependencyPin[],
): Write[] {
  return pieces(pins).map((piece) => ({
    sql: `INSERT INTO canon_edges (project, from_kind, from_id, to_id, to_version)
      VALUES ${rowPlaceholders(piece.length, 2, 3)} ON CONFLICT DO NOTHING`,
    params: [project, kind, id, ...piece.flatMap((pin) => [pin.object_id, pin.version_hash])],
  }));
}

/**
 * The edges into a note: what was made against one of its versions. One range of the
 * `canon_edges_to` index, which also gives the order (so no engine scans the key index instead).
 */
export async function edgesInto(db: Db, project: string, id: string): Promise<Edge[]> {
  return db.all<Edge>(
    'SELECT from_kind, from_id, to_id, to_version FROM canon_edges WHERE project = $1 AND to_id = $2 ORDER BY from_kind, from_id',
    [project, id],
  );
}

/** Notes whose edges one statement reads (a branch each). */
const EDGE_READ_PIECE = 100;

/**
 * Edges read a note at a time and grouped by `keyOf`: `branch(k)` reads one note's (the note as
 * `$k`), up to EDGE_READ_PIECE branches joined by `UNION ALL` in one statement, then `tail`. One
 * equality branch per note rather than an `IN (…)` list: with stale statistics PostgreSQL reads
 * an `IN` list on the key's third column as a filter over the project's every edge.
 */
async function edgesByNote(
  db: Db,
  project: string,
  ids: readonly string[],
  branch: (k: number) => string,
  tail: string,
  keyOf: (edge: Edge) => string,
): Promise<Map<string, Edge[]>> {
  const out = new Map<string, Edge[]>();
  for (const piece of pieces(ids, EDGE_READ_PIECE)) {
    const branches = piece.map((_, i) => branch(i + 2)).join(' UNION ALL ');
    for (const edge of await db.all<Edge>(`${branches}${tail}`, [project, ...piece])) {
      const key = keyOf(edge);
      const list = out.get(key);
      if (list) list.push(edge);
      else out.set(key, [edge]);
    }
  }
  return out;
}

const edgesIntoNote = (k: number) =>
  `SELECT from_kind, from_id, to_id, to_version FROM canon_edges WHERE project = $1 AND to_id = $${k}`;

/**
 * {@link edgesInto} for several notes, by note, each list in the order `edgesInto` gives it: one
 * statement for up to EDGE_READ_PIECE notes (a round trip each on PostgreSQL) instead of one a
 * note, each branch a range of the `canon_edges_to` index; the rows sorted once by note, then as
 * `edgesInto` sorts them.
 */
export function edgesIntoAll(
  db: Db,
  project: string,
  ids: readonly string[],
): Promise<Map<string, Edge[]>> {
  return edgesByNote(
    db,
    project,
    [...new Set(ids)],
    edgesIntoNote,
    ' ORDER BY to_id, from_kind, from_id',
    (edge) => edge.to_id,
  );
}

const edgesOfNote = (k: number) =>
  `SELECT from_kind, from_id, to_id, to_version FROM canon_edges WHERE project = $1 AND from_kind = 'note' AND from_id = $${k}`;

/**
 * The notes' outgoing edges, by note, each list in `to_id` order (code units, the same on every
 * engine): one statement for up to EDGE_READ_PIECE notes, each a round trip on PostgreSQL.
 */
async function noteEdgesFrom(
  db: Db,
  project: string,
  ids: readonly string[],
): Promise<Map<string, Edge[]>> {
  const out = await edgesByNote(db, project, ids, edgesOfNote, '', (edge) => edge.from_id);
  for (const list of out.values()) list.sort((a, b) => compareCodeUnits(a.to_id, b.to_id));
  return out;
}

/**
 * The shortest cycle a note would close by depending on `deps`: `[id, …, id]`, or null. Follows
 * the current notes' edges from each dependency, a level at a time (one read per level); only a
 * path back to `id` closes one.
 */
export async function cycleThrough(
  db: Db,
  project: string,
  id: string,
  deps: readonly string[],
): Promise<string[] | null> {
  if (deps.includes(id)) return [id, id];
  const parent = new Map<string, string>(deps.map((d) => [d, id]));
  let frontier = [...new Set(deps)];
  while (frontier.length > 0) {
    const next: string[] = [];
    const edges = await noteEdgesFrom(db, project, frontier);
    for (const node of frontier) {
      for (const edge of edges.get(node) ?? []) {
        if (edge.to_id === id) {
          const path = [id, node];
          for (let at = parent.get(node); at !== undefined && at !== id; at = parent.get(at))
            path.splice(1, 0, at);
          return [...path, id];
        }
        if (!parent.has(edge.to_id)) {
          parent.set(edge.to_id, node);
          next.push(edge.to_id);
        }
      }
    }
    frontier = next;
  }
  return null;
}

/** Refuses a candidate whose dependencies lead back to the note itself (DEPENDENCY_CYCLE, 422). */
export async function refuseCycle(
  db: Db,
  project: string,
  id: string,
  candidate: Pick<NoteContent, 'dependency_refs'>,
): Promise<void> {
  const cycle = await cycleThrough(db, project, id, candidate.dependency_refs);
  if (cycle) throw cycleError(id, cycle);
}

const cycleError = (id: string, cycle: readonly string[]) =>
  new CanonryError('DEPENDENCY_CYCLE', `${id} would depend on itself: ${cycle.join(' → ')}`, {
    cycle,
  });

/**
 * The candidate with every dependency pinned: a pin the proposer named must be a version of that
 * object (UNKNOWN_VERSION); an id alone is pinned to the object's current version now. `objects`:
 * the dependencies as the reader sees them (`CanonReader.objectsById`), read once by the caller.
 */
export async function pinDependencies(
  reader: CanonReader,
  candidate: NoteContent,
  objects: ReadonlyMap<string, CanonObject>,
): Promise<NoteContent> {
  const { dependency_versions: _, ...rest } = candidate;
  if (candidate.dependency_refs.length === 0) return rest;
  const named = new Map((candidate.dependency_versions ?? []).map((p) => [p.object_id, p]));
  const pins: DependencyPin[] = [];
  for (const id of candidate.dependency_refs) {
    const object = objects.get(id);
    if (!object) throw new CanonryError('UNKNOWN_OBJECT', `dependency ${id} does not exist`);
    const pin = named.get(id);
    if (pin) {
      const version = await reader.version(pin.version_hash);
      if (version?.note_id !== id)
        throw new CanonryError('UNKNOWN_VERSION', `${id} has no version ${pin.version_hash}`);
    }
    pins.push({
      object_id: id,
      version_hash: pin?.version_hash ?? (object.current_version_ref as ContentHash),
    });
  }
  return { ...rest, dependency_versions: pins };
}

/**
 * The pins of a committed version. A version committed before pins existed was made against each
 * dependency's version current at its commit, which is what the projection holds while replaying it.
 */
export async function pinsOf(
  db: Db,
  project: string,
  content: NoteContent,
): Promise<DependencyPin[]> {
  if (content.dependency_versions) return [...content.dependency_versions];
  const pins: DependencyPin[] = [];
  for (const id of content.dependency_refs) {
    const [row] = await db.all<{ current_version: ContentHash }>(
      'SELECT current_version FROM canon_objects WHERE project = $1 AND object_id = $2',
      [project, id],
    );
    if (row) pins.push({ object_id: id, version_hash: row.current_version });
  }
  return pins;
}
