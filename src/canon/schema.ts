import type { Migration } from '../store/index.js';

/** The intake tables (see the `intake` migration). */
const INTAKE_TABLES = `
  CREATE TABLE canon_intake (
    project TEXT NOT NULL,
    message_id TEXT NOT NULL,
    state TEXT NOT NULL,
    seq BIGINT NOT NULL,
    record TEXT,
    PRIMARY KEY (project, message_id)
  );
  CREATE TABLE canon_classifier (
    project TEXT NOT NULL PRIMARY KEY,
    seq BIGINT NOT NULL,
    record TEXT NOT NULL
  );
`;

/**
 * Canon's projection tables. Each row is derived from journal entries and rebuilt by replaying them;
 * `record` holds the full canonical JSON of what the row describes, the other columns are for lookup.
 */
export const CANON_MIGRATIONS: readonly Migration[] = [
  {
    name: 'canon',
    up: `
      CREATE TABLE canon_messages (
        project TEXT NOT NULL,
        message_id TEXT NOT NULL,
        seq BIGINT NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (project, message_id)
      );
      CREATE TABLE canon_objects (
        project TEXT NOT NULL,
        object_id TEXT NOT NULL,
        object_type TEXT NOT NULL,
        status TEXT NOT NULL,
        current_version TEXT NOT NULL,
        version_id BIGINT NOT NULL,
        seq BIGINT NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (project, object_id)
      );
      CREATE TABLE canon_versions (
        project TEXT NOT NULL,
        object_id TEXT NOT NULL,
        version_id BIGINT NOT NULL,
        version_hash TEXT NOT NULL,
        seq BIGINT NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (project, object_id, version_id)
      );
      CREATE UNIQUE INDEX canon_versions_hash ON canon_versions (project, version_hash);
      CREATE TABLE canon_proposals (
        project TEXT NOT NULL,
        proposal_id TEXT NOT NULL,
        object_id TEXT NOT NULL,
        status TEXT NOT NULL,
        seq BIGINT NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (project, proposal_id)
      );
      CREATE TABLE canon_artifacts (
        project TEXT NOT NULL,
        artifact_id TEXT NOT NULL,
        seq BIGINT NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (project, artifact_id)
      );
      CREATE TABLE canon_artifact_inputs (
        project TEXT NOT NULL,
        artifact_id TEXT NOT NULL,
        object_id TEXT NOT NULL,
        version_hash TEXT NOT NULL,
        PRIMARY KEY (project, artifact_id, object_id)
      );
    `,
  },
  {
    // What became of each message's classification (`canon.classification`, and
    // `canon.classification_failed` while none has succeeded), and each project's classifier
    // subjects (`canon.classifier`). Classifications journaled before this table existed are
    // projected here once, from their entries, so the table equals a replay from the first start on.
    name: 'intake',
    up: {
      sqlite: `${INTAKE_TABLES}
        INSERT INTO canon_intake (project, message_id, state, seq, record)
          SELECT project, json_extract(body, '$.message_id'), 'classified', seq, NULL
          FROM journal_entries WHERE kind = 'canon.classification';`,
      postgres: `${INTAKE_TABLES}
        INSERT INTO canon_intake (project, message_id, state, seq, record)
          SELECT project, (body::jsonb)->>'message_id', 'classified', seq, NULL
          FROM journal_entries WHERE kind = 'canon.classification';`,
    },
  },
];
