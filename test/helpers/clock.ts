import { vi } from 'vitest';
import type { Keyring, Signer } from '../../src/trust/index.js';

/** Runs `fn` with `Date` at `instant` (timers stay real), then gives the real clock back. */
export function atInstant<T>(instant: Date, fn: () => T): T {
  vi.useFakeTimers({ toFake: ['Date'], now: instant });
  try {
    return fn();
  } finally {
    vi.useRealTimers();
  }
}

/**
 * A signer of `keyring`'s active issuer that signs as at `instant`: a keyring signs nothing outside
 * its issuer's window, so what an issuer signed back then is made this way.
 */
export function signerAt(keyring: Keyring, instant: Date): Signer {
  const signer = keyring.signer();
  return {
    fingerprint: signer.fingerprint,
    certificatePem: signer.certificatePem,
    sign: (message) => atInstant(instant, () => signer.sign(message)),
  };
}

/**
 * Texts an `at` must refuse: words, a day that does not exist, an instant without its offset, a
 * date alone, nothing.
 */
export const NOT_INSTANTS: readonly string[] = [
  'yesterday',
  '2030-02-30T00:00:00Z',
  '2030-01-31T00:00:00',
  '2030-01-31',
  '',
];
