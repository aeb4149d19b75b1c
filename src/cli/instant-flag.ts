import { CanonryError } from '../core/index.js';

/** An RFC 3339 date-time with seconds and an offset: a time without one would be read in the local zone. */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/**
 * Reads an instant given on the command line (`--at 2030-01-31T00:00:00Z`); INVALID_ARGUMENT naming
 * the flag for anything else, including a calendar date that does not exist (2030-02-30).
 */
export function parseInstantFlag(value: string, flag: string): Date {
  const parts = DATE_TIME.exec(value);
  const [y, m, d] = (parts ?? []).slice(1, 4).map(Number) as [number, number, number];
  const day = parts ? new Date(Date.UTC(y, m - 1, d)) : null;
  const at = new Date(value);
  if (!day || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d || Number.isNaN(at.getTime())) {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      `${flag} must be an RFC 3339 date-time with an offset, e.g. 2030-01-31T00:00:00Z`,
    );
  }
  return at;
}
