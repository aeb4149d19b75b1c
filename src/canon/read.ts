import { type ContentHash, compareCodeUnits } from '../core/index.js';
import { pieces, type Queryable } from '../store/index.js';
import type { ArtifactManifest, CanonLookup } from './artifacts.js';
import { type DependencyState, dependencyStates } from './cascade.js';
import type { ArchivedMessage } from './classification.js';
import { type CanonCounts, countsOf, countsSql } from './counts.js';
import { type DependentKind, edgesInto, edgesIntoAll } from './graph.js';
import type { ClassificationFailure } from './intake-failure.js';
import {
  type ArtifactPageQuery,
  artifactPageSql,
  messagePageSql,
  type ObjectPageQuery,
  objectPageSql,
  type PageQuery,
  type ProposalPageQuery,
  proposalPageSql,
  type UnclassifiedPageQuery,
  unclassifiedPageSql,
  versionPageSql,
} from './page.js';
import {
  type Audience,
  artifactAudience,
  mayRead,
  messageAudience,
  objectAudience,
  proposalAudience,
  readableWithin,
  versionAudience,
} from './planes.js';
import type { ClassifierRecord, ProposalRecord, ProposalStatus } from './records.js';
import { type RecordKey, type RecordTable, recordsIn } from './records-in.js';
import {
  type CanonObject,
  type Claim,
  isLive,
  type NoteVersion,
  type ObjectStatus,
} from './types.js';

function parse<T>(rows: { record: string }[]): T[] {
  return rows.map((r) => JSON.parse(r.record) as T);
}

/** A message as read: one archived before messages had a visibility is `project`. */
function withVisibility(m: ArchivedMessage): ArchivedMessage {
  return m.visibility === undefined ? { ...m, visibility: 'project' } : m;
}

/**
 * Reads canon's projection for one project. Every query binds the project: a reader cannot see
 * another project's rows. Works on the store or inside a transaction.
 *
 * A reader has a viewer: a principal id, who reads only what its planes allow (§14: a personal note,
 * version, proposal, message or artifact is its holder's alone; see `planes.ts`), or null for the
 * operator's view of everything, which canon's own checks use. What a viewer may not read is absent,
 * exactly as if it did not exist: lists leave it out and lookups answer null.
 */
export class CanonReader {
  constructor(
    private readonly db: Pick<Queryable, 'all'>,
    readonly project: string,
    readonly viewer: string | null = null,
  ) {}

