import { CanonryError, parseInstant } from '../core/index.js';

/**
 * Reads an instant given on the command line (`--at 2030-01-31T00:00:00Z`); INVALID_ARGUMENT naming
 * the flag for anything else, including a calendar date that does not exist (2030-02-30).
 */
export function parseInstantFlag(value: string, flag: string): Date {
  const at = parseInstant(value);
  if (at === null) {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      `${flag} must be an RFC 3339 date-time with an offset, e.g. 2030-01-31T00:00:00Z`,
    );
  }
  return at;
}
