import { type Migration, textInByteOrder } from '../store/index.js';

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

/** The ranges a page of proposals is read from: by status, and by holder and status. */
const PROPOSAL_PAGE_INDEXES = `
  CREATE INDEX canon_proposals_status ON canon_proposals (project, status, seq);
  CREATE INDEX canon_proposals_holder ON canon_proposals (project, holder, status, seq);
`;

/** The ranges a page of the archive is read from: by seq, and by holder and seq. */
const MESSAGE_PAGE_INDEXES = `
  CREATE INDEX canon_messages_seq ON canon_messages (project, seq);
  CREATE INDEX canon_messages_holder ON canon_messages (project, holder, seq);
`;

/**
 * The ranges a page of objects is read from, in id order: by status, and by holder and status (the
 * operator's page of every status is a range of the primary key).
 */
const OBJECT_PAGE_INDEXES = `
  CREATE INDEX canon_objects_status ON canon_objects (project, status, object_id);
  CREATE INDEX canon_objects_holder ON canon_objects (project, holder, status, object_id);
`;

/**
 * The range a page of an object's versions is read from for a principal, by holder in version
 * order (the operator's is the primary key's).
 */
const VERSION_PAGE_INDEX = `
  CREATE INDEX canon_versions_holder ON canon_versions (project, object_id, holder, version_id);
`;

/** The objects another superseded, by that object: only superseded ones are in it. */
const SUPERSEDED_INDEX = `
  CREATE INDEX canon_objects_superseded ON canon_objects (project, superseded_by, object_id)
    WHERE superseded_by IS NOT NULL;
`;

/**
 * The ranges a page of unclassified messages is read from, in capture order: partial indexes of the
 * messages marked `unclassified = 1`, by seq and by holder and seq, so a project's classified
 * messages are not in them at all.
 */
const UNCLASSIFIED_INDEXES = `
  CREATE INDEX canon_messages_unclassified ON canon_messages (project, seq) WHERE unclassified = 1;
  CREATE INDEX canon_messages_unclassified_holder ON canon_messages (project, holder, seq)
    WHERE unclassified = 1;
`;

/**
 * Fills the board's totals of `kind` from `table`'s rows: per project and status (`status` the
 * column, or '' where the table has none), the operator's (`all`), the project's (`holder` null:
 * `shared`) and each holder's (`personal`), as the projection keeps them (`counts.ts`).
 */
function countsFill(table: string, kind: string, status: 'status' | "''"): string {
  const by = status === 'status' ? ', status' : '';
  return `
    INSERT INTO canon_counts (project, scope, holder, kind, status, n)
      SELECT project, 'all', '', '${kind}', ${status}, COUNT(*) FROM ${table} GROUP BY project${by};
    INSERT INTO canon_counts (project, scope, holder, kind, status, n)
      SELECT project, CASE WHEN holder IS NULL THEN 'shared' ELSE 'personal' END,
        COALESCE(holder, ''), '${kind}', ${status}, COUNT(*)
      FROM ${table} GROUP BY project, holder${by};`;
}

