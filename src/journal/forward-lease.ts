import type { Queryable } from '../store/index.js';

/**
 * Who leads a contended project (append-forwarded.ts): one row per project in `journal_leaders`,
 * a lease. A process claims it when it finds none or an expired one, renews it while it appends,
 * and lets it lapse when it stops. The lease only says where to send appends; it guards nothing:
 * any process may append at any time, the chain's compare-and-set keeps it whole, and a forwarded
 * entry's id keeps it single.
 */

/** How long a lease lasts from its last renewal. */
export const LEASE_MS = 3_000;

/** The lease of a project as read: who holds it, where, with what token, for how long still. */
export interface Lease {
  readonly holder: string;
  readonly address: string;
  readonly token: string;
  /** Milliseconds left when it was read. */
  readonly ms: number;
}

/**
 * Claims the project's lease for `holder` when it is free, expired or already `holder`'s (a
 * renewal), and in the same statement reads it: the lease as it stands afterwards.
 */
const CLAIM = `WITH claimed AS (
    INSERT INTO journal_leaders AS l (project, holder, address, token, until)
    VALUES ($1, $2, $3, $4, clock_timestamp() + $5::integer * interval '1 millisecond')
    ON CONFLICT (project) DO UPDATE
      SET holder = EXCLUDED.holder, address = EXCLUDED.address, token = EXCLUDED.token,
          until = EXCLUDED.until
      WHERE l.until < clock_timestamp() OR l.holder = EXCLUDED.holder
    RETURNING holder, address, token, $5::integer AS ms
  )
  SELECT holder, address, token, ms FROM claimed
  UNION ALL
  SELECT holder, address, token,
      GREATEST(0, (EXTRACT(EPOCH FROM until - clock_timestamp()) * 1000)::integer) AS ms
    FROM journal_leaders WHERE project = $1 AND NOT EXISTS (SELECT 1 FROM claimed)`;

const RELEASE = 'DELETE FROM journal_leaders WHERE project = $1 AND holder = $2';

/** Claims or renews the lease of `project` for `holder` (at `address`, with `token`); returns it. */
export async function claimLease(
  db: Pick<Queryable, 'all'>,
  project: string,
  holder: string,
  address: string,
  token: string,
): Promise<Lease | undefined> {
  const rows = await db.all<{ holder: string; address: string; token: string; ms: number }>(CLAIM, [
    project,
    holder,
    address,
    token,
    LEASE_MS,
  ]);
  const row = rows[0];
  if (!row) return undefined;
  return { holder: row.holder, address: row.address, token: row.token, ms: Number(row.ms) };
}

/** Gives a lease up (on close), if `holder` still has it. */
export async function releaseLease(
  db: Pick<Queryable, 'run'>,
  project: string,
  holder: string,
): Promise<void> {
  await db.run(RELEASE, [project, holder]);
}
