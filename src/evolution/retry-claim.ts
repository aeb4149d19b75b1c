import type { Store } from '../store/index.js';
import { NOW_MS } from './lease.js';

/** A claim held on one dead letter's retry: renewed while the retry runs, then settled. */
export interface RetryClaim {
  /** The seq of the dead-letter delivery this claim retries. */
  readonly deadSeq: number;
  /** Keeps it from expiring while the retry runs. */
  renew(): Promise<void>;
  /** The retry's outcome is journaled: nobody retries this dead letter again. */
  finish(): Promise<void>;
  /** Nothing was journaled (a stop cut the retry short): anyone may retry it again. */
  release(): Promise<void>;
}

/** An expiry no clock reaches: a claim whose retry journaled its outcome. */
const SETTLED = Number.MAX_SAFE_INTEGER;

/**
 * Claims on dead-letter retries, one per (project, event, target) in `evolution_retry_claims`,
 * shared by every process on the database. A claim is taken in one statement that also reads the
 * delivery's latest state: it names the dead letter's seq and is taken only while that delivery
 * is still the dead letter, and only when no claim holds that dead letter — none yet, one for an
 * older dead letter (its retry ended and the delivery died again), or one that expired (its holder
 * died mid-retry). The statement's row lock orders concurrent takers, so exactly one wins. A
 * settled claim never expires, so a process that read the dead letter before the winner journaled
 * the outcome cannot take it later; the expiry is the database's clock.
 */
export class RetryClaims {
  readonly #store: Store;
  readonly #holder: string;
  readonly ttlMs: number;

  constructor(store: Store, holder: string, ttlMs = 30_000) {
    this.#store = store;
    this.#holder = holder;
    this.ttlMs = ttlMs;
  }

  /** The claim on the delivery's dead letter, or null: not a dead letter now, or claimed. */
  async claim(project: string, eventId: string, target: string): Promise<RetryClaim | null> {
    const now = NOW_MS[this.#store.capabilities.dialect];
    const rows = await this.#store.all<{ dead_seq: number | string }>(
      `INSERT INTO evolution_retry_claims (project, event_id, target, dead_seq, holder, expires_at)
       SELECT d.project, d.event_id, d.target, d.seq, $4, ${now} + $5
       FROM evolution_deliveries d
       WHERE d.project = $1 AND d.event_id = $2 AND d.target = $3 AND d.outcome = 'dead_letter'
       ON CONFLICT (project, event_id, target) DO UPDATE SET
         dead_seq = excluded.dead_seq, holder = excluded.holder, expires_at = excluded.expires_at
       WHERE evolution_retry_claims.dead_seq < excluded.dead_seq
          OR (evolution_retry_claims.dead_seq = excluded.dead_seq
              AND evolution_retry_claims.expires_at <= ${now})
       RETURNING dead_seq`,
      [project, eventId, target, this.#holder, this.ttlMs],
    );
    const [row] = rows;
    if (row === undefined) return null;
    const deadSeq = Number(row.dead_seq);
    const mine = 'project = $1 AND event_id = $2 AND target = $3 AND dead_seq = $4 AND holder = $5';
    const key = [project, eventId, target, deadSeq, this.#holder];
    return {
      deadSeq,
      renew: async () => {
        await this.#store.run(
          `UPDATE evolution_retry_claims SET expires_at = ${now} + $6
           WHERE ${mine} AND expires_at < $7`,
          [...key, this.ttlMs, SETTLED],
        );
      },
      finish: async () => {
        await this.#store.run(`UPDATE evolution_retry_claims SET expires_at = $6 WHERE ${mine}`, [
          ...key,
          SETTLED,
        ]);
      },
      release: async () => {
        await this.#store.run(
          `UPDATE evolution_retry_claims SET expires_at = 0 WHERE ${mine}`,
          key,
        );
      },
    };
  }
}
