import type { ContentHash } from '../core/index.js';
import type { Queryable } from '../store/index.js';
import type { ArtifactManifest, CanonLookup } from './artifacts.js';
import type { ArchivedMessage } from './classification.js';
import type { ProposalRecord, ProposalStatus } from './records.js';
import type { CanonObject, NoteVersion, ObjectStatus } from './types.js';

function parse<T>(rows: { record: string }[]): T[] {
  return rows.map((r) => JSON.parse(r.record) as T);
}

/**
 * Reads canon's projection for one project. Every query binds the project: a reader cannot see
 * another project's rows. Works on the store or inside a transaction.
 */
export class CanonReader {
  constructor(
    private readonly db: Pick<Queryable, 'all'>,
    readonly project: string,
  ) {}

  async #records<T>(sql: string, params: readonly (string | number)[] = []): Promise<T[]> {
    return parse<T>(await this.db.all<{ record: string }>(sql, [this.project, ...params]));
  }

  /** Objects, optionally only those with one of the given statuses, in id order. */
  async objects(statuses?: readonly ObjectStatus[]): Promise<CanonObject[]> {
    const all = await this.#records<CanonObject>(
      'SELECT record FROM canon_objects WHERE project = $1 ORDER BY object_id',
    );
    return statuses ? all.filter((o) => statuses.includes(o.status)) : all;
  }

  async object(id: string): Promise<CanonObject | null> {
    const [o] = await this.#records<CanonObject>(
      'SELECT record FROM canon_objects WHERE project = $1 AND object_id = $2',
      [id],
    );
    return o ?? null;
  }

  /** Every version of an object, oldest first. */
  versions(id: string): Promise<NoteVersion[]> {
    return this.#records(
      'SELECT record FROM canon_versions WHERE project = $1 AND object_id = $2 ORDER BY version_id',
      [id],
    );
  }

  async version(hash: ContentHash): Promise<NoteVersion | null> {
    const [v] = await this.#records<NoteVersion>(
      'SELECT record FROM canon_versions WHERE project = $1 AND version_hash = $2',
      [hash],
    );
    return v ?? null;
  }

  /** The current version of an object, or null. */
  async current(id: string): Promise<NoteVersion | null> {
    const object = await this.object(id);
    return object ? this.version(object.current_version_ref) : null;
  }

  async proposals(status?: ProposalStatus): Promise<ProposalRecord[]> {
    const all = await this.#records<ProposalRecord>(
      'SELECT record FROM canon_proposals WHERE project = $1 ORDER BY seq',
    );
    return status ? all.filter((p) => p.status === status) : all;
  }

  async proposal(id: string): Promise<ProposalRecord | null> {
    const [p] = await this.#records<ProposalRecord>(
      'SELECT record FROM canon_proposals WHERE project = $1 AND proposal_id = $2',
      [id],
    );
    return p ?? null;
  }

  messages(): Promise<ArchivedMessage[]> {
    return this.#records('SELECT record FROM canon_messages WHERE project = $1 ORDER BY seq');
  }

  async message(id: string): Promise<ArchivedMessage | null> {
    const [m] = await this.#records<ArchivedMessage>(
      'SELECT record FROM canon_messages WHERE project = $1 AND message_id = $2',
      [id],
    );
    return m ?? null;
  }

  artifacts(): Promise<ArtifactManifest[]> {
    return this.#records(
      'SELECT record FROM canon_artifacts WHERE project = $1 ORDER BY artifact_id',
    );
  }

  async artifact(id: string): Promise<ArtifactManifest | null> {
    const [a] = await this.#records<ArtifactManifest>(
      'SELECT record FROM canon_artifacts WHERE project = $1 AND artifact_id = $2',
      [id],
    );
    return a ?? null;
  }

  /** Ids of artifacts built from this version (or from any version of the object). */
  async artifactsBuiltFrom(objectId: string, versionHash?: ContentHash): Promise<string[]> {
    const rows = await this.db.all<{ artifact_id: string; version_hash: string }>(
      'SELECT artifact_id, version_hash FROM canon_artifact_inputs WHERE project = $1 AND object_id = $2 ORDER BY artifact_id',
      [this.project, objectId],
    );
    return rows
      .filter((r) => versionHash === undefined || r.version_hash === versionHash)
      .map((r) => r.artifact_id);
  }

  /** Ids of objects that declare a dependency on this one. */
  async dependents(objectId: string): Promise<string[]> {
    const all = await this.objects(['active', 'provisional', 'disputed']);
    return all.filter((o) => o.dependency_refs.includes(objectId)).map((o) => o.object_id);
  }

  /** An in-memory view of objects and versions, for staleness and working sets. */
  async lookup(): Promise<CanonLookup & { objects: CanonObject[]; versions: NoteVersion[] }> {
    const objects = await this.objects();
    const versions = await this.#records<NoteVersion>(
      'SELECT record FROM canon_versions WHERE project = $1 ORDER BY seq',
    );
    const byId = new Map(objects.map((o) => [o.object_id, o]));
    const byHash = new Map(versions.map((v) => [v.version_hash, v]));
    return { objects, versions, object: (id) => byId.get(id), version: (hash) => byHash.get(hash) };
  }
}
