// Builders for the engine-level canon suites: principals, candidate notes with defaults, archived
// sources, a runtime per storage engine, and snapshots of canon's tables for before/after equality.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { type CanonryRuntime, createCanonry, type RuntimeOptions } from '../../src/app/index.js';
import {
  archiveMessage,
  type NoteContent,
  type Principal,
  type ProposalInput,
  type ProposalOutcome,
  type Role,
  type SourceRef,
} from '../../src/canon/index.js';
import { CanonryError, type ContentHash, isCanonryError } from '../../src/core/index.js';
import type { Store } from '../../src/store/index.js';
import { tempDir } from './runtime.js';
import {
  freshLinguisticPostgres,
  freshPostgresSchema,
  LINGUISTIC_LOCALE,
  postgresAvailable,
} from './stores.js';

/** The project most suites work in. */
export const PROJECT = 'atelier';

/** A principal of a project: authority in the engine is whatever the caller passes. */
export function principal(id: string, role: Role, project = PROJECT): Principal {
  return { id, role, project };
}

/** One principal per role in a project. */
export function principals(project = PROJECT) {
  return {
    owner: principal('olivia', 'owner', project),
    editor: principal('eddie', 'editor', project),
    agent: principal('agent-7', 'agent', project),
    tool: principal('ci-runner', 'tool', project),
    viewer: principal('vera', 'viewer', project),
  } as const;
}

/** A candidate note: a sourceless, asserted, active, project-visible fact unless overridden. */
export function note(overrides: Partial<NoteContent> = {}): NoteContent {
  return {
    object_type: 'fact',
    title: 'A note',
    text: 'The build runs on Node 20.',
    shape: null,
    confidence_state: 'asserted',
    status: 'active',
    visibility: 'project',
    sources: [],
    dependency_refs: [],
    effective_from: null,
    effective_until: null,
    tags: [],
    ...overrides,
  };
}

/** Archives a message and returns a source span of it that quotes `quote` exactly. */
export async function archivedSource(
  runtime: CanonryRuntime,
  who: Principal,
  text: string,
  quote: string = text,
  messageId?: string,
): Promise<{ message_id: string; source: SourceRef }> {
  const message = await archiveMessage(runtime.canon, who, {
    text,
    ...(messageId ? { message_id: messageId } : {}),
  });
  const start = text.indexOf(quote);
  if (start < 0) throw new Error(`"${quote}" is not in "${text}"`);
  return {
    message_id: message.message_id,
    source: { message_id: message.message_id, span: [start, start + quote.length], quote },
  };
}

/** Proposes a new object. */
export function create(
  runtime: CanonryRuntime,
  who: Principal,
  objectId: string,
  candidate: Partial<NoteContent> = {},
  extra: Partial<ProposalInput> = {},
): Promise<ProposalOutcome> {
  return runtime.canon.propose(who, {
    object_id: objectId,
    intent: 'create',
    base_version: null,
    candidate: note(candidate),
    ...extra,
  });
}

/** The current version hash of an object (throws if it does not exist). */
export async function currentHash(
  runtime: CanonryRuntime,
  objectId: string,
  project = PROJECT,
): Promise<ContentHash> {
  const object = await runtime.canon.reader(project).object(objectId);
  if (!object) throw new Error(`no object ${objectId}`);
  return object.current_version_ref as ContentHash;
}

/** Proposes an update of an object against its current version, from the current content. */
export async function update(
  runtime: CanonryRuntime,
  who: Principal,
  objectId: string,
  change: Partial<NoteContent>,
  extra: Partial<ProposalInput> & { fromSuggestion?: boolean } = {},
): Promise<ProposalOutcome> {
  const reader = runtime.canon.reader(who.project);
  const current = await reader.current(objectId);
  if (!current) throw new Error(`no object ${objectId}`);
  const { fromSuggestion, ...rest } = extra;
  return runtime.canon.propose(
    who,
    {
      object_id: objectId,
      intent: 'update',
      base_version: current.version_hash,
      candidate: { ...current.content, ...change },
      ...rest,
    },
    fromSuggestion === undefined ? {} : { fromSuggestion },
  );
}

