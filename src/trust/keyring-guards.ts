import { CanonryError } from '../core/index.js';
import type { KeyringIndex } from './keyring-index.js';
import type { KeyringState, SigningRoot } from './keyring-state.js';

/** Writes `index` as the commit point, then applies the in-memory change with no await between. */
export type Commit = (index: KeyringIndex, apply?: (state: KeyringState) => void) => Promise<void>;

const OFFLINE_STEPS = {
  rotate:
    'to rotate, run `canonry keys csr`, sign the request on the root machine ' +
    '(`canonry keys offline sign`), then `canonry keys install-issuer ISSUER.pem`',
  revoke:
    'revoke on the root machine (`canonry keys offline revoke FINGERPRINT`), then ' +
    'install the new list here with `canonry keys install-crl CRL.pem`',
} as const;

/** The root with its private key, or ROOT_KEY_OFFLINE saying what to run instead. */
export function signingRoot(state: KeyringState, action: keyof typeof OFFLINE_STEPS): SigningRoot {
  const { root } = state;
  if (root.privateKey === undefined) {
    throw new CanonryError(
      'ROOT_KEY_OFFLINE',
      `this keyring's root key is offline: ${OFFLINE_STEPS[action]}`,
    );
  }
  return root as SigningRoot;
}

/** Refuses the offline-root ceremony on a development keyring, which holds its root key. */
export function requireOfflineRoot(state: KeyringState): void {
  if (state.index.root_key === 'local') {
    throw new CanonryError(
      'DEVELOPMENT_ROOT',
      'this development keyring holds its root key: use `canonry keys rotate` and ' +
        '`canonry keys revoke`; for production, create the root offline and run ' +
        '`canonry keys init --root-cert ROOT.pem --crl CRL.pem` in a fresh data directory',
    );
  }
}

/** NO_ACTIVE_ISSUER naming the next command for this keyring. */
export function noActiveIssuer(index: KeyringIndex): CanonryError {
  const pending = index.pending_issuer;
  const next =
    pending === null
      ? 'run `canonry keys csr`, sign the request on the root machine (`canonry keys offline sign`)'
      : `issuer ${pending.number} is pending: sign its request (\`canonry keys csr\` prints it) ` +
        'on the root machine (`canonry keys offline sign`)';
  return new CanonryError(
    'NO_ACTIVE_ISSUER',
    `this keyring has no active issuer to sign with: ${next}, then run ` +
      '`canonry keys install-issuer ISSUER.pem`',
  );
}

/**
 * NO_ACTIVE_ISSUER for an active issuer outside its window (or its root's) at `now`, naming the
 * next step: nothing it signed now would verify anywhere.
 */
export function issuerOutOfDate(
  index: KeyringIndex,
  fingerprint: string,
  window: { validFrom: Date; validUntil: Date },
  now: Date,
): CanonryError {
  const when =
    now.getTime() < window.validFrom.getTime()
      ? `is not valid until ${window.validFrom.toISOString()}`
      : `expired at ${window.validUntil.toISOString()}`;
  const next =
    index.root_key === 'local'
      ? 'run `canonry keys rotate` for a new issuer'
      : 'run `canonry keys csr`, sign the request on the root machine (`canonry keys offline ' +
        'sign`), then run `canonry keys install-issuer ISSUER.pem`';
  return new CanonryError(
    'NO_ACTIVE_ISSUER',
    `the active issuer ${fingerprint} (with its root) ${when}, so nothing it signs would verify: ${next}`,
  );
}
