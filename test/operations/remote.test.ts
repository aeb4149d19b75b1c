// The HTTP client the CLI and MCP faces use with --url, against real servers on loopback that do
// not behave: one that never answers, one that stalls mid-answer, one whose answer has no end.
// Each call ends, typed, within its bound: never a hang, never an answer held whole past the bound.
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { operationNamed, remoteInvoker } from '../../src/operations/index.js';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

async function serving(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const board = operationNamed('getBoard');
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('answered');
    },
    (err: { code: string; message: string; details?: Record<string, unknown> }) => err,
  );

describe('remoteInvoker', () => {
  it('gives up on a server that never answers, after its timeout', async () => {
    const url = await serving(() => undefined);
    const started = performance.now();
    const err = await failure(
      remoteInvoker(url, 'cnr_x', 'p', { timeoutMs: 300 }).invoke(board, {}),
    );
    expect(err.code).toBe('SERVER_UNREACHABLE');
    expect(err.message).toMatch(/did not answer within 0\.3 s/);
    expect(err.details).toMatchObject({ timeout_s: 0.3 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('counts the time to read the answer, not only its headers', async () => {
    const url = await serving((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"objects":');
    });
    const err = await failure(
      remoteInvoker(url, 'cnr_x', 'p', { timeoutMs: 300 }).invoke(board, {}),
    );
    expect(err.code).toBe('SERVER_UNREACHABLE');
    expect(err.message).toMatch(/did not answer within/);
  });

  it('cuts off an answer past 64 MiB as it arrives', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    let closed = false;
    const url = await serving((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const more = () => {
        while (!closed && sent < 1024 && res.write(chunk)) sent++;
        if (closed) return;
        if (sent < 1024) res.once('drain', more);
        else res.end();
      };
      res.on('close', () => {
        closed = true;
      });
      more();
    });
    const err = await failure(remoteInvoker(url, 'cnr_x', 'p').invoke(board, {}));
    expect(err.code).toBe('SERVER_UNREACHABLE');
    expect(err.message).toMatch(/answered over 67108864 bytes/);
    // The client hung up near the bound: the server did not get to send its whole gigabyte.
    await new Promise((done) => setTimeout(done, 50));
    expect(closed).toBe(true);
    expect(sent).toBeLessThan(128);
  });

  it('passes a canonry answer through', async () => {
    const url = await serving((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ path: req.url, auth: req.headers.authorization }));
    });
    const answer = await remoteInvoker(url, 'cnr_x', 'p/q').invoke(board, {});
    expect(answer).toEqual({ path: '/v1/projects/p%2Fq/board', auth: 'Bearer cnr_x' });
  });
});