/** Awaits `work` and asserts it failed with a typed CanonryError of `code`; returns the error. */
export async function expectCode(work: Promise<unknown>, code: string): Promise<CanonryError> {
  let caught: unknown;
  try {
    await work;
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected ${code}`).toBeInstanceOf(CanonryError);
  expect(isCanonryError(caught) ? caught.code : caught).toBe(code);
  return caught as CanonryError;
}

/** The tables canon's projection owns, each with a stable order for snapshots. */
export const CANON_TABLES = {
  canon_messages: 'message_id',
  canon_objects: 'object_id',
  canon_versions: 'object_id, version_id',
  canon_proposals: 'proposal_id',
  canon_artifacts: 'artifact_id',
  canon_artifact_inputs: 'artifact_id, object_id',
  canon_claims: 'object_id, claim_id',
  canon_intake: 'message_id',
  canon_classifier: 'seq',
  canon_edges: 'from_kind, from_id, to_id',
  canon_dependency_states: 'kind, dependent_id',
  canon_counts: 'scope, holder, kind, status',
} as const;

/** Every row (every column) of every canon table for a project, for before/after equality. */
export async function canonTables(
  store: Pick<Store, 'all'>,
  project = PROJECT,
): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [table, order] of Object.entries(CANON_TABLES)) {
    out[table] = await store.all(`SELECT * FROM ${table} WHERE project = $1 ORDER BY ${order}`, [
      project,
    ]);
  }
  return out;
}

/** {@link canonTables} with every JSON column parsed: equality of content, whatever the key order. */
export async function canonContent(
  store: Pick<Store, 'all'>,
  project = PROJECT,
): Promise<Record<string, unknown[]>> {
  const tables = await canonTables(store, project);
  const parse = (row: unknown) =>
    Object.fromEntries(
      Object.entries(row as Record<string, unknown>).map(([k, v]) => [
        k,
        (k === 'record' || k === 'receipt') && typeof v === 'string' ? JSON.parse(v) : v,
      ]),
    );
  return Object.fromEntries(Object.entries(tables).map(([t, rows]) => [t, rows.map(parse)]));
}

/** Objects, versions, proposals and the journal head of a project: what must not move on refusal. */
export async function canonState(runtime: CanonryRuntime, project = PROJECT) {
  const { store } = runtime;
  const rows = (table: keyof typeof CANON_TABLES) =>
    store.all(`SELECT * FROM ${table} WHERE project = $1 ORDER BY ${CANON_TABLES[table]}`, [
      project,
    ]);
  return {
    objects: await rows('canon_objects'),
    versions: await rows('canon_versions'),
    proposals: await rows('canon_proposals'),
    messages: await rows('canon_messages'),
    artifacts: await rows('canon_artifacts'),
    claims: await rows('canon_claims'),
    head: await runtime.journal.head(project),
  };
}

/** A runtime on one engine, and how to open a second independent runtime on the same database. */
export interface EngineRuntime {
  readonly runtime: CanonryRuntime;
  /** The database the runtime uses (`undefined` for the embedded SQLite file). */
  readonly db: string | undefined;
  readonly dataDir: string;
  /** Another runtime (own data directory, own pool) on the same database. */
  another(): Promise<CanonryRuntime>;
  close(): Promise<void>;
}

/** A storage engine canon runs on. */
export interface CanonEngine {
  readonly name: 'sqlite' | 'postgres';
  /** The database's default collation, where it is not byte order (SQLite's and C's). */
  readonly collation?: string;
  readonly available: boolean;
  /** `options` are the main runtime's (where its background failures go, …). */
  open(options?: RuntimeOptions): Promise<EngineRuntime>;
}

async function openOn(
  db: string | undefined,
  drop: () => Promise<void>,
  options: RuntimeOptions = {},
): Promise<EngineRuntime> {
  const main = tempDir('canonry-canon-');
  const dirs = [main];
  const extra: CanonryRuntime[] = [];
  const runtime = await createCanonry({ dataDir: main.dir, db, logLevel: 'silent' }, options);
  return {
    runtime,
    db,
    dataDir: main.dir,
    async another() {
      const dir = tempDir('canonry-canon-');
      dirs.push(dir);
      // A second host shares the root the database is signed under (its keyring, copied).
      cpSync(join(main.dir, 'keys'), join(dir.dir, 'keys'), { recursive: true });
      // SQLite: the same file (one shared connection per process); PostgreSQL: the same schema.
      const other = await createCanonry({
        dataDir: dir.dir,
        db: db ?? `sqlite:${join(main.dir, 'canonry.db')}`,
        logLevel: 'silent',
      });
      extra.push(other);
      return other;
    },
    async close() {
      for (const r of extra) await r.close().catch(() => undefined);
      await runtime.close().catch(() => undefined);
      await drop();
      for (const d of dirs) d.cleanup();
    },
  };
}

/** The engines every storage-backed canon suite loops over. */
export const CANON_ENGINES: readonly CanonEngine[] = [
  {
    name: 'sqlite',
    available: true,
    open: (options) => openOn(undefined, async () => undefined, options),
  },
  {
    name: 'postgres',
    available: postgresAvailable,
    async open(options) {
      const { url, drop } = await freshPostgresSchema();
      return openOn(url, drop, options);
    },
  },
];

/** Settles every promise and splits the outcomes into values and CanonryError codes. */
export async function settle<T>(
  work: readonly Promise<T>[],
): Promise<{ ok: T[]; codes: string[]; other: unknown[] }> {
  const settled = await Promise.allSettled(work);
  const ok: T[] = [];
  const codes: string[] = [];
  const other: unknown[] = [];
  for (const s of settled) {
    if (s.status === 'fulfilled') ok.push(s.value);
    else if (isCanonryError(s.reason)) codes.push(s.reason.code);
    else other.push(s.reason);
  }
  return { ok, codes, other };
}

/** The `## title` section of a capsule (empty when absent). */
export function section(capsule: string, title: string): string {
  const start = capsule.indexOf(`\n## ${title}\n`);
  if (start < 0) return '';
  const rest = capsule.slice(start + 1);
  const end = rest.indexOf('\n## ', 4);
  return end < 0 ? rest : rest.slice(0, end);
}

/** Canon on PostgreSQL in a fresh database whose default collation is linguistic (ICU en-US). */
export const LINGUISTIC_CANON_ENGINE: CanonEngine = {
  name: 'postgres',
  collation: `ICU ${LINGUISTIC_LOCALE}`,
  available: postgresAvailable,
  async open(options) {
    const { url, drop } = await freshLinguisticPostgres();
    return openOn(url, drop, options);
  },
};
