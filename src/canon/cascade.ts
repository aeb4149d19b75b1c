import { canonicalize } from '../core/index.js';
import { pieces, type Queryable, rowPlaceholders } from '../store/index.js';
import {
  type ArtifactManifest,
  type ArtifactState,
  type ArtifactStatus,
  artifactState,
  type CanonLookup,
  sameStatement,
} from './artifacts.js';
import { type DependentKind, edgesIntoAll, pinsOf } from './graph.js';
import { type Audience, objectAudience, readableWithin } from './planes.js';
import type { CanonReader } from './read.js';
import { recordsIn } from './records-in.js';
import { type CanonObject, type DependencyPin, isLive, type NoteVersion } from './types.js';

/** The state a cascade leaves on a note that rests on something that moved. */
export type NoteState = 'needs_revision';

/** Where a dependent stands after a cascade reached it. */
export interface DependencyState {
  readonly id: string;
  readonly kind: DependentKind;
  /** Edges between it and the object that moved: 1 for a direct dependent. */
  readonly depth: number;
  readonly state: NoteState | ArtifactState;
  /** Why, in words: `storage.engine moved v1 → v2 (through decision.a)`. */
  readonly cause: string;
  /** The object that moved, then each dependent down to this one. */
  readonly path: readonly string[];
}

/** A commit as the cascade sees it: the objects it changes, as they will be, and its new version. */
export interface CommitView {
  /** The committed object and the objects it supersedes, as they stand after the commit. */
  readonly after: readonly CanonObject[];
  /** Each of `after` as it stood before the commit (null: the committed object was created). */
  readonly before: readonly (CanonObject | null)[];
  readonly version: Omit<NoteVersion, 'receipt_ref'>;
  /** The committed version's pins (what it was made against). */
  readonly pins: readonly DependencyPin[];
  /**
   * The committed object had no row before this commit (its first version). Nothing can rest on it
   * yet — a pin names a version that exists — and it has no edges or dependency state of its own.
   */
  readonly created: boolean;
}

type Db = Pick<Queryable, 'all'>;

/** Canon's rows as they will be after the commit: reads go to the store, the moved objects overlay it. */
class Overlay {
  readonly #objects = new Map<string, CanonObject | null>();
  readonly #versions = new Map<string, NoteVersion | null>();

  constructor(
    private readonly db: Db,
    private readonly project: string,
    view: CommitView,
  ) {
    for (const o of view.after) this.#objects.set(o.object_id, o);
    this.#versions.set(view.version.version_hash, { ...view.version, receipt_ref: '' });
  }

  /**
   * Reads the objects of `ids` not read yet in one statement per STATEMENT_PIECE ids: the
   * statement `CanonReader.objectsById` sends, so a batch's planning answers it from its cache.
   */
  async load(ids: readonly string[]): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.#objects.has(id));
    for (const piece of pieces(missing)) {
      const rows = await this.db.all<{ record: string }>(
        recordsIn('canon_objects', 'object_id', piece.length),
        [this.project, ...piece],
      );
      for (const row of rows) {
        const object = JSON.parse(row.record) as CanonObject;
        this.#objects.set(object.object_id, object);
      }
      for (const id of piece) if (!this.#objects.has(id)) this.#objects.set(id, null);
    }
  }

  async object(id: string): Promise<CanonObject | null> {
    if (!this.#objects.has(id)) {
      const [row] = await this.db.all<{ record: string }>(
        'SELECT record FROM canon_objects WHERE project = $1 AND object_id = $2',
        [this.project, id],
      );
      this.#objects.set(id, row ? (JSON.parse(row.record) as CanonObject) : null);
    }
    return this.#objects.get(id)!;
  }

  async version(hash: string): Promise<NoteVersion | null> {
    if (!this.#versions.has(hash)) {
      const [row] = await this.db.all<{ record: string }>(
        'SELECT record FROM canon_versions WHERE project = $1 AND version_hash = $2',
        [this.project, hash],
      );
      this.#versions.set(hash, row ? (JSON.parse(row.record) as NoteVersion) : null);
    }
    return this.#versions.get(hash)!;
  }

  async artifact(id: string): Promise<ArtifactManifest | null> {
    const [row] = await this.db.all<{ record: string }>(
      'SELECT record FROM canon_artifacts WHERE project = $1 AND artifact_id = $2',
      [this.project, id],
    );
    return row ? (JSON.parse(row.record) as ArtifactManifest) : null;
  }