  async #records<T>(sql: string, params: readonly (string | number)[] = []): Promise<T[]> {
    return parse<T>(await this.db.all<{ record: string }>(sql, [this.project, ...params]));
  }

  #may(audience: Audience): boolean {
    return mayRead(this.viewer, audience);
  }

  /**
   * Objects, optionally only those with one of the given statuses, in id order. Each holder this
   * viewer may read (the project's and its own) and each status is a range of an index
   * (`canon_objects_holder`, or `canon_objects_status` for the operator), so neither another
   * principal's personal objects nor those of other statuses are visited.
   */
  async objects(statuses?: readonly ObjectStatus[]): Promise<CanonObject[]> {
    const params: string[] = [];
    const bind = (value: string) => {
      params.push(value);
      return `$${params.length + 1}`;
    };
    const holders =
      this.viewer === null ? [undefined] : ['holder IS NULL', `holder = ${bind(this.viewer)}`];
    const ranges = holders.flatMap((holder) =>
      (statuses ? [...new Set(statuses)] : [undefined]).map((status) => {
        const where = ['project = $1', holder, status && `status = ${bind(status)}`];
        return `SELECT object_id, record FROM canon_objects WHERE ${where.filter(Boolean).join(' AND ')}`;
      }),
    );
    if (ranges.length === 0) return [];
    const all = await this.#records<CanonObject>(
      `SELECT record FROM (${ranges.join(' UNION ALL ')}) AS o ORDER BY object_id`,
      params,
    );
    return all.filter(
      (o) => (!statuses || statuses.includes(o.status)) && this.#may(objectAudience(o)),
    );
  }

  /**
   * Every object with one of `statuses`, each with the seq of the entry that last changed it, in
   * any order and whatever its plane (for the process's index of the current canon, which cuts to
   * the viewer itself): ranges of `canon_objects_status`.
   */
  async objectsAt(
    statuses: readonly ObjectStatus[],
  ): Promise<{ seq: number; object: CanonObject }[]> {
    return this.#objectsWithSeq(
      `SELECT seq, record FROM canon_objects WHERE project = $1 AND status IN (${statuses.map((_, i) => `$${i + 2}`).join(', ')})`,
      statuses,
    );
  }

  /**
   * The objects changed by an entry after `seq`, whatever their status and plane, in seq order: a
   * range of `canon_objects_seq`. An object's row carries the seq of the entry that last wrote it,
   * and a project's entries commit in seq order, so what this misses has not committed yet.
   */
  async objectsChangedAfter(seq: number): Promise<{ seq: number; object: CanonObject }[]> {
    return this.#objectsWithSeq(
      'SELECT seq, record FROM canon_objects WHERE project = $1 AND seq > $2 ORDER BY seq',
      [seq],
    );
  }

  async #objectsWithSeq(
    sql: string,
    params: readonly (string | number)[],
  ): Promise<{ seq: number; object: CanonObject }[]> {
    const rows = await this.db.all<{ seq: number | string; record: string }>(sql, [
      this.project,
      ...params,
    ]);
    return rows.map((r) => ({ seq: Number(r.seq), object: JSON.parse(r.record) as CanonObject }));
  }

  /**
   * One page of the objects this viewer may read in id order ({@link ObjectPageQuery}), chosen in
   * SQL by holder and status ({@link objectPageSql}): a page shorter than `limit` is the last, and
   * its work does not grow with the project's other objects.
   */
  async objectPage(q: ObjectPageQuery): Promise<CanonObject[]> {
    const { sql, params } = objectPageSql(q, this.viewer);
    const rows = await this.#records<CanonObject>(sql, params);
    return rows.filter((o) => this.#may(objectAudience(o)));
  }

  async object(id: string): Promise<CanonObject | null> {
    const [o] = await this.#records<CanonObject>(
      'SELECT record FROM canon_objects WHERE project = $1 AND object_id = $2',
      [id],
    );
    return o && this.#may(objectAudience(o)) ? o : null;
  }

  /**
   * Every version of an object this viewer may read, oldest first: as many as it has had. The faces
   * read a page at a time ({@link versionPage}).
   */
  async versions(id: string): Promise<NoteVersion[]> {
    const all = await this.#records<NoteVersion>(
      'SELECT record FROM canon_versions WHERE project = $1 AND object_id = $2 ORDER BY version_id',
      [id],
    );
    return all.filter((v) => this.#may(versionAudience(v)));
  }

  /**
   * One page of an object's versions this viewer may read, in version order (`after` and `before`
   * are version numbers): each holder it may read is a range of `canon_versions_holder`, so
   * another principal's personal versions are never visited.
   */
  async versionPage(id: string, q: PageQuery): Promise<NoteVersion[]> {
    const { sql, params } = versionPageSql(id, q, this.viewer);
    return this.#records<NoteVersion>(sql, params);
  }

  /** How many versions of an object this viewer may read, counted in the index. */
  async versionCount(id: string): Promise<number> {
    const mine = this.viewer === null ? '' : ' AND (holder IS NULL OR holder = $3)';
    const [row] = await this.db.all<{ n: number | string }>(
      `SELECT count(*) AS n FROM canon_versions WHERE project = $1 AND object_id = $2${mine}`,
      this.viewer === null ? [this.project, id] : [this.project, id, this.viewer],
    );
    return Number(row?.n ?? 0);
  }

  /** An object's version `versionId` (its number), if this viewer may read it. */
  async versionNumbered(id: string, versionId: number): Promise<NoteVersion | null> {
    const [v] = await this.#records<NoteVersion>(
      'SELECT record FROM canon_versions WHERE project = $1 AND object_id = $2 AND version_id = $3',
      [id, versionId],
    );
    return v && this.#may(versionAudience(v)) ? v : null;
  }

  /** An object's version named by its number or its hash, if it is one of its and this viewer's. */
  async versionNamed(id: string, version: ContentHash | number): Promise<NoteVersion | null> {
    const found =
      typeof version === 'number'
        ? await this.versionNumbered(id, version)
        : await this.version(version);
    return found?.note_id === id ? found : null;
  }

  /** The objects `id` superseded that this viewer may read, in id order (byte order). */
  async supersededBy(id: string): Promise<CanonObject[]> {
    const rows = await this.#records<CanonObject>(
      'SELECT record FROM canon_objects WHERE project = $1 AND superseded_by = $2',
      [id],
    );
    return rows
      .filter((o) => this.#may(objectAudience(o)))
      .sort((a, b) => compareCodeUnits(a.object_id, b.object_id));
  }

  async version(hash: ContentHash): Promise<NoteVersion | null> {
    const [v] = await this.#records<NoteVersion>(
      'SELECT record FROM canon_versions WHERE project = $1 AND version_hash = $2',
      [hash],
    );
    return v && this.#may(versionAudience(v)) ? v : null;
  }

  /**
   * Many records of one table by key (a statement per piece of keys): what this viewer may read of
   * them, by key.
   */
  async #many<T>(
    table: RecordTable,
    column: RecordKey,
    keys: readonly string[],
    keyOf: (record: T) => string,
    audience: (record: T) => Audience,
  ): Promise<Map<string, T>> {
    const out = new Map<string, T>();
    for (const r of await this.#all<T>(table, column, keys))
      if (this.#may(audience(r))) out.set(keyOf(r), r);
    return out;
  }

  /** Every record of these keys, whoever may read it (a statement per piece of keys). */
  async #all<T>(table: RecordTable, column: RecordKey, keys: readonly string[]): Promise<T[]> {
    const out: T[] = [];
    for (const piece of pieces([...new Set(keys)]))
      for (const r of await this.#records<T>(recordsIn(table, column, piece.length), piece))
        out.push(r);
    return out;
  }

  /** The objects of these ids this viewer may read, by id (absent ids are left out). */
  objectsById(ids: readonly string[]): Promise<Map<string, CanonObject>> {
    return this.#many<CanonObject>(
      'canon_objects',
      'object_id',
      ids,
      (o) => o.object_id,
      objectAudience,
    );
  }

  /** The versions of these hashes this viewer may read, by hash. */
  versionsByHash(hashes: readonly string[]): Promise<Map<string, NoteVersion>> {
    return this.#many<NoteVersion>(
      'canon_versions',
      'version_hash',
      hashes,
      (v) => v.version_hash,
      versionAudience,
    );
  }

  /** The archived messages of these ids this viewer may read, by id. */
  async messagesById(ids: readonly string[]): Promise<Map<string, ArchivedMessage>> {
    const found = await this.#many<ArchivedMessage>(
      'canon_messages',
      'message_id',
      ids,
      (m) => m.message_id,
      messageAudience,
    );
    return new Map([...found].map(([id, m]) => [id, withVisibility(m)]));
  }

  /** The proposals of these ids this viewer may read, by id. */
  proposalsById(ids: readonly string[]): Promise<Map<string, ProposalRecord>> {
    return this.#many<ProposalRecord>(
      'canon_proposals',
      'proposal_id',
      ids,
      (p) => p.proposal_id,
      proposalAudience,
    );
  }

  /** The current version of an object, or null. */
  async current(id: string): Promise<NoteVersion | null> {
    const object = await this.object(id);
    return object ? this.version(object.current_version_ref) : null;
  }

  /** Every claim an object's disputes have held, in the order they were opened, with its latest state. */
  async claims(objectId: string): Promise<Claim[]> {
    if (!(await this.object(objectId))) return [];
    const all = await this.#records<Claim>(
      'SELECT record FROM canon_claims WHERE project = $1 AND object_id = $2 ORDER BY seq, claim_id',
      [objectId],
    );
    return all.sort(
      (a, b) =>
        a.opened_in - b.opened_in ||
        a.holders[0]!.version_id - b.holders[0]!.version_id ||
        compareCodeUnits(a.claim_id, b.claim_id),
    );
  }

  /**
   * The proposals on these objects this viewer may read, whatever their status, in the order they
   * were made (by an index on the object: a project's other proposals are not read).
   */
  async proposalsOn(objectIds: readonly string[]): Promise<ProposalRecord[]> {
    const all = await this.#all<ProposalRecord>('canon_proposals', 'object_id', objectIds);
    return all.filter((p) => this.#may(proposalAudience(p))).sort((a, b) => a.seq - b.seq);
  }

  /**
   * The pending proposals on objects whose id starts with `prefix`, in seq order, read as a range of
   * canon's index of proposals by object (ids compare in byte order on every engine): not the
   * project's other pending proposals. A prefix that ends in a character past ASCII is read by
   * scanning the pending ones.
   */
  async pendingUnder(prefix: string): Promise<ProposalRecord[]> {
    const last = prefix.charCodeAt(prefix.length - 1);
    const all =
      prefix.length === 0 || !(last < 0x7f)
        ? (await this.proposals('pending')).filter((p) => p.object_id.startsWith(prefix))
        : await this.#records<ProposalRecord>(
            `SELECT record FROM canon_proposals
             WHERE project = $1 AND object_id >= $2 AND object_id < $3 AND status = 'pending'
             ORDER BY seq`,
            // Every id that starts with the prefix, and nothing else, sorts below the prefix with
            // its last character's successor.
            [prefix, `${prefix.slice(0, -1)}${String.fromCharCode(last + 1)}`],
          );
    return all.filter((p) => p.status === 'pending' && this.#may(proposalAudience(p)));
  }

  async proposals(status?: ProposalStatus): Promise<ProposalRecord[]> {
    // The status is chosen in SQL (its column is written with the record): a project's thousands of
    // decided proposals are not parsed to find the few pending.
    const all = status
      ? await this.#records<ProposalRecord>(
          'SELECT record FROM canon_proposals WHERE project = $1 AND status = $2 ORDER BY seq',
          [status],
        )
      : await this.#records<ProposalRecord>(
          'SELECT record FROM canon_proposals WHERE project = $1 ORDER BY seq',
        );
    return all.filter((p) => (!status || p.status === status) && this.#may(proposalAudience(p)));
  }

  /**
   * One page of the proposals this viewer may read ({@link ProposalPageQuery}), chosen in SQL by
   * holder and status ({@link proposalPageSql}): a page shorter than `limit` is the last, and its
   * work does not grow with the rows other principals hold.
   */
  async proposalPage(q: ProposalPageQuery): Promise<ProposalRecord[]> {
    const { sql, params } = proposalPageSql(q, this.viewer);
    const rows = await this.#records<ProposalRecord>(sql, params);
    return rows.filter((p) => this.#may(proposalAudience(p)));
  }

  async proposal(id: string): Promise<ProposalRecord | null> {
    const [p] = await this.#records<ProposalRecord>(
      'SELECT record FROM canon_proposals WHERE project = $1 AND proposal_id = $2',
      [id],
    );
    return p && this.#may(proposalAudience(p)) ? p : null;
  }

  /**
   * One page of the archive this viewer may read, in capture (journal) order or newest first, chosen
   * in SQL by holder ({@link messagePageSql}): a page shorter than `limit` is the last.
   */
  async messagePage(q: PageQuery): Promise<ArchivedMessage[]> {
    const { sql, params } = messagePageSql(q, this.viewer);
    const rows = await this.#records<ArchivedMessage>(sql, params);
    return rows.filter((m) => this.#may(messageAudience(m))).map(withVisibility);
  }

  async message(id: string): Promise<ArchivedMessage | null> {
    const [m] = await this.#records<ArchivedMessage>(
      'SELECT record FROM canon_messages WHERE project = $1 AND message_id = $2',
      [id],
    );
    return m && this.#may(messageAudience(m)) ? withVisibility(m) : null;
  }

  /**
   * Whether a message this viewer may read is still marked unclassified: neither a classification
   * nor a proposal citing it has been journaled (false when absent or not the viewer's).
   */
  async messageUnclassified(id: string): Promise<boolean> {
    const [row] = await this.db.all<{ unclassified: number; record: string }>(
      'SELECT unclassified, record FROM canon_messages WHERE project = $1 AND message_id = $2',
      [this.project, id],
    );
    if (!row || !this.#may(messageAudience(JSON.parse(row.record) as ArchivedMessage)))
      return false;
    return Number(row.unclassified) === 1;
  }

  /**
   * One page of the archived messages this viewer may read that were never classified, in capture
   * order ({@link UnclassifiedPageQuery}), each with its last journaled failure (null when none was
   * tried: archived only, or archived by an earlier version). Chosen in SQL by holder from the
   * messages the projection marks unclassified ({@link unclassifiedPageSql}): a page shorter than
   * `limit` is the last, and its work does not grow with the project's classified messages.
   */
  async unclassifiedPage(
    q: UnclassifiedPageQuery,
  ): Promise<{ message: ArchivedMessage; failure: ClassificationFailure | null }[]> {
    const { sql, params } = unclassifiedPageSql(q, this.viewer);
    const messages = (await this.#records<ArchivedMessage>(sql, params)).filter((m) =>
      this.#may(messageAudience(m)),
    );
    const failures = new Map<string, ClassificationFailure>();
    for (const piece of pieces(messages.map((m) => m.message_id))) {
      const keys = piece.map((_, k) => `$${k + 2}`).join(', ');
      const rows = await this.db.all<{ message_id: string; record: string | null }>(
        `SELECT message_id, record FROM canon_intake WHERE project = $1 AND message_id IN (${keys})`,
        [this.project, ...piece],
      );
      for (const r of rows) if (r.record !== null) failures.set(r.message_id, JSON.parse(r.record));
    }
    return messages.map((m) => ({
      message: withVisibility(m),
      failure: failures.get(m.message_id) ?? null,
    }));
  }

  /**
   * How many objects of each status, proposals of each status and artifacts this viewer may read
   * (absent: none): the counts canon's projection keeps (`counts.ts`), a few rows whatever the
   * project holds — the operator's scope, or the project's and the viewer's own.
   */
  async counts(): Promise<CanonCounts> {
    const { sql, params } = countsSql(this.viewer);
    return countsOf(
      await this.db.all<{ kind: string; status: string; n: number | string }>(sql, [
        this.project,
        ...params,
      ]),
    );
  }

  /** The project's journaled classifier configuration, or null when none was set. */
  async classifierConfig(): Promise<ClassifierRecord | null> {
    const [c] = await this.#records<ClassifierRecord>(
      'SELECT record FROM canon_classifier WHERE project = $1',
    );
    return c ?? null;
  }

  async artifacts(): Promise<ArtifactManifest[]> {
    const all = await this.#records<ArtifactManifest>(
      'SELECT record FROM canon_artifacts WHERE project = $1 ORDER BY artifact_id',
    );
    return this.#readableArtifacts(all);
  }

  /**
   * One page of the artifacts this viewer may read in id order ({@link ArtifactPageQuery}), chosen
   * in SQL by holder ({@link artifactPageSql}): a page shorter than `limit` is the last.
   */
  async artifactPage(q: ArtifactPageQuery): Promise<ArtifactManifest[]> {
    const { sql, params } = artifactPageSql(q, this.viewer);
    return this.#readableArtifacts(await this.#records<ArtifactManifest>(sql, params));
  }

  async artifact(id: string): Promise<ArtifactManifest | null> {
    const [a] = await this.#records<ArtifactManifest>(
      'SELECT record FROM canon_artifacts WHERE project = $1 AND artifact_id = $2',
      [id],
    );
    return a ? ((await this.#readableArtifacts([a]))[0] ?? null) : null;
  }

  /** The artifacts of these ids this viewer may read, by id (absent ids are left out). */
  async artifactsById(ids: readonly string[]): Promise<Map<string, ArtifactManifest>> {
    const all = await this.#all<ArtifactManifest>('canon_artifacts', 'artifact_id', ids);
    return new Map((await this.#readableArtifacts(all)).map((m) => [m.artifact_id, m]));
  }

  /** The audience of an artifact: its holder's when it cites a personal version (§14). */
  async artifactAudience(manifest: ArtifactManifest): Promise<Audience> {
    return (await this.artifactAudiences([manifest]))[0]!;
  }

  /** The audiences of these artifacts, in order, from one read of the versions they cite. */
  async artifactAudiences(manifests: readonly ArtifactManifest[]): Promise<Audience[]> {
    const cited = manifests.flatMap((m) => m.canonical_note_versions.map((n) => n.version_hash));
    const versions = new Map<string, NoteVersion>();
    for (const v of await this.#all<NoteVersion>('canon_versions', 'version_hash', cited))
      versions.set(v.version_hash, v);
    return manifests.map((m) => artifactAudience(m, (hash) => versions.get(hash)));
  }

  async #readableArtifacts(all: ArtifactManifest[]): Promise<ArtifactManifest[]> {
    if (this.viewer === null) return all;
    const audiences = await this.artifactAudiences(all);
    return all.filter((_, i) => this.#may(audiences[i]!));
  }

  /**
   * The ids, in order, of the artifacts of `ids` this viewer may read whose audience is within
   * `audience` (what a note of that audience may name): the artifacts and the versions they cite,
   * each read once.
   */
  async artifactsWithin(ids: readonly string[], audience: Audience): Promise<string[]> {
    const all = await this.#all<ArtifactManifest>('canon_artifacts', 'artifact_id', ids);
    const audiences = await this.artifactAudiences(all);
    return all
      .filter((_, i) => this.#may(audiences[i]!) && readableWithin(audiences[i]!, audience))
      .map((m) => m.artifact_id);
  }

  /**
   * Ids of artifacts this viewer may read built from this version (or from any version of the
   * object), in id order: the artifacts' edges into the object, one range of the `canon_edges_to`
   * index (an artifact's edges are its latest manifest's pins, as its `canon_artifact_inputs` are).
   */
  async artifactsBuiltFrom(objectId: string, versionHash?: ContentHash): Promise<string[]> {
    const rows = await this.db.all<{ from_id: string; to_version: string }>(
      `SELECT from_id, to_version FROM canon_edges
       WHERE project = $1 AND to_id = $2 AND from_kind = 'artifact' ORDER BY from_id`,
      [this.project, objectId],
    );
    const ids = rows
      .filter((r) => versionHash === undefined || r.to_version === versionHash)
      .map((r) => r.from_id);
    if (this.viewer === null) return ids;
    const readable = await this.artifactsById(ids);
    return ids.filter((id) => readable.has(id));
  }

  /**
   * The artifacts this viewer may read that cite one of these objects or, with `replaced`, an object
   * superseded or retired, in id order. Found through the graph: the artifacts' edges into those
   * objects (ranges of `canon_edges_to`; the superseded and retired objects are a range of
   * `canon_objects_status`, joined to their edges in SQL), then their records, only those the
   * project or this viewer holds: never the project's other artifacts.
   */
  async artifactsCiting(
    objectIds: readonly string[],
    replaced = false,
  ): Promise<ArtifactManifest[]> {
    const ids = new Set<string>();
    for (const edges of (await edgesIntoAll(this.db, this.project, objectIds)).values())
      for (const e of edges) if (e.from_kind === 'artifact') ids.add(e.from_id);
    if (replaced) {
      const rows = await this.db.all<{ from_id: string }>(
        `SELECT e.from_id FROM canon_objects o
         JOIN canon_edges e ON e.project = o.project AND e.to_id = o.object_id AND e.from_kind = 'artifact'
         WHERE o.project = $1 AND o.status IN ('superseded', 'retired')`,
        [this.project],
      );
      for (const r of rows) ids.add(r.from_id);
    }
    const all: ArtifactManifest[] = [];
    for (const piece of pieces([...ids])) {
      const keys = piece.map((_, k) => `$${k + 2}`).join(', ');
      const holder =
        this.viewer === null ? '' : ` AND (holder IS NULL OR holder = $${piece.length + 2})`;
      const params = this.viewer === null ? piece : [...piece, this.viewer];
      all.push(
        ...(await this.#records<ArtifactManifest>(
          `SELECT record FROM canon_artifacts WHERE project = $1 AND artifact_id IN (${keys})${holder}`,
          params,
        )),
      );
    }
    const readable = await this.#readableArtifacts(all);
    return readable.sort((a, b) => compareCodeUnits(a.artifact_id, b.artifact_id));
  }

  /**
   * Current objects (that this viewer may read) whose current version depends on this one, in id
   * order: one indexed lookup of the graph's edges, not a scan of the project.
   */
  async dependentObjects(objectId: string): Promise<CanonObject[]> {
    const ids: string[] = [];
    for (const edge of await edgesInto(this.db, this.project, objectId)) {
      if (edge.from_kind === 'note') ids.push(edge.from_id);
    }
    const found = await this.objectsById(ids);
    const out: CanonObject[] = [];
    for (const id of ids) {
      const o = found.get(id);
      if (o && isLive(o)) out.push(o);
    }
    return out;
  }

  /**
   * The ids of `kind` dependents this viewer may read made against any version of this note, in id
   * order, at most `limit` of them: a range of the `canon_edges_to` index, each edge joined to its
   * dependent's row to keep only those of the project's plane or the viewer's own (§14), so a
   * caller that reads `limit` of them learns nothing of another principal's personal dependents.
   */
  async dependentIds(objectId: string, kind: DependentKind, limit: number): Promise<string[]> {
    const [table, key] =
      kind === 'note' ? ['canon_objects', 'object_id'] : ['canon_artifacts', 'artifact_id'];
    const mine = this.viewer === null ? '' : 'AND (d.holder IS NULL OR d.holder = $5)';
    const rows = await this.db.all<{ from_id: string }>(
      `SELECT e.from_id FROM canon_edges e
       JOIN ${table} d ON d.project = e.project AND d.${key} = e.from_id
       WHERE e.project = $1 AND e.to_id = $2 AND e.from_kind = $3 ${mine}
       ORDER BY e.from_id LIMIT $4`,
      [this.project, objectId, kind, limit, ...(this.viewer === null ? [] : [this.viewer])],
    );
    return rows.map((r) => r.from_id);
  }

  /** Ids of {@link CanonReader.dependentObjects}. */
  async dependents(objectId: string): Promise<string[]> {
    return (await this.dependentObjects(objectId)).map((o) => o.object_id);
  }

  /**
   * What cascades left on the dependents this viewer may read (§10, CRP-030 §3): notes that need
   * revision and artifacts a move reached, by `kind:id` (`note:decision.db`, `artifact:spec`).
   */
  async dependencyStates(): Promise<Map<string, DependencyState>> {
    const all = await dependencyStates(this.db, this.project);
    if (this.viewer === null) return all;
    for (const [key, s] of all) {
      const readable = s.kind === 'note' ? await this.object(s.id) : await this.artifact(s.id);
      if (!readable) all.delete(key);
    }
    return all;
  }

  /** The state a cascade left on one note or artifact this viewer may read, or null. */
  async dependencyState(kind: DependentKind, id: string): Promise<DependencyState | null> {
    const [row] = await this.#records<DependencyState>(
      'SELECT record FROM canon_dependency_states WHERE project = $1 AND kind = $2 AND dependent_id = $3',
      [kind, id],
    );
    if (!row) return null;
    const readable = kind === 'note' ? await this.object(id) : await this.artifact(id);
    return readable ? row : null;
  }

  /**
   * What cascades left on these artifacts (which this viewer may read), by `artifact:id`: a
   * statement per piece of ids, not the project's every state.
   */
  artifactDependencyStates(ids: readonly string[]): Promise<Map<string, DependencyState>> {
    return this.#statesOf('artifact', ids);
  }

  /** {@link CanonReader.artifactDependencyStates} of notes (which this viewer may read), by `note:id`. */
  noteDependencyStates(ids: readonly string[]): Promise<Map<string, DependencyState>> {
    return this.#statesOf('note', ids);
  }

  async #statesOf(kind: DependentKind, ids: readonly string[]) {
    const out = new Map<string, DependencyState>();
    for (const piece of pieces([...new Set(ids)])) {
      const keys = piece.map((_, k) => `$${k + 3}`).join(', ');
      const rows = await this.#records<DependencyState>(
        `SELECT record FROM canon_dependency_states
         WHERE project = $1 AND kind = $2 AND dependent_id IN (${keys})`,
        [kind, ...piece],
      );
      for (const s of rows) out.set(`${s.kind}:${s.id}`, s);
    }
    return out;
  }

  /**
   * A {@link CanonLookup} of what these manifests cite, as this viewer may read it: the objects
   * they name, the versions they pin and those objects' current versions — not the project's.
   */
  async lookupFor(manifests: readonly ArtifactManifest[]): Promise<CanonLookup> {
    const cited = manifests.flatMap((m) => m.canonical_note_versions);
    const objects = await this.objectsById(cited.map((n) => n.object_id));
    const hashes = [
      ...cited.map((n) => n.version_hash),
      ...[...objects.values()].map((o) => o.current_version_ref),
    ];
    const versions = await this.versionsByHash(hashes);
    return { object: (id) => objects.get(id), version: (hash) => versions.get(hash) };
  }

  /** An in-memory view of the objects and versions this viewer may read, for staleness and working sets. */
  async lookup(): Promise<CanonLookup & { objects: CanonObject[]; versions: NoteVersion[] }> {
    const objects = await this.objects();
    const versions = (
      await this.#records<NoteVersion>(
        'SELECT record FROM canon_versions WHERE project = $1 ORDER BY seq',
      )
    ).filter((v) => this.#may(versionAudience(v)));
    const byId = new Map(objects.map((o) => [o.object_id, o]));
    const byHash = new Map(versions.map((v) => [v.version_hash, v]));
    return { objects, versions, object: (id) => byId.get(id), version: (hash) => byHash.get(hash) };
  }
}
