import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CanonryError, type ContentHash, isCanonryError } from '../core/index.js';
import { Journal, verifyProject } from '../journal/index.js';
import {
  checkSchemaKnown,
  databaseEngine,
  defaultDatabasePath,
  ReadOnlySqliteStore,
  sqliteIntegrityProblems,
} from '../store/index.js';
import { Keyring, type TrustAnchor } from '../trust/index.js';
import { RUNTIME_MIGRATIONS } from './migration-sets.js';
import { STORE_FILE, type StoreRecord } from './store-binding.js';

/** One project's chain in a database copy, as verified. */
export interface CopiedChain {
  readonly project: string;
  /** Entries walked (from the chain's base: genesis, or the signed anchor of a pruned prefix). */
  readonly entries: number;
  readonly head: { readonly seq: number; readonly hash: ContentHash };
}

/** What checking a copy found: the database it is, and every project's chain. */
export interface CopyReport {
  readonly store_id: string;
  readonly projects: readonly CopiedChain[];
}

/** Where a step reports what it did (a line, for people). */
export type Progress = (line: string) => void;

/** `1 entry`, `2 entries`. */
export function entries(n: number): string {
  return `${n} entr${n === 1 ? 'y' : 'ies'}`;
}

/** The tables every canonry database has, whatever its version. */
const CANONRY_TABLES = [
  'canonry_migrations',
  'canonry_store',
  'journal_heads',
  'journal_entries',
  'journal_checkpoints',
];

/**
 * The embedded SQLite file a data directory uses (the runtime's rule: `db` as `sqlite:<path>` or a
 * path, else `<dataDir>/canonry.db`). A PostgreSQL store — named by `db` (`--db`, `CANONRY_DB`) or
 * by the directory's `store.json` — is UNSUPPORTED_STORE pointing at pg_dump: a file copy is not how
 * a shared server database is backed up. Never echoes a connection string.
 */