  /** A synchronous lookup over what a manifest names, for {@link artifactState}. */
  async lookupFor(manifest: ArtifactManifest): Promise<CanonLookup> {
    const objects = new Map<string, CanonObject>();
    const versions = new Map<string, NoteVersion>();
    for (const dep of manifest.canonical_note_versions) {
      const now = await this.object(dep.object_id);
      if (now) {
        objects.set(now.object_id, now);
        const current = await this.version(now.current_version_ref);
        if (current) versions.set(current.version_hash, current);
      }
      const then = await this.version(dep.version_hash);
      if (then) versions.set(then.version_hash, then);
    }
    return { object: (id) => objects.get(id), version: (hash) => versions.get(hash) };
  }
}

const gone = (o: CanonObject) => !isLive(o);

/**
 * Why a note made against `pinned` of `now` must be revised, or null when it need not: `now` was
 * retired, superseded or disputed, or its statement (text, type, shape, status) is not the pinned
 * one. A move that keeps the statement (title, sources, confidence, tags) asks nothing of a note.
 */
async function revisionCause(
  canon: Overlay,
  now: CanonObject,
  pinnedHash: string,
): Promise<string | null> {
  if (gone(now))
    return `${now.object_id} ${now.status}${now.superseded_by ? ` by ${now.superseded_by}` : ''}`;
  if (now.status === 'disputed') return `${now.object_id} disputed`;
  if (pinnedHash === now.current_version_ref) return null;
  const pinned = await canon.version(pinnedHash);
  const current = await canon.version(now.current_version_ref);
  if (pinned && current && sameStatement(pinned, current)) return null;
  return `${now.object_id} moved ${pinned ? `v${pinned.version_id}` : 'from an unknown version'} → v${now.version_id}`;
}

const through = (path: readonly string[]) =>
  path.length > 2 ? ` (through ${path.slice(1, -1).join(' → ')})` : '';

/**
 * Every dependent a commit reaches, each once at its shortest depth, with the state it is in after
 * the commit (LCSM §10, CRP-030 §3). Reads canon as it is before the commit, with the commit's
 * objects overlaid; the cost is the edges of what is reached, never a scan of the project.
 *
 * A direct dependent note needs revision when {@link revisionCause} says so; a direct artifact gets
 * {@link artifactState} against canon after the commit. A note that needs revision carries it on:
 * notes resting on it need revision, artifacts built on it are possibly stale. A dependent the
 * move does not reach (statement unchanged) is left as it was, and can still be reached deeper.
 * Last, the committed note itself: made against a version that is not current (an explicit older
 * pin), or against something retired or superseded, it needs revision at once; made against the
 * current version of a disputed object, it does not (a revision after the dispute clears the flag).
 */
