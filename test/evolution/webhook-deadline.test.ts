// A webhook attempt ends: a receiver on loopback that answers its status and then sends its body a
// byte at a time is delivered once the status is in, and one that sends its status line and headers
// a byte at a time is transient (retried, then dead-lettered) once the attempt's time is out. Before,
// only the socket's idle timeout bounded an attempt, so either receiver held the delivery — and the
// coordinator's stop, which waits for it — open for ever.
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type QualifiedEvent, webhookTarget } from '../../src/evolution/index.js';

const servers: (Server | NetServer)[] = [];
const sockets = new Set<Socket>();
let bodyUrl: string;
let headerUrl: string;

const listen = (server: Server | NetServer): Promise<string> =>
  new Promise((resolve) => {
    servers.push(server);
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve(`http://127.0.0.1:${port}/hook`);
    });
  });

/** Writes `chunk` every few milliseconds until the socket closes. */
function trickle(write: () => void, onClose: (stop: () => void) => void): void {
  const timer = setInterval(write, 20);
  onClose(() => clearInterval(timer));
}

beforeAll(async () => {
  bodyUrl = await listen(
    createHttpServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' });
      trickle(
        () => res.write('.'),
        (stop) => res.on('close', stop),
      );
    }),
  );
  headerUrl = await listen(
    createNetServer((socket) => {
      socket.on('error', () => undefined);
      socket.write('HTTP/1.1 200 OK\r\n');
      let n = 0;
      trickle(
        () => socket.write(`x-${n++}: y\r\n`),
        (stop) => socket.on('close', stop),
      );
    }),
  );
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

const delivery = {
  project: 'p',
  event: { event_type: 'memory' } as unknown as QualifiedEvent,
  sources: [],
};

describe('a webhook attempt', () => {
  it('is delivered once the status is in, whatever the body does after', async () => {
    const target = webhookTarget({ name: 'slow-body', url: bodyUrl, secret: 'k', timeoutMs: 300 });
    expect(await target.receive(delivery)).toEqual({ ok: true, record: { status: 200 } });
  });

  it('is transient when its status line and headers do not arrive within its time', async () => {
    const target = webhookTarget({
      name: 'slow-headers',
      url: headerUrl,
      secret: 'k',
      timeoutMs: 300,
    });
    const outcome = await target.receive(delivery);
    expect(outcome).toMatchObject({
      ok: false,
      retry: true,
      issue: { code: 'TARGET_UNAVAILABLE' },
    });
    expect((outcome as { issue: { message: string } }).issue.message).toMatch(
      /no answer in 300 ms/,
    );
  });
});
