import type { ConnectionOptions, TlsOptions } from 'node:tls';
import { HELLO_MS } from './forward-wire.js';

/**
 * Off its host, the forwarding wire runs over TLS 1.3 keyed by the leader's lease token (a
 * pre-shared key, the token's 32 bytes): only a process that read the lease from the database can
 * complete the handshake, in either direction, and lines travel encrypted and authenticated, with
 * an ephemeral (EC)DHE exchange on top of the key, so a token that leaks later opens no recorded
 * traffic. No certificate is involved: whoever may read `journal_leaders` may already append to
 * the journal. A peer that speaks plain TCP (an older process, or anything else) fails the
 * handshake, which a writer counts as not read: it parks.
 *
 * A leader listening on a loopback address only is reached from its own host: there the wire stays
 * plain TCP (reading loopback traffic takes the host's root, which reads the database too), unless
 * the leader is told to encrypt anyway (a loopback shared between the containers of a pod). A leader says which in the address it publishes with its
 * lease: `tls:host:port` for TLS, `host:port` for plain (a process that knows no scheme finds no
 * address in the first and parks).
 */

/** The prefix of a published address whose leader speaks TLS. */
const TLS_SCHEME = 'tls:';

/** Whether a listening host is a loopback address (reachable from its own host only). */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** The address a leader publishes: its `host:port`, marked when it speaks TLS. */
export function publishedAddress(address: string, tls: boolean): string {
  return tls ? `${TLS_SCHEME}${address}` : address;
}

/** A published address read back: its `host:port`, and whether its leader speaks TLS. */
export function readAddress(published: string): { address: string; tls: boolean } {
  return published.startsWith(TLS_SCHEME)
    ? { address: published.slice(TLS_SCHEME.length), tls: true }
    : { address: published, tls: false };
}

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
