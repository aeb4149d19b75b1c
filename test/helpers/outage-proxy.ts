// A TCP proxy to PostgreSQL that can make the database unreachable for a while: `cut` destroys every
// connection through it and refuses new ones (counted) until `restore`, as a database restart or a
// network outage leaves a process's pool and its LISTEN connection. `hang` is the silent kind of
// outage (a partition, a frozen host): every connection stays open but nothing is forwarded either
// way, and new ones are accepted and held, until `restore` lets the bytes through again.
// `loseAnswerTo` then `drop` is a connection lost between a statement's commit and its answer: the
// statement still reaches the server, nothing comes back on its connection, and then it breaks.
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
  /**
   * The next connection to send bytes containing `marker` (a statement's parameter, say) gets
   * nothing more back from the server; what it sends still goes through.
   */
  loseAnswerTo(marker: string): void;
  /** Breaks the connections open now; new ones are served as usual. */
  drop(): void;
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
  let marker: Buffer | null = null;
  const muted = new WeakSet<Pair>();
  const flow = (pair: Pair) => {
    pair.client.pipe(pair.upstream!);
    if (!muted.has(pair)) pair.upstream!.pipe(pair.client);
    pair.client.resume();
    pair.upstream!.resume();
  };
  const watch = (pair: Pair) => {
    pair.client.on('data', (chunk: Buffer) => {
      if (marker === null || !chunk.includes(marker)) return;
      marker = null;
      muted.add(pair);
      // Flowing with no reader: what the server answers is read and thrown away.
      pair.upstream?.unpipe(pair.client);
      pair.upstream?.resume();
    });
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
    watch(pair);
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
    loseAnswerTo(text) {
      marker = Buffer.from(text);
    },
    drop() {
      for (const pair of [...pairs]) {
        pair.client.destroy();
        pair.upstream?.destroy();
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