export function embeddedDatabase(
  dataDir: string,
  db: string | undefined,
  recorded: StoreRecord | undefined,
): string {
  if (
    databaseEngine(db) === 'postgres' ||
    (typeof recorded?.database === 'string' && /^postgres(ql)?:\/\//.test(recorded.database))
  ) {
    throw new CanonryError(
      'UNSUPPORTED_STORE',
      `the data directory ${dataDir} uses PostgreSQL: backup and restore copy the embedded SQLite store only; back PostgreSQL up with pg_dump (pg_dump --format=custom --file=canonry.dump DATABASE_URL) and restore it with pg_restore, and keep keys/ separately`,
      { engine: 'postgres' },
    );
  }
  if (db === undefined || db === '' || db === 'sqlite:') return defaultDatabasePath(dataDir);
  return resolve(db.startsWith('sqlite:') ? db.slice('sqlite:'.length) : db);
}

/**
 * STORE_MISMATCH when the SQLite file backup or restore would use, `file`, does not exist while the
 * data directory is bound (`store.json`) to another SQLite file — one the runtime opens with `--db`.
 * A backup would find nothing there, and a restore would make a second database of the same store
 * beside the bound one, the two then growing apart. Never echoes a connection string.
 */
export function refuseUnboundDatabaseFile(
  dataDir: string,
  file: string,
  record: StoreRecord | undefined,
): void {
  if (existsSync(file)) return;
  const recorded = record?.database;
  if (typeof recorded !== 'string' || !recorded.startsWith('sqlite:')) return;
  const bound = recorded.slice('sqlite:'.length);
  if (bound === file || resolve(bound) === resolve(file)) return;
  throw new CanonryError(
    'STORE_MISMATCH',
    `${dataDir} is bound to the database ${recorded} (${STORE_FILE}), not to ${file}, which does not exist: pass that database with --db or CANONRY_DB`,
    { database: recorded },
  );
}

/**
 * The data directory's keyring, for its public half: the root and revocation list a copy's chains
 * are verified against. KEYRING_MISSING says that keys/ is backed up apart and must be put back.
 */
export async function anchorOf(dataDir: string): Promise<{ anchor: TrustAnchor; root: string }> {
  let keyring: Keyring;
  try {
    keyring = await Keyring.open(dataDir);
  } catch (err) {
    if (isCanonryError(err, 'KEYRING_MISSING')) {
      throw new CanonryError(
        'KEYRING_MISSING',
        `${err.message}: the journal's signatures are verified with the data directory's keyring; point --data at a data directory canonry has used (a backup holds no keys: put keys/, backed up separately, back first)`,
      );
    }
    throw err;
  }
  return {
    anchor: { root: keyring.rootCertificatePem, revocationList: keyring.revocationListPem() },
    root: keyring.rootFingerprint,
  };
}

/**
 * Checks a database copy at `path` (called `name` in messages) without writing to it: SQLite's
 * `integrity_check` (STORE_CORRUPT), that it is a canonry database (INVALID_BACKUP) whose schema this
 * canonry knows (SCHEMA_TOO_NEW: a newer one migrated it), signed under the keyring's root
 * (KEYRING_MISMATCH), and that every project's chain verifies whole, checkpoints and signed
 * anchors included, with the journal's own verification (CHAIN_BROKEN naming the project,
 * seq and reason). A checkpoint of an issuer revoked since is passed over, as `serve` does on start.
 */
export async function checkDatabaseCopy(
  path: string,
  name: string,
  trust: { anchor: TrustAnchor; root: string },
  progress: Progress,
): Promise<CopyReport> {
  const problems = sqliteIntegrityProblems(path, name);
  if (problems.length > 0) {
    throw new CanonryError(
      'STORE_CORRUPT',
      `${name} fails SQLite's integrity check (${problems.length} problem${problems.length === 1 ? '' : 's'}; first: ${problems[0]!.replace(/\s+/g, ' ').slice(0, 200)})`,
      { problems: problems.length },
    );
  }
  progress('integrity_check: ok');
  const store = new ReadOnlySqliteStore(path, name);
  const journal = new Journal(store);
  try {
    const tables = await store.all<{ name: string }>(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${CANONRY_TABLES.map((_, i) => `$${i + 1}`).join(', ')})`,
      CANONRY_TABLES,
    );
    const identity =
      tables.length === CANONRY_TABLES.length
        ? await store.all<{ store_id: string; root_fingerprint: string }>(
            'SELECT store_id, root_fingerprint FROM canonry_store WHERE id = 1',
          )
        : [];
    if (identity[0] === undefined) {
      throw new CanonryError(
        'INVALID_BACKUP',
        `${name} is a SQLite database, but not a canonry database (no store identity or journal tables)`,
      );
    }
    const { store_id, root_fingerprint } = identity[0];
    await checkSchemaKnown(store, RUNTIME_MIGRATIONS, name);
    if (root_fingerprint !== trust.root) {
      throw new CanonryError(
        'KEYRING_MISMATCH',
        `${name} is signed under root ${root_fingerprint}, but the data directory's keyring has root ${trust.root}`,
        { store_root: root_fingerprint, keyring_root: trust.root },
      );
    }
    const projects: CopiedChain[] = [];
    for (const { project } of await journal.projects()) {
      const report = await verifyProject(journal, project, trust.anchor, {
        scope: 'full',
        revoked: 'skip',
      });
      if (!report.ok || report.broken !== null) {
        const broken = report.broken!;
        throw new CanonryError(
          'CHAIN_BROKEN',
          `the journal of ${project} in ${name} does not verify (seq ${broken.seq}: ${broken.reason}, ${broken.detail})`,
          { project, seq: broken.seq, reason: broken.reason },
        );
      }
      projects.push({ project, entries: report.checked, head: report.head });
      progress(
        `verified ${project}: ${entries(report.checked)}, head seq ${report.head.seq} ${report.head.hash}`,
      );
    }
    return { store_id, projects };
  } finally {
    await journal.close();
    await store.close();
  }
}