/** The board's totals: one row per project, scope, holder, kind and status that holds any. */
const COUNTS_TABLE = `
  CREATE TABLE canon_counts (
    project TEXT NOT NULL,
    scope TEXT NOT NULL,
    holder TEXT NOT NULL,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (project, scope, holder, kind, status)
  );
  ${countsFill('canon_objects', 'object', 'status')}
  ${countsFill('canon_proposals', 'proposal', 'status')}
  ${countsFill('canon_artifacts', 'artifact', "''")}
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
    // Disputes keep every claim (§15): one row per object and claim, its latest state.
    name: 'canon-claims',
    up: `
      CREATE TABLE canon_claims (
        project TEXT NOT NULL,
        object_id TEXT NOT NULL,
        claim_id TEXT NOT NULL,
        state TEXT NOT NULL,
        seq BIGINT NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (project, object_id, claim_id)
      );
    `,
  },
  {
    // What became of each message's classification (`canon.classification`, and
    // `canon.classification_failed` while none has succeeded), and each project's classifier
    // subjects (`canon.classifier`). A store that held classifications before is rebuilt from its
    // journal on open (the canon projection's version changed), which fills them in.
    name: 'intake',
    up: INTAKE_TABLES,
  },
  {
    // The dependency graph: one row per edge, from a dependent (a note's current version or an
    // artifact's latest manifest) to the exact version of what it was made against, indexed both
    // ways; and the staleness a cascade left on a dependent (only flagged dependents have a row). A
    // store that held canon before is rebuilt from its journal on open (the projection's version).
    name: 'canon-graph',
    up: `
      CREATE TABLE canon_edges (
        project TEXT NOT NULL,
        from_kind TEXT NOT NULL,
        from_id TEXT NOT NULL,
        to_id TEXT NOT NULL,
        to_version TEXT NOT NULL,
        PRIMARY KEY (project, from_kind, from_id, to_id)
      );
      CREATE INDEX canon_edges_to ON canon_edges (project, to_id, from_kind, from_id);
      CREATE TABLE canon_dependency_states (
        project TEXT NOT NULL,
        kind TEXT NOT NULL,
        dependent_id TEXT NOT NULL,
        state TEXT NOT NULL,
        seq BIGINT NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (project, kind, dependent_id)
      );
    `,
  },
  {
    // Ids are listed, and the cascade walks edges, in byte order on every engine, also on a
    // PostgreSQL whose default collation is linguistic (there 'a_b' < 'a-b'): a board reads the
    // same, and a receipt names the same path, whichever engine holds canon (store README, "Text
    // order").
    name: 'canon-text-byte-order',
    up: textInByteOrder({
      canon_objects: ['object_id'],
      canon_claims: ['claim_id'],
      canon_artifacts: ['artifact_id'],
      canon_artifact_inputs: ['artifact_id'],
      canon_classifier: ['project'],
      canon_edges: ['from_kind', 'from_id', 'to_id'],
      canon_dependency_states: ['kind', 'dependent_id'],
    }),
  },
  {
    // The proposals on an object, without reading the project's: what the relay reads to find the
    // questions for a person an attempt at a window left (src/relay/escalation.ts).
    name: 'canon-proposals-by-object',
    up: 'CREATE INDEX canon_proposals_object ON canon_proposals (project, object_id)',
  },
  {
    // The pending proposals under an id prefix are read as a range of that index (the relay's
    // namespace of a session): the range must hold exactly the ids that start with the prefix,
    // which only byte order makes so.
    name: 'canon-proposals-object-byte-order',
    up: textInByteOrder({ canon_proposals: ['object_id'] }),
  },
  {
    // A page of a project's proposals (listProposals: after or before a seq, at most a limit) is
    // read as a range of this index, not by sorting the project's every proposal.
    name: 'canon-proposals-by-seq',
    up: 'CREATE INDEX canon_proposals_seq ON canon_proposals (project, seq)',
  },
  {
    // A page a principal reads is chosen by holder and status in SQL, each a range of an index
    // (page.ts): `holder` is the principal a personal proposal belongs to, null when the
    // project reads it. Filled here from the records (proposer and candidate are fixed at proposing),
    // as planes.ts reads them: a personal record without a proposer id is held by '', nobody.
    name: 'canon-proposals-holder',
    up: {
      sqlite: `
        ALTER TABLE canon_proposals ADD COLUMN holder TEXT;
        UPDATE canon_proposals SET holder = COALESCE(json_extract(record, '$.proposer.id'), '')
          WHERE json_extract(record, '$.candidate.visibility') = 'personal';
        ${PROPOSAL_PAGE_INDEXES}`,
      postgres: `
        ALTER TABLE canon_proposals ADD COLUMN holder TEXT;
        UPDATE canon_proposals SET holder = COALESCE(record::jsonb #>> '{proposer,id}', '')
          WHERE record::jsonb #>> '{candidate,visibility}' = 'personal';
        ${PROPOSAL_PAGE_INDEXES}`,
    },
  },
  {
    // A page of the archive is chosen as a page of proposals is: `holder` is the speaker of a
    // personal message, null for a project one (a message archived before messages had a
    // visibility is project).
    name: 'canon-messages-holder',
    up: {
      sqlite: `
        ALTER TABLE canon_messages ADD COLUMN holder TEXT;
        UPDATE canon_messages SET holder = json_extract(record, '$.actor')
          WHERE json_extract(record, '$.visibility') = 'personal';
        ${MESSAGE_PAGE_INDEXES}`,
      postgres: `
        ALTER TABLE canon_messages ADD COLUMN holder TEXT;
        UPDATE canon_messages SET holder = record::jsonb ->> 'actor'
          WHERE record::jsonb ->> 'visibility' = 'personal';
        ${MESSAGE_PAGE_INDEXES}`,
    },
  },
  {
    // A page of objects (listObjects: after an id, at most a limit) is chosen as a page of
    // proposals is, in id order: `holder` is the principal a personal object belongs to (its current
    // version's proposer, as planes.ts reads it; '' when it names none), null for a shared one.
    name: 'canon-objects-holder',
    up: {
      sqlite: `
        ALTER TABLE canon_objects ADD COLUMN holder TEXT;
        UPDATE canon_objects SET holder = COALESCE(json_extract(record, '$.authority_basis.proposer.id'), '')
          WHERE json_extract(record, '$.visibility') = 'personal';
        ${OBJECT_PAGE_INDEXES}`,
      postgres: `
        ALTER TABLE canon_objects ADD COLUMN holder TEXT;
        UPDATE canon_objects SET holder = COALESCE(record::jsonb #>> '{authority_basis,proposer,id}', '')
          WHERE record::jsonb ->> 'visibility' = 'personal';
        ${OBJECT_PAGE_INDEXES}`,
    },
  },
  {
    // A page of artifacts (listArtifacts: after an id, at most a limit) is chosen as a page of
    // objects is: `holder` is the principal an artifact citing a personal version belongs to (that
    // version's proposer; '' when a cited version is missing: nobody), null for a shared one, as
    // planes.ts's artifactAudience reads it from the first such version it cites.
    name: 'canon-artifacts-holder',
    up: {
      sqlite: `
        ALTER TABLE canon_artifacts ADD COLUMN holder TEXT;
        UPDATE canon_artifacts SET holder = (
          SELECT CASE WHEN v.record IS NULL THEN ''
            ELSE COALESCE(json_extract(v.record, '$.authority.proposer.id'), '') END
          FROM json_each(canon_artifacts.record, '$.canonical_note_versions') AS c
          LEFT JOIN canon_versions v ON v.project = canon_artifacts.project
            AND v.version_hash = json_extract(c.value, '$.version_hash')
          WHERE v.record IS NULL OR json_extract(v.record, '$.content.visibility') = 'personal'
          ORDER BY c.key LIMIT 1);
        CREATE INDEX canon_artifacts_holder ON canon_artifacts (project, holder, artifact_id);`,
      postgres: `
        ALTER TABLE canon_artifacts ADD COLUMN holder TEXT;
        UPDATE canon_artifacts a SET holder = (
          SELECT CASE WHEN v.record IS NULL THEN ''
            ELSE COALESCE(v.record::jsonb #>> '{authority,proposer,id}', '') END
          FROM jsonb_array_elements(a.record::jsonb -> 'canonical_note_versions')
            WITH ORDINALITY AS c(value, n)
          LEFT JOIN canon_versions v ON v.project = a.project
            AND v.version_hash = c.value ->> 'version_hash'
          WHERE v.record IS NULL OR v.record::jsonb #>> '{content,visibility}' = 'personal'
          ORDER BY c.n LIMIT 1);
        CREATE INDEX canon_artifacts_holder ON canon_artifacts (project, holder, artifact_id);`,
    },
  },
  {
    // The messages never classified (listUnclassified) are found by an index range, not by reading
    // the archive: `unclassified` is 1 while neither a classification nor a proposal citing the
    // message (one taken in before classifications were journaled) has been journaled, 0 after.
    // Filled here from the intake states and the proposals' records, as the projection keeps it.
    name: 'canon-messages-unclassified',
    up: {
      sqlite: `
        ALTER TABLE canon_messages ADD COLUMN unclassified INTEGER NOT NULL DEFAULT 0;
        UPDATE canon_messages SET unclassified = 1 WHERE NOT EXISTS (
          SELECT 1 FROM canon_intake i WHERE i.project = canon_messages.project
            AND i.message_id = canon_messages.message_id AND i.state = 'classified');
        UPDATE canon_messages SET unclassified = 0 WHERE unclassified = 1 AND (project, message_id) IN (
          SELECT project, json_extract(record, '$.message_id') FROM canon_proposals
          WHERE json_extract(record, '$.message_id') IS NOT NULL);
        ${UNCLASSIFIED_INDEXES}`,
      postgres: `
        ALTER TABLE canon_messages ADD COLUMN unclassified INTEGER NOT NULL DEFAULT 0;
        UPDATE canon_messages m SET unclassified = 1 WHERE NOT EXISTS (
          SELECT 1 FROM canon_intake i WHERE i.project = m.project
            AND i.message_id = m.message_id AND i.state = 'classified');
        UPDATE canon_messages m SET unclassified = 0 FROM canon_proposals p
          WHERE m.unclassified = 1 AND p.project = m.project
            AND p.record::jsonb ->> 'message_id' = m.message_id;
        ${UNCLASSIFIED_INDEXES}`,
    },
  },
  {
    // A page of an object's versions (listVersions) is chosen as a page of objects is, in version
    // order within the object: `holder` is the principal a personal version belongs to (its
    // proposer, as planes.ts reads it; '' when it names none), null for a shared one.
    name: 'canon-versions-holder',
    up: {
      sqlite: `
        ALTER TABLE canon_versions ADD COLUMN holder TEXT;
        UPDATE canon_versions SET holder = COALESCE(json_extract(record, '$.authority.proposer.id'), '')
          WHERE json_extract(record, '$.content.visibility') = 'personal';
        ${VERSION_PAGE_INDEX}`,
      postgres: `
        ALTER TABLE canon_versions ADD COLUMN holder TEXT;
        UPDATE canon_versions SET holder = COALESCE(record::jsonb #>> '{authority,proposer,id}', '')
          WHERE record::jsonb #>> '{content,visibility}' = 'personal';
        ${VERSION_PAGE_INDEX}`,
    },
  },
  {
    // What an object replaced (the provenance walk, §8) is read by an index of the objects it
    // superseded, not from the proposals of every version it has had.
    name: 'canon-objects-superseded-by',
    up: {
      sqlite: `
        ALTER TABLE canon_objects ADD COLUMN superseded_by TEXT;
        UPDATE canon_objects SET superseded_by = json_extract(record, '$.superseded_by')
          WHERE json_extract(record, '$.superseded_by') IS NOT NULL;
        ${SUPERSEDED_INDEX}`,
      postgres: `
        ALTER TABLE canon_objects ADD COLUMN superseded_by TEXT;
        UPDATE canon_objects SET superseded_by = record::jsonb ->> 'superseded_by'
          WHERE record::jsonb ->> 'superseded_by' IS NOT NULL;
        ${SUPERSEDED_INDEX}`,
    },
  },
  {
    // The board's totals are read from a handful of kept counts, not counted over index ranges
    // that grow with the project: filled here from the rows the store holds, kept by the projection
    // from then on (counts.ts).
    name: 'canon-counts',
    up: COUNTS_TABLE,
  },
  {
    // The process's index of the current canon (current-index.ts) catches up by the objects written
    // after the last entry it saw, not by reading every current object again for each message.
    name: 'canon-objects-seq',
    up: 'CREATE INDEX canon_objects_seq ON canon_objects (project, seq);',
  },
];
