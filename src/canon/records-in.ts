/** Tables whose rows are a `record` looked up by one key column. */
export type RecordTable =
  | 'canon_objects'
  | 'canon_versions'
  | 'canon_proposals'
  | 'canon_messages'
  | 'canon_artifacts';

/** The key column a record is looked up by. */
export type RecordKey = 'object_id' | 'version_hash' | 'proposal_id' | 'message_id' | 'artifact_id';

/**
 * The one statement that reads the records of `count` keys (`$1` the project, then the keys). Every
 * batched read of a table's records goes through it, so the same keys give the same text and a
 * batch's planning cache (`read-cache.ts`) answers a repeat from the first read.
 */
export const recordsIn = (table: RecordTable, column: RecordKey, count: number): string =>
  `SELECT record FROM ${table} WHERE project = $1 AND ${column} IN (${Array.from(
    { length: count },
    (_, k) => `$${k + 2}`,
  ).join(', ')})`;
