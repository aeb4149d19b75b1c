import { type ErrorCode, isCanonryError } from '../core/index.js';

/**
 * The store's failures that pass on their own, so the same work may succeed later: the database out
 * of reach (`STORE_UNAVAILABLE`: a restart, a network outage, a silent server, no free connection
 * slot), a lock held past the timeout (`STORE_BUSY`), no space left (`STORE_FULL`: an operator frees
 * it). Each leaves nothing half-written.
 */
const TRANSIENT: ReadonlySet<ErrorCode> = new Set([
  'STORE_UNAVAILABLE',
  'STORE_BUSY',
  'STORE_FULL',
]);

/**
 * Whether `err` is a store failure worth trying again later, after a pause (see {@link TRANSIENT}).
 * Anything else is not, and trying again would fail the same way: a constraint or a conflict
 * (`CONFLICT`), a bad argument or entry, corrupt data, and any value that is not a `CanonryError`
 * (the store translates the failures it expects; a raw driver error is a bug). It says the store's
 * condition, not whether a write is safe to repeat: a `STORE_UNAVAILABLE` whose `details.outcome`
 * is `'unknown'` may have committed, so only a write that is idempotent, or whose duplicate is
 * harmless, should be sent again after one.
 */
export function isTransientStoreError(err: unknown): boolean {
  return isCanonryError(err) && TRANSIENT.has(err.code);
}

/**
 * Whether `err` says a write may or may not have committed (`details.outcome: 'unknown'`: a COMMIT
 * or an autocommit statement whose answer was lost, a writer thread that died mid-batch).
 */
export function isUnknownOutcome(err: unknown): boolean {
  return isCanonryError(err) && err.details?.outcome === 'unknown';
}
