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
];