export async function cascade(
  db: Db,
  project: string,
  view: CommitView,
): Promise<DependencyState[]> {
  const canon = new Overlay(db, project, view);
  const moved = new Set(view.after.map((o) => o.object_id));
  const reached = new Map<string, DependencyState>();
  const key = (kind: DependentKind, id: string) => `${kind}:${id}`;
  let frontier: DependencyState[] = [];
  // Every note the commit moved but the one it created (nothing can rest on that yet), in id order.
  const sources = [...view.after]
    .filter((now) => !(view.created && now.object_id === view.version.note_id))
    .sort((a, b) => (a.object_id < b.object_id ? -1 : 1));
  // The edges into every source, then into every note of a level, each read at once.
  const into = await edgesIntoAll(
    db,
    project,
    sources.map((now) => now.object_id),
  );
  for (const now of sources) {
    for (const edge of into.get(now.object_id) ?? []) {
      const k = key(edge.from_kind, edge.from_id);
      if (moved.has(edge.from_id) || reached.has(k)) continue;
      const path = [now.object_id, edge.from_id];
      if (edge.from_kind === 'note') {
        const cause = await revisionCause(canon, now, edge.to_version);
        if (cause === null) continue;
        const state: DependencyState = {
          id: edge.from_id,
          kind: 'note',
          depth: 1,
          state: 'needs_revision',
          cause,
          path,
        };
        reached.set(k, state);
        frontier.push(state);
      } else {
        const manifest = await canon.artifact(edge.from_id);
        if (!manifest) continue;
        const status = artifactState(manifest, await canon.lookupFor(manifest));
        if (status.state === 'current' || status.state === 'unaffected') continue;
        reached.set(k, {
          id: edge.from_id,
          kind: 'artifact',
          depth: 1,
          state: status.state,
          cause: status.reasons.join('; '),
          path,
        });
      }
    }
  }
  while (frontier.length > 0) {
    const next: DependencyState[] = [];
    const level = await edgesIntoAll(
      db,
      project,
      frontier.map((parent) => parent.id),
    );
    for (const parent of frontier) {
      for (const edge of level.get(parent.id) ?? []) {
        const k = key(edge.from_kind, edge.from_id);
        if (moved.has(edge.from_id) || reached.has(k)) continue;
        const path = [...parent.path, edge.from_id];
        // The cause of the depth-1 note the path went through: what moved, and how.
        const root = reached.get(key('note', parent.path[1]!))!.cause;
        const state: DependencyState = {
          id: edge.from_id,
          kind: edge.from_kind,
          depth: parent.depth + 1,
          state: edge.from_kind === 'note' ? 'needs_revision' : 'possibly_stale',
          cause: `${root}${through(path)}`,
          path,
        };
        reached.set(k, state);
        if (edge.from_kind === 'note') next.push(state);
      }
    }
    frontier = next;
  }
  const own = await ownState(canon, view);
  return [...reached.values(), ...(own ? [own] : [])].sort(
    (a, b) =>
      a.depth - b.depth || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.id < b.id ? -1 : 1),
  );
}

async function ownState(canon: Overlay, view: CommitView): Promise<DependencyState | null> {
  const id = view.version.note_id;
  const self = view.after.find((o) => o.object_id === id);
  if (!self || gone(self)) return null;
  // What it rests on, read at once (a decision pins several notes).
  if (view.pins.length > 1) await canon.load(view.pins.map((p) => p.object_id));
  for (const pin of view.pins) {
    const now = await canon.object(pin.object_id);
    if (!now) continue;
    // Made against the current version of a disputed object, it was made knowing the dispute (the
    // working set lists the dispute beside it): a revision against the new base clears the flag.
    if (now.status === 'disputed' && pin.version_hash === now.current_version_ref) continue;
    const cause = await revisionCause(canon, now, pin.version_hash);
    if (cause !== null) {
      const path = [pin.object_id, id];
      return {
        id,
        kind: 'note',
        depth: 1,
        state: 'needs_revision',
        // Pinned to the current version, it rests on something retired, superseded or disputed.
        cause:
          pin.version_hash === now.current_version_ref
            ? cause
            : `made against an older ${pin.object_id}: ${cause}`,
        path,
      };
    }
  }
  return null;
}

/** Writes what a cascade found: one row per dependent, replacing the state it had. */
export async function recordStates(
  tx: Queryable,
  project: string,
  seq: number,
  states: readonly DependencyState[],
): Promise<void> {
  // One row per dependent (the last state given wins, as one statement apiece would leave it): a
  // multi-row upsert may not touch a row twice.
  const last = new Map<string, DependencyState>();
  for (const s of states) last.set(`${s.kind}\u0000${s.id}`, s);
  for (const piece of pieces([...last.values()])) {
    await tx.run(
      `INSERT INTO canon_dependency_states (project, kind, dependent_id, state, seq, record)
       VALUES ${rowPlaceholders(piece.length, 6)}
       ON CONFLICT (project, kind, dependent_id)
       DO UPDATE SET state = excluded.state, seq = excluded.seq, record = excluded.record`,
      piece.flatMap((s) => [project, s.kind, s.id, s.state, seq, canonicalize(s)]),
    );
  }
}

/** Clears a dependent's state: a new version of it (or a new manifest) was made against current canon. */
export async function clearState(
  tx: Queryable,
  project: string,
  kind: DependentKind,
  id: string,
): Promise<void> {
  await tx.run(
    'DELETE FROM canon_dependency_states WHERE project = $1 AND kind = $2 AND dependent_id = $3',
    [project, kind, id],
  );
}

