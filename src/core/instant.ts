/** An RFC 3339 date-time with seconds and an offset: a time without one would be read in the local zone. */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/**
 * The instant an RFC 3339 date-time names (`2030-01-31T00:00:00Z`), or null for anything else,
 * including a calendar date that does not exist (2030-02-30), which `Date` would roll over.
 */
export function parseInstant(value: string): Date | null {
  const parts = DATE_TIME.exec(value);
  if (!parts) return null;
  const [y, m, d] = parts.slice(1, 4).map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  const at = new Date(value);
  if (day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d || Number.isNaN(at.getTime())) {
    return null;
  }
  return at;
}
