import { canonicalize } from '../core/index.js';
import type { JournalEntry, Projection } from '../journal/index.js';
import type { Queryable } from '../store/index.js';
import { ADMISSION_ENTRY } from './admission.js';
import { EVOLUTION_DELIVERY, EVOLUTION_EVENT } from './entry-kinds.js';
import { PROMOTION_ENTRY } from './promotion-entry-kind.js';
import { artifactAddress } from './promotion-machine.js';
import type { PromotionStage, PromotionStep } from './promotion-types.js';

/** The stage a step leaves a promotion at; null for an observation (it changes no stage). */
function stageAfter(step: PromotionStep): PromotionStage | null {
  switch (step.step) {
    case 'propose':
      return 'candidate';
    case 'validate':
      return step.passed ? 'validated' : 'rejected';
    case 'check':
      return step.passed ? 'checked' : 'rejected';
    case 'publish':
      return 'published';
    case 'canary':
      return 'canary';
    case 'promote':
      return 'promoted';
    case 'roll_back':
      return 'rolled_back';
    case 'observe':
      return null;
  }
}

/**
 * A promotion step: its stage and since when (every step was accepted by the state machine when
 * it was appended, so the stage is the step's alone).
 */
async function applyPromotion(tx: Queryable, entry: JournalEntry): Promise<void> {
  const { promotion_id, step } = PROMOTION_ENTRY.body(entry);
  const stage = stageAfter(step);
  if (step.step === 'propose') {
    await tx.run(
      `INSERT INTO evolution_promotions
         (project, promotion_id, artifact_kind, stage, address, since, seq, record, step_seq)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $7)`,
      [
        entry.project,
        promotion_id,
        step.candidate.artifact_kind,
        stage,
        artifactAddress(step.candidate),
        entry.at,
        entry.seq,
        canonicalize(step.candidate),
      ],
    );
    return;
  }
  // Every step, an observation too, moves `step_seq`: the runner decides a step on the state as
  // of a seq and takes it only if this promotion has had no step since.
  if (stage === null) {
    await tx.run(
      'UPDATE evolution_promotions SET step_seq = $3 WHERE project = $1 AND promotion_id = $2',
      [entry.project, promotion_id, entry.seq],
    );
    return;
  }
  await tx.run(
    `UPDATE evolution_promotions SET stage = $3, since = $4, seq = $5, step_seq = $5
     WHERE project = $1 AND promotion_id = $2`,
    [entry.project, promotion_id, stage, entry.at, entry.seq],
  );
}

async function apply(tx: Queryable, entry: JournalEntry): Promise<void> {
  if (PROMOTION_ENTRY.is(entry)) {
    await applyPromotion(tx, entry);
  } else if (ADMISSION_ENTRY.is(entry)) {
    const { from_project, admitted } = entry.body;
    await tx.run(
      `INSERT INTO evolution_admissions (project, from_project, admitted, seq)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (project, from_project) DO UPDATE SET
         admitted = excluded.admitted, seq = excluded.seq`,
      [entry.project, from_project, admitted ? 1 : 0, entry.seq],
    );
  } else if (EVOLUTION_EVENT.is(entry)) {
    const { event, origin, targets } = entry.body;
    await tx.run(
      `INSERT INTO evolution_events
         (project, event_id, seq, event_type, class, schema_version, created_at, pending, record)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        entry.project,
        event.event_id,
        entry.seq,
        event.event_type,
        origin.kind,
        event.schema_version,
        event.created_at,
        targets.length,
        canonicalize(entry.body),
      ],
    );
  } else if (EVOLUTION_DELIVERY.is(entry)) {
    const d = entry.body;
    // The first delivery of an event to a target settles one of its pending targets; a retry
    // replaces the delivery and settles nothing more.
    await tx.run(
      `UPDATE evolution_events SET pending = pending - 1
       WHERE project = $1 AND event_id = $2 AND pending > 0 AND NOT EXISTS (
         SELECT 1 FROM evolution_deliveries
         WHERE project = $1 AND event_id = $2 AND target = $3)`,
      [entry.project, d.event_id, d.target],
    );
    await tx.run(
      `INSERT INTO evolution_deliveries
         (project, event_id, target, outcome, attempts, code, reason, record, seq)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (project, event_id, target) DO UPDATE SET
         outcome = excluded.outcome, attempts = excluded.attempts, code = excluded.code,
         reason = excluded.reason, record = excluded.record, seq = excluded.seq`,
      [
        entry.project,
        d.event_id,
        d.target,
        d.outcome,
        d.attempts,
        d.code,
        d.reason,
        d.record === null ? null : canonicalize(d.record),
        entry.seq,
      ],
    );
  }
}

/**
 * Evolution's projection: stored events by id (so `list` and `get` read one indexed table) and
 * each event's latest delivery per target (dead letters among them); each promotion's stage
 * (version 2), so what is in force for a project is read across projects in one query; and which
 * projects each project admits promotions from (version 3); each promotion's latest step, an
 * observation included (`step_seq`, version 4).
 */
export const EVOLUTION_PROJECTION: Projection = {
  name: 'evolution',
  kinds: [
    EVOLUTION_EVENT.kind,
    EVOLUTION_DELIVERY.kind,
    PROMOTION_ENTRY.kind,
    ADMISSION_ENTRY.kind,
  ],
  tables: [
    'evolution_events',
    'evolution_deliveries',
    'evolution_promotions',
    'evolution_admissions',
  ],
  version: 4,
  apply,
};