/** The recorded states of these dependents (or of every dependent of the project). */
export async function dependencyStates(
  db: Db,
  project: string,
): Promise<Map<string, DependencyState>> {
  const rows = await db.all<{ record: string }>(
    'SELECT record FROM canon_dependency_states WHERE project = $1 ORDER BY kind, dependent_id',
    [project],
  );
  const out = new Map<string, DependencyState>();
  for (const r of rows) {
    const s = JSON.parse(r.record) as DependencyState;
    out.set(`${s.kind}:${s.id}`, s);
  }
  return out;
}

/** The object a commit leaves: the version's content, under the pointer the commit moves. */
export function objectAfter(
  version: Omit<NoteVersion, 'receipt_ref'>,
  before: CanonObject | null,
  operation: string,
): CanonObject {
  const c = version.content;
  return {
    object_id: version.note_id,
    object_type: c.object_type,
    schema_version: 1,
    current_version_ref: version.version_hash,
    version_id: version.version_id,
    authority_basis: version.authority,
    confidence_state: c.confidence_state,
    visibility: c.visibility,
    source_refs: c.sources,
    dependency_refs: c.dependency_refs,
    created_at: before?.created_at ?? version.timestamp,
    effective_from: c.effective_from,
    effective_until: c.effective_until,
    status: operation === 'retire' ? 'retired' : c.status,
    title: c.title,
    text: c.text,
    superseded_by: null,
  };
}

/** A commit's view for {@link cascade}, read from canon as it stands before the commit. */
export async function commitView(
  db: Db,
  project: string,
  version: Omit<NoteVersion, 'receipt_ref'>,
  supersedes: readonly string[],
  operation: string,
): Promise<CommitView> {
  const read = async (id: string) => {
    const [row] = await db.all<{ record: string }>(
      'SELECT record FROM canon_objects WHERE project = $1 AND object_id = $2',
      [project, id],
    );
    return row ? (JSON.parse(row.record) as CanonObject) : null;
  };
  // A create names an object that does not exist: the proposal's checks refused one that did, and
  // the commit's own check refuses one made meanwhile (the same holds in a replay of the journal).
  const before = operation === 'create' ? null : await read(version.note_id);
  const after = [objectAfter(version, before, operation)];
  const befores = [before];
  for (const id of supersedes) {
    const old = await read(id);
    if (!old) continue;
    after.push({ ...old, status: 'superseded', superseded_by: version.note_id });
    befores.push(old);
  }
  return {
    after,
    before: befores,
    version,
    pins: await pinsOf(db, project, version.content),
    created: before === null,
  };
}

/**
 * What a receipt lists of a cascade: the dependents the proposal's readers may read (§14), as
 * `{ id, kind, depth, state, cause }`. The projection records all of them.
 */
export async function readableStates(
  reader: CanonReader,
  states: readonly DependencyState[],
  audience: Audience,
  view: CommitView,
): Promise<{ id: string; kind: DependentKind; depth: number; state: string; cause: string }[]> {
  const out: { id: string; kind: DependentKind; depth: number; state: string; cause: string }[] =
    [];
  const after = new Map<string, CanonObject>();
  for (const a of view.after) if (!after.has(a.object_id)) after.set(a.object_id, a);
  // The notes the commit did not write, and the artifacts, each read at once.
  const read = await reader.objectsById(
    states.filter((s) => s.kind === 'note' && !after.has(s.id)).map((s) => s.id),
  );
  const readableArtifacts = new Set(
    await reader.artifactsWithin(
      states.filter((s) => s.kind !== 'note').map((s) => s.id),
      audience,
    ),
  );
  for (const s of states) {
    let readable = false;
    if (s.kind === 'note') {
      const o = after.get(s.id) ?? read.get(s.id) ?? null;
      readable = o !== null && readableWithin(objectAudience(o), audience);
    } else readable = readableArtifacts.has(s.id);
    if (readable)
      out.push({ id: s.id, kind: s.kind, depth: s.depth, state: s.state, cause: s.cause });
  }
  return out;
}

/**
 * An artifact's §10 state as shown: against canon when its inputs moved, else — when a cascade
 * reached it through a note that needs revision — the state the cascade recorded, with its cause.
 */
export function withCascade(
  status: ArtifactStatus,
  recorded: ReadonlyMap<string, DependencyState>,
): ArtifactStatus {
  const s = recorded.get(`artifact:${status.manifest.artifact_id}`);
  if (status.state !== 'current' || !s) return status;
  return { manifest: status.manifest, state: s.state as ArtifactState, reasons: [s.cause] };
}
