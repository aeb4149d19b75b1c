import { CanonryError } from '../core/index.js';
import type { Queryable } from '../store/index.js';
import type { DeliveryBody, DeliveryOutcome, EventEntryBody } from './entry-kinds.js';
import type { EvolutionIssue } from './issues.js';
import type { QualifiedEventVerifier } from './verify-event.js';

/** One stored event as listed: its identity and class, without its body. */
export interface StoredEventRow {
  readonly event_id: string;
  readonly seq: number;
  readonly event_type: string;
  readonly class: string;
  readonly schema_version: string;
  readonly created_at: number;
  readonly pending: number;
}

/** A stored event: the entry's body and where it is in the chain. */
export interface StoredEvent extends EventEntryBody {
  readonly seq: number;
  readonly deliveries: readonly StoredDelivery[];
}

export interface StoredDelivery extends DeliveryBody {
  readonly seq: number;
}

/** Filters for {@link EventStore.list}. */
export interface EventFilter {
  readonly event_type?: string;
  /** The kind of entry the events came from, by name: any version of it (`relay.window`). */
  readonly class?: string;
  /** Events after this seq. */
  readonly after?: number;
  /** Events before this seq. */
  readonly before?: number;
  readonly limit?: number;
  /** `newest`: the latest first (a page ending at `before`); `oldest` (the default): journal order. */
  readonly order?: 'oldest' | 'newest';
}

/** What `verify` found: every event of the page checked, and each that failed with its first issue. */
export interface EventsReport {
  readonly project: string;
  readonly checked: number;
  readonly verified: number;
  readonly failed: readonly {
    readonly event_id: string;
    readonly seq: number;
    readonly issue: EvolutionIssue;
  }[];
  /** The seq to continue from (`after`) when the project holds events past this page; else null. */
  readonly next: number | null;
}

/** Most events one {@link EventStore.verify} call checks (and its default). */
export const MAX_VERIFY_PAGE = 256;

interface EventRow {
  event_id: string;
  seq: number | string;
  event_type: string;
  class: string;
  schema_version: string;
  created_at: number | string;
  pending: number | string;
}

interface DeliveryRow {
  event_id: string;
  target: string;
  outcome: DeliveryOutcome;
  attempts: number | string;
  code: string | null;
  reason: string | null;
  record: string | null;
  seq: number | string;
}

const DELIVERY_COLUMNS = 'event_id, target, outcome, attempts, code, reason, record, seq';

/**
 * Reads evolution's projection: events by id and by seq, their deliveries, dead letters. Every
 * statement binds the project.
 */
export class EventStore {
  constructor(private readonly db: Queryable) {}

  async list(project: string, filter: EventFilter = {}): Promise<StoredEventRow[]> {
    const where = ['project = $1', 'seq > $2'];
    const params: (string | number)[] = [project, filter.after ?? 0];
    if (filter.before !== undefined) {
      params.push(filter.before);
      where.push(`seq < $${params.length}`);
    }
    if (filter.event_type !== undefined) {
      params.push(filter.event_type);
      where.push(`event_type = $${params.length}`);
    }
    if (filter.class !== undefined) {
      // A kind's name stands for every version of it: `relay.window` is stored as `relay.window.v2`.
      params.push(filter.class);
      const k = `$${params.length}`;
      where.push(`(class = ${k} OR substr(class, 1, length(${k}) + 2) = ${k} || '.v')`);
    }
    params.push(Math.min(Math.max(filter.limit ?? 100, 1), 1_000));
    const rows = await this.db.all<EventRow>(
      `SELECT event_id, seq, event_type, class, schema_version, created_at, pending
       FROM evolution_events WHERE ${where.join(' AND ')}
       ORDER BY seq ${filter.order === 'newest' ? 'DESC' : 'ASC'} LIMIT $${params.length}`,
      params,
    );
    return rows.map((r) => ({
      event_id: r.event_id,
      seq: Number(r.seq),
      event_type: r.event_type,
      class: r.class,
      schema_version: r.schema_version,
      created_at: Number(r.created_at),
      pending: Number(r.pending),
    }));
  }

