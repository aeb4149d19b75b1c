import { type Migration, textInByteOrder } from '../store/index.js';

/**
 * Evolution's tables. `evolution_events` and `evolution_deliveries` are projections of
 * `evolution.event` and `evolution.delivery` entries (rebuilt by replay; `record` holds canonical
 * JSON; `pending` counts the targets an event was routed to that have no delivery yet).
 * `evolution_cursors` is the coordinator's own state, not a projection: how far it has
 * turned each followed project's entries into events (the canary collector keeps its own there,
 * as coordinator `canary`). `evolution_promotions` is a projection of `evolution.promotion`
 * entries: each promotion's stage, candidate and latest step (`step_seq`), so what is in force
 * for a project is one query across every project's promotions (`promotion-activation.ts`). `evolution_admissions` is a
 * projection of `evolution.admission` entries: which projects a project admits promotions from
 * (`admitted` 1) or has withdrawn that from (0), as its latest entry says. `evolution_leases` says
 * which process's coordinator dispatches (not a projection). `evolution_finished_promotions` is the
 * promotion runner's own store of finished (rejected, rolled back) promotions' states, so it keeps
 * only live ones in memory: not a projection, refilled by any runner's fold of the journal.
 * `evolution_retry_claims` says which process retries each dead letter (not a projection).
 */
export const EVOLUTION_MIGRATIONS: readonly Migration[] = [
  {
    name: 'evolution',
    up: `
      CREATE TABLE evolution_events (
        project TEXT NOT NULL,
        event_id TEXT NOT NULL,
        seq BIGINT NOT NULL,
        event_type TEXT NOT NULL,
        class TEXT NOT NULL,
        schema_version TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        pending BIGINT NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (project, event_id)
      );
      CREATE INDEX evolution_events_seq ON evolution_events (project, seq);
      CREATE INDEX evolution_events_pending ON evolution_events (project, pending);
      CREATE TABLE evolution_deliveries (
        project TEXT NOT NULL,
        event_id TEXT NOT NULL,
        target TEXT NOT NULL,
        outcome TEXT NOT NULL,
        attempts BIGINT NOT NULL,
        code TEXT,
        reason TEXT,
        record TEXT,
        seq BIGINT NOT NULL,
        PRIMARY KEY (project, event_id, target)
      );
      CREATE INDEX evolution_deliveries_outcome ON evolution_deliveries (project, outcome, seq);
      CREATE TABLE evolution_cursors (
        coordinator TEXT NOT NULL,
        project TEXT NOT NULL,
        seq BIGINT NOT NULL,
        PRIMARY KEY (coordinator, project)
      );
    `,
  },
  {
    name: 'evolution-promotions',
    up: `
      CREATE TABLE evolution_promotions (
        project TEXT NOT NULL,
        promotion_id TEXT NOT NULL,
        artifact_kind TEXT NOT NULL,
        stage TEXT NOT NULL,
        address TEXT NOT NULL,
        since TEXT NOT NULL,
        seq BIGINT NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (project, promotion_id)
      );
      CREATE INDEX evolution_promotions_stage ON evolution_promotions (artifact_kind, stage);
    `,
  },
  {
    name: 'evolution-admissions',
    up: `
      CREATE TABLE evolution_admissions (
        project TEXT NOT NULL,
        from_project TEXT NOT NULL,
        admitted INTEGER NOT NULL,
        seq BIGINT NOT NULL,
        PRIMARY KEY (project, from_project)
      );
      CREATE INDEX evolution_admissions_from ON evolution_admissions (from_project, admitted);
    `,
  },
  {
    // The coordinator's lease: one holder dispatches per database (`lease.ts`); not a projection.
    name: 'evolution-leases',
    up: `
      CREATE TABLE evolution_leases (
        name TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        expires_at BIGINT NOT NULL
      );
    `,
  },
  {
    // Deliveries by target and admissions by project list in byte order on every engine, also on a
    // PostgreSQL whose default collation is linguistic (store README, "Text order").
    name: 'evolution-text-byte-order',
    up: textInByteOrder({
      evolution_deliveries: ['target'],
      evolution_admissions: ['from_project'],
    }),
  },
  {
    // A finished promotion's state (JSON) never changes: the runner writes it once and reads it back.
    name: 'evolution-finished-promotions',
    up: `
      CREATE TABLE evolution_finished_promotions (
        project TEXT NOT NULL,
        promotion_id TEXT NOT NULL,
        proposed_seq BIGINT NOT NULL,
        state TEXT NOT NULL,
        PRIMARY KEY (project, promotion_id)
      );
      CREATE INDEX evolution_finished_promotions_order
        ON evolution_finished_promotions (project, proposed_seq);
    `,
  },
  {
    // The seq of each promotion's latest step, observations included (projection version 4): the
    // runner's steps conflict with that promotion's own steps, not with every entry of the project.
    name: 'evolution-promotion-step-seq',
    up: 'ALTER TABLE evolution_promotions ADD COLUMN step_seq BIGINT NOT NULL DEFAULT 0',
  },
  {
    // Who retries each dead letter (`retry-claim.ts`): one process per dead letter; not a projection.
    name: 'evolution-retry-claims',
    up: `
      CREATE TABLE evolution_retry_claims (
        project TEXT NOT NULL,
        event_id TEXT NOT NULL,
        target TEXT NOT NULL,
        dead_seq BIGINT NOT NULL,
        holder TEXT NOT NULL,
        expires_at BIGINT NOT NULL,
        PRIMARY KEY (project, event_id, target)
      );
    `,
  },
];
