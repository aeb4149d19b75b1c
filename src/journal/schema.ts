import type { Migration } from '../store/index.js';

/** The journal's tables, in order. Never edit or reorder a migration that has shipped: append. */
export const JOURNAL_MIGRATIONS: readonly Migration[] = [
  {
    name: 'journal',
    up: `
      CREATE TABLE journal_entries (
        project TEXT NOT NULL,
        seq BIGINT NOT NULL,
        format INTEGER NOT NULL,
        at TEXT NOT NULL,
        kind TEXT NOT NULL,
        body TEXT NOT NULL,
        actor TEXT NOT NULL,
        authority TEXT NOT NULL,
        correlation_id TEXT,
        idempotency_key TEXT,
        receipt TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL,
        PRIMARY KEY (project, seq)
      );
      CREATE UNIQUE INDEX journal_entries_idempotency
        ON journal_entries (project, idempotency_key) WHERE idempotency_key IS NOT NULL;
      CREATE TABLE journal_heads (
        project TEXT PRIMARY KEY,
        seq BIGINT NOT NULL,
        hash TEXT NOT NULL
      );
      CREATE TABLE journal_checkpoints (
        project TEXT NOT NULL,
        seq BIGINT NOT NULL,
        checkpoint TEXT NOT NULL,
        PRIMARY KEY (project, seq)
      );
    `,
  },
  {
    // A pruned prefix (the kernel's audit, past its retention) leaves this anchor: the chain now
    // starts after `seq`, whose hash a checkpoint signed before the rows were deleted.
    name: 'bases',
    up: `
      CREATE TABLE journal_bases (
        project TEXT PRIMARY KEY,
        seq BIGINT NOT NULL,
        hash TEXT NOT NULL,
        checkpoint TEXT NOT NULL
      );
    `,
  },
  {
    // Which version of each projection wrote its tables (see Projection.version).
    name: 'projection_versions',
    up: `
      CREATE TABLE journal_projection_versions (
        name TEXT PRIMARY KEY,
        version BIGINT NOT NULL
      );
    `,
  },
  {
    // The live feed across processes (follow.ts): a head that moves tells every process listening on
    // `canonry_journal`, as `<project>:<seq>`, when its transaction commits — whichever path moved it
    // (the one-statement append, a batch, another canonry). SQLite has no NOTIFY: followers there are
    // woken in process, and poll for writers in other processes.
    name: 'head_notify',
    up: {
      postgres: `
        CREATE FUNCTION canonry_journal_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_notify('canonry_journal', NEW.project || ':' || NEW.seq);
          RETURN NULL;
        END
        $$;
        CREATE TRIGGER journal_heads_notify AFTER INSERT OR UPDATE OF seq ON journal_heads
          FOR EACH ROW EXECUTE FUNCTION canonry_journal_notify();
      `,
      sqlite: 'SELECT 1',
    },
  },
];