  /** The stored event and its deliveries; UNKNOWN_EVENT when the project has none by that id. */
  async get(project: string, eventId: string): Promise<StoredEvent> {
    const [row] = await this.db.all<{ seq: number | string; record: string }>(
      'SELECT seq, record FROM evolution_events WHERE project = $1 AND event_id = $2',
      [project, eventId],
    );
    if (!row) {
      throw new CanonryError('UNKNOWN_EVENT', `no event ${eventId.slice(0, 64)} in ${project}`, {
        event_id: eventId.slice(0, 64),
      });
    }
    const body = JSON.parse(row.record) as EventEntryBody;
    return { ...body, seq: Number(row.seq), deliveries: await this.deliveries(project, eventId) };
  }

  async deliveries(project: string, eventId: string): Promise<StoredDelivery[]> {
    const rows = await this.db.all<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM evolution_deliveries
       WHERE project = $1 AND event_id = $2 ORDER BY target`,
      [project, eventId],
    );
    return rows.map(deliveryOf);
  }

  /** Deliveries whose attempts ran out, oldest first. */
  async deadLetters(project: string, after = 0, limit = 100): Promise<StoredDelivery[]> {
    const rows = await this.db.all<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM evolution_deliveries
       WHERE project = $1 AND outcome = 'dead_letter' AND seq > $2 ORDER BY seq LIMIT $3`,
      [project, after, Math.min(Math.max(limit, 1), 1_000)],
    );
    return rows.map(deliveryOf);
  }

  /** Events with a routed target not yet delivered to (a dispatch a stop cut short). */
  async undelivered(project: string, limit = 100): Promise<StoredEvent[]> {
    const rows = await this.db.all<{ event_id: string }>(
      'SELECT event_id FROM evolution_events WHERE project = $1 AND pending > 0 ORDER BY seq LIMIT $2',
      [project, limit],
    );
    return Promise.all(rows.map((r) => this.get(project, r.event_id)));
  }

  /**
   * Checks the project's stored events after `after`, at most `limit` ({@link MAX_VERIFY_PAGE}) of
   * them in journal order: schema, effective policy hash, signature from the pinned root, and linkage
   * to its stored sources (their policies bound, its governance no wider). Each event costs a
   * signature check and its governance, synchronously, so one call is one bounded page: `next` says
   * where the following page starts, null once the project holds no later event.
   */
  async verify(
    project: string,
    verifier: QualifiedEventVerifier,
    page: { readonly after?: number; readonly limit?: number } = {},
  ): Promise<EventsReport> {
    const failed: { event_id: string; seq: number; issue: EvolutionIssue }[] = [];
    const limit = Math.min(Math.max(page.limit ?? MAX_VERIFY_PAGE, 1), MAX_VERIFY_PAGE);
    let after = page.after ?? 0;
    const rows = await this.db.all<{ event_id: string; seq: number | string; record: string }>(
      `SELECT event_id, seq, record FROM evolution_events
       WHERE project = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [project, after, limit],
    );
    for (const row of rows) {
      after = Number(row.seq);
      const body = JSON.parse(row.record) as EventEntryBody;
      const result = verifier.verify(body.event, { sources: body.sources });
      if (!result.ok) failed.push({ event_id: row.event_id, seq: after, issue: result.issues[0]! });
    }
    const checked = rows.length;
    if (checked < limit)
      return { project, checked, verified: checked - failed.length, failed, next: null };
    const [more] = await this.db.all<{ seq: number | string }>(
      'SELECT seq FROM evolution_events WHERE project = $1 AND seq > $2 ORDER BY seq LIMIT 1',
      [project, after],
    );
    return {
      project,
      checked,
      verified: checked - failed.length,
      failed,
      next: more === undefined ? null : after,
    };
  }
}

function deliveryOf(r: DeliveryRow): StoredDelivery {
  return {
    event_id: r.event_id,
    target: r.target,
    outcome: r.outcome,
    attempts: Number(r.attempts),
    code: r.code,
    reason: r.reason,
    record: r.record === null ? null : JSON.parse(r.record),
    seq: Number(r.seq),
  };
}
