import { createServer } from 'node:net';
import { CanonryError } from '../core/index.js';

/**
 * Binds `host:port` and lets it go at once, before `serve` opens its data directory: an address
 * that is taken, not local or not found fails here, typed, with nothing created. Another process
 * may still take the port before the server binds it; `listen` then fails typed as well.
 */
export function probeAddress(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err) => reject(listenError(err, host, port)));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** Resolver failures: the host name names no address here. */
const NOT_FOUND = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA']);

/** Why the port could not be bound, as a typed error instead of INTERNAL. */
export function listenError(err: unknown, host: string, port: number): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') {
    return new CanonryError(
      'ADDRESS_UNAVAILABLE',
      `${host}:${port} is already in use (pick another --port, or stop the other server)`,
      { host, port },
    );
  }
  if (
    code === 'EACCES' ||
    code === 'EADDRNOTAVAIL' ||
    (code !== undefined && NOT_FOUND.has(code))
  ) {
    return new CanonryError('ADDRESS_UNAVAILABLE', `cannot listen on ${host}:${port} (${code})`, {
      host,
      port,
    });
  }
  return err;
}
