import { type KeyObject, sign } from 'node:crypto';
import { CanonryError, type ContentHash } from '../core/index.js';
import type { Signer } from './types.js';

/** A signer and the switch that disables it once its issuer stops being the active one. */
export interface SignerHandle {
  readonly signer: Signer;
  retire(): void;
}

/** The instants at which a signer's issuer and root are both valid, and the error outside them. */
export interface SignerValidity {
  readonly validFrom: Date;
  readonly validUntil: Date;
  outside(now: Date): CanonryError;
}

/**
 * Wraps the active issuer's private key in a closure: the returned object exposes only the
 * fingerprint, the certificate and `sign`, so neither JSON nor `util.inspect` can reach the key.
 * Outside `validity` it signs nothing: a verifier judges the issuer at its own instant, so what an
 * expired issuer signed would verify nowhere.
 */
export function createSigner(
  fingerprint: ContentHash,
  certificatePem: string,
  privateKey: KeyObject,
  validity: SignerValidity,
): SignerHandle {
  let key: KeyObject | undefined = privateKey;
  const from = validity.validFrom.getTime();
  const until = validity.validUntil.getTime();
  const activeKey = (message: Uint8Array): KeyObject => {
    if (key === undefined) {
      throw new CanonryError(
        'UNKNOWN_ISSUER',
        `issuer ${fingerprint} is no longer active; ask the keyring for a new signer`,
      );
    }
    const now = Date.now();
    if (now < from || now > until) throw validity.outside(new Date(now));
    if (!(message instanceof Uint8Array)) {
      throw new CanonryError('INVALID_ARGUMENT', 'the message to sign must be bytes');
    }
    return key;
  };
  const signer: Signer = Object.freeze({
    fingerprint,
    certificatePem,
    sign(message: Uint8Array): Buffer {
      return sign(null, message, activeKey(message));
    },
    signAsync(message: Uint8Array): Promise<Buffer> {
      // node:crypto copies `message` into the job before queueing it, so the caller may reuse it.
      return new Promise((resolve, reject) => {
        sign(null, message, activeKey(message), (error, signature) =>
          error ? reject(error) : resolve(signature),
        );
      });
    },
  });
  return {
    signer,
    retire() {
      key = undefined;
    },
  };
}
