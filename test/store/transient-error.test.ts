// The one rule for which store failures are worth retrying later (`isTransientStoreError`): the
// database out of reach, locked or full is; every other code, and anything not a CanonryError, is not.
import { describe, expect, it } from 'vitest';
import { CanonryError, ERROR_CODES, type ErrorCode } from '../../src/core/index.js';
import { isTransientStoreError } from '../../src/store/index.js';

const TRANSIENT: readonly ErrorCode[] = ['STORE_UNAVAILABLE', 'STORE_BUSY', 'STORE_FULL'];

describe('isTransientStoreError', () => {
  it('is true for a database out of reach, locked or full, also when the outcome is unknown', () => {
    for (const code of TRANSIENT) {
      expect(isTransientStoreError(new CanonryError(code)), code).toBe(true);
    }
    const lostCommit = new CanonryError('STORE_UNAVAILABLE', 'the connection dropped', {
      outcome: 'unknown',
    });
    expect(isTransientStoreError(lostCommit)).toBe(true);
  });

  it('is false for every other code: a conflict, a bad argument or entry, corrupt data, a bug', () => {
    const others = (Object.keys(ERROR_CODES) as ErrorCode[]).filter((c) => !TRANSIENT.includes(c));
    expect(others).toEqual(
      expect.arrayContaining([
        'CONFLICT',
        'INVALID_ARGUMENT',
        'INVALID_ENTRY',
        'STORE_CORRUPT',
        'STORE_MISMATCH',
        'CHAIN_BROKEN',
        'INTERNAL',
      ]),
    );
    for (const code of others) {
      expect(isTransientStoreError(new CanonryError(code)), code).toBe(false);
    }
  });

  it('is false for anything that is not a CanonryError, a look-alike or a raw driver error included', () => {
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const lookAlike = { name: 'CanonryError', code: 'STORE_BUSY', message: 'locked' };
    for (const value of [
      busy,
      refused,
      lookAlike,
      new Error('STORE_UNAVAILABLE'),
      'STORE_BUSY',
      undefined,
      null,
      503,
    ]) {
      expect(isTransientStoreError(value), String(value)).toBe(false);
    }
  });
});
