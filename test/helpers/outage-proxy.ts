// A TCP proxy to PostgreSQL that can make the database unreachable for a while: `cut` destroys every
// connection through it and refuses new ones (counted) until `restore`, as a database restart or a
// network outage leaves a process's pool and its LISTEN connection.
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { PG_URL } from './stores.js';

export interface OutageProxy {
  /** The loopback port to connect to instead of PostgreSQL's. */
  readonly port: number;
  /** `url` (a PostgreSQL URL) through the proxy. */
  via(url: string): URL;
  /** Connections refused while cut. */
  refused(): number;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function outageProxy(target = new URL(PG_URL)): Promise<OutageProxy> {
  let down = false;
  let refused = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client: Socket) => {
    client.on('error', () => undefined);
    if (down) {
      refused++;
      client.destroy();
      return;
    }
    const upstream = connect(Number(target.port || 5432), target.hostname);
    upstream.on('error', () => undefined);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    via(url) {
      const through = new URL(url);
      through.host = `127.0.0.1:${port}`;
      return through;
    },
    refused: () => refused,
    cut() {
      down = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      down = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
