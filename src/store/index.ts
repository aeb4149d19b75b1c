export { claimStore, STORE_IDENTITY_MIGRATIONS, type StoreIdentity } from './identity.js';
export {
  checkSchemaKnown,
  type Migration,
  type MigrationSets,
  migrate,
  schemaVersion,
} from './migrations.js';
export {
  databaseEngine,
  defaultDatabasePath,
  openStore,
  sqliteDatabaseFile,
} from './open-store.js';
export { perCount, pieces, rowPlaceholders, STATEMENT_PIECE } from './pieces.js';
export {
  type PostgresOptions,
  PostgresStore,
  redact as redactDatabaseUrl,
} from './postgres/postgres-store.js';
export { refuseIrregularDatabaseFile } from './sqlite/database-file.js';
export { type ExclusiveSqlite, holdSqliteExclusive } from './sqlite/exclusive.js';
export { ReadOnlySqliteStore } from './sqlite/read-only-store.js';
export { sqliteIntegrityProblems, syncPath } from './sqlite/snapshot.js';
export { snapshotSqlite } from './sqlite/snapshot-thread.js';
export { type SqliteOptions, SqliteStore } from './sqlite/sqlite-store.js';
export { BYTE_ORDER_TEXT, textInByteOrder } from './text-order.js';
export { isTransientStoreError, isUnknownOutcome } from './transient-error.js';
export type {
  BackgroundWriter,
  BatchStatement,
  Capabilities,
  NotificationHandlers,
  Queryable,
  Row,
  SqlValue,
  Store,
  StoreNotifications,
  TransactionOptions,
  Write,
} from './types.js';
export { isUniqueViolation } from './unique-violation.js';
export { isStoreOutage, isWaitedOut, markWaitedOut } from './waited-out.js';
export { runTogether, runWrites } from './writes-together.js';
