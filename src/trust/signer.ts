import { type KeyObject, sign } from 'node:crypto';
import { CanonryError, type ContentHash } from '../core/index.js';
import type { Signer } from './types.js';

/** A signer and the switch that disables it once its issuer stops being the active one. */
export interface SignerHandle {
  readonly signer: Signer;
  retire(): void;
}

/**
 * Wraps the active issuer's private key in a closure: the returned object exposes only the
 * fingerprint, the certificate and `sign`, so neither JSON nor `util.inspect` can reach the key.
 */
export function createSigner(
  fingerprint: ContentHash,
  certificatePem: string,
  privateKey: KeyObject,
): SignerHandle {
  let key: KeyObject | undefined = privateKey;
  const activeKey = (message: Uint8Array): KeyObject => {
    if (key === undefined) {
      throw new CanonryError(
        'UNKNOWN_ISSUER',
        `issuer ${fingerprint} is no longer active; ask the keyring for a new signer`,
      );
    }
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
