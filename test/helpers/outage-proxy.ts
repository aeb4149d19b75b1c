// A TCP proxy to PostgreSQL that can make the database unreachable for a while: `cut` destroys every
// connection through it and refuses new ones (counted) until `restore`, as a database restart or a
// network outage leaves a process's pool and its LISTEN connection. `hang` is the silent kind of
// outage (a partition, a frozen host): every connection stays open but nothing is forwarded either
// way, and new ones are accepted and held, until `restore` lets the bytes through again.
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
  /** Forwards nothing, either way, on any connection (new ones are accepted and held). */
  hang(): void;
  restore(): void;
  close(): Promise<void>;
}

interface Pair {
  readonly client: Socket;
  upstream: Socket | null;
}

export async function outageProxy(target = new URL(PG_URL)): Promise<OutageProxy> {
  let state: 'up' | 'cut' | 'hung' = 'up';
  let refused = 0;
  const sockets = new Set<Socket>();
  const pairs = new Set<Pair>();
  const track = (socket: Socket, pair: Pair) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      pairs.delete(pair);
      pair.client.destroy();
      pair.upstream?.destroy();
    });
  };
  const flow = (pair: Pair) => {
    pair.client.pipe(pair.upstream!);
    pair.upstream!.pipe(pair.client);
    pair.client.resume();
    pair.upstream!.resume();
  };
  const open = (pair: Pair) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    upstream.on('error', () => undefined);
    pair.upstream = upstream;
    track(upstream, pair);
    flow(pair);
  };
  const server = createServer((client: Socket) => {
    client.on('error', () => undefined);
    if (state === 'cut') {
      refused++;
      client.destroy();
      return;
    }
    const pair: Pair = { client, upstream: null };
    pairs.add(pair);
    track(client, pair);
    if (state === 'hung') client.pause();
    else open(pair);
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
      state = 'cut';
      for (const socket of sockets) socket.destroy();
    },
    hang() {
      state = 'hung';
      for (const pair of pairs) {
        pair.client.unpipe();
        pair.upstream?.unpipe();
        pair.client.pause();
        pair.upstream?.pause();
      }
    },
    restore() {
      const was = state;
      state = 'up';
      if (was !== 'hung') return;
      for (const pair of pairs) {
        if (pair.client.destroyed) continue;
        if (pair.upstream === null) open(pair);
        else flow(pair);
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
