// Which store failures came of a bound on waiting: the commit queue answers a whole batch with
// them instead of trying each job again alone.
import { describe, expect, it } from 'vitest';
import { CanonryError } from '../../src/core/index.js';
import { isWaitedOut, markWaitedOut } from '../../src/store/index.js';

describe('isWaitedOut', () => {
  it('is true for every STORE_BUSY and for failures the adapter marked, also when wrapped', () => {
    expect(isWaitedOut(new CanonryError('STORE_BUSY', 'locked'))).toBe(true);
    const late = markWaitedOut(new CanonryError('STORE_UNAVAILABLE', 'did not answer in time'));
    expect(isWaitedOut(late)).toBe(true);
    expect(isWaitedOut(new CanonryError('INTERNAL', 'wrapped', undefined, { cause: late }))).toBe(
      true,
    );
  });

  it('is false for a lost connection, other failures and values that are not errors', () => {
    expect(isWaitedOut(new CanonryError('STORE_UNAVAILABLE', 'the database is unreachable'))).toBe(
      false,
    );
    expect(isWaitedOut(new CanonryError('STORE_FULL', 'no space'))).toBe(false);
    expect(isWaitedOut(new Error('Query read timeout'))).toBe(false);
    expect(isWaitedOut(undefined)).toBe(false);
    expect(isWaitedOut('STORE_BUSY')).toBe(false);
  });
});
