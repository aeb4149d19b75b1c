import type { ConnectionOptions, TlsOptions } from 'node:tls';
import { HELLO_MS } from './forward-wire.js';

/**
 * The forwarding wire runs over TLS 1.3 keyed by the leader's lease token (a pre-shared key, the
 * token's 32 bytes): only a process that read the lease from the database can complete the
 * handshake, in either direction, and lines travel encrypted and authenticated, with an ephemeral
 * (EC)DHE exchange on top of the key, so a token that leaks later opens no recorded traffic. No
 * certificate is involved: whoever may read `journal_leaders` may already append to the journal.
 * A peer that speaks plain TCP (an older process, or anything else) fails the handshake, which a
 * writer counts as not read: it parks.
 */

/** The PSK identity both sides name; the key is what authenticates. */
export const PSK_IDENTITY = 'canonry-forward/1';

/** A lease token (64 hex characters) as the pre-shared key; undefined when it is not one. */
export function pskOf(token: string): Buffer | undefined {
  return /^[0-9a-f]{64}$/.test(token) ? Buffer.from(token, 'hex') : undefined;
}

/** The leader's side: it accepts a handshake under its own token only. */
export function leaderTls(token: string): TlsOptions {
  const psk = pskOf(token);
  if (!psk) throw new Error('a forwarding token is 32 bytes of hex');
  return {
    minVersion: 'TLSv1.3',
    pskCallback: (_socket, identity) => (identity === PSK_IDENTITY ? psk : null),
    handshakeTimeout: HELLO_MS,
  };
}

/** A writer's side, towards the leader whose lease published `token`. */
export function writerTls(psk: Buffer): ConnectionOptions {
  return {
    minVersion: 'TLSv1.3',
    pskCallback: () => ({ psk, identity: PSK_IDENTITY }),
    // No certificate to check: the handshake itself proves the leader knows the token.
    checkServerIdentity: () => undefined,
  };
}
