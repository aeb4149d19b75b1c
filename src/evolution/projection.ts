import { canonicalize } from '../core/index.js';
import type { JournalEntry, Projection } from '../journal/index.js';
import type { Queryable } from '../store/index.js';
import { EVOLUTION_DELIVERY, EVOLUTION_EVENT } from './entry-kinds.js';

async function apply(tx: Queryable, entry: JournalEntry): Promise<void> {
  if (EVOLUTION_EVENT.is(entry)) {
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
 * each event's latest delivery per target (dead letters among them).
 */
export const EVOLUTION_PROJECTION: Projection = {
  name: 'evolution',
  kinds: [EVOLUTION_EVENT.kind, EVOLUTION_DELIVERY.kind],
  tables: ['evolution_events', 'evolution_deliveries'],
  version: 1,
  apply,
};
