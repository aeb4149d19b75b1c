// A request that reaches `canonry serve` after SIGTERM began its shutdown is answered in canonry's
// envelope (SHUTTING_DOWN, the request id, Retry-After), not with Fastify's own 503 body. A client
// process pipelines it behind a request whose body it holds back until the server is closing.
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/runtime.js';
import { type ServeProcess, startServe } from '../helpers/serve.js';

const temp = tempDir('canonry-shutdown-');
let serve: ServeProcess | undefined;
afterAll(async () => {
  await serve?.stop('SIGKILL');
  temp.cleanup();
});

/**
 * The client: request A's headers and half its body, then (on "go" from stdin) the rest of A and
 * request B on the same connection; prints everything the server sent until it closed.
 */
const CLIENT = `
const net = require('node:net');
const [host, port] = process.argv.slice(1);
const socket = net.connect(Number(port), host);
let got = '';
socket.on('data', (d) => { got += d; });
socket.on('close', () => { process.stdout.write(got); process.exit(0); });
socket.on('connect', () => {
  socket.write('POST /v1/nowhere HTTP/1.1\\r\\nHost: x\\r\\nContent-Type: application/json\\r\\nContent-Length: 2\\r\\n\\r\\n{');
  process.stderr.write('sent\\n');
});
process.stdin.once('data', () => {
  socket.write('}GET /healthz HTTP/1.1\\r\\nHost: x\\r\\nx-request-id: late-request-1\\r\\n\\r\\n');
});
setTimeout(() => { process.stdout.write(got); process.exit(2); }, 15000);
`;

describe('canonry serve shutting down', () => {
  it('answers a request that arrives during close with SHUTTING_DOWN and its request id', async () => {
    serve = await startServe(temp.dir);
    const { hostname, port } = new URL(serve.url);
    const client = spawn(process.execPath, ['-e', CLIENT, hostname, port]);
    let out = '';
    client.stdout.on('data', (d) => {
      out += d;
    });
    const exited = new Promise<number | null>((done) => client.on('exit', done));
    await new Promise<void>((done) => client.stderr.once('data', () => done()));
    serve.child.kill('SIGTERM');
    // Let the server begin its close (a delay, not an assertion), then send the rest.
    await new Promise((done) => setTimeout(done, 1_500));
    client.stdin.write('go\n');
    expect(await exited).toBe(0);
    const answers = out.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    // A was being handled before the close: it is answered as it would have been.
    expect(answers[0]).toMatch(/^HTTP\/1\.1 404 /);
    const late = answers[1]!;
    expect(late).toMatch(/^HTTP\/1\.1 503 /);
    expect(late).toMatch(/\r\nx-request-id: late-request-1\r\n/i);
    expect(late).toMatch(/\r\nretry-after: \d+\r\n/i);
    const body = JSON.parse(late.slice(late.indexOf('\r\n\r\n') + 4)) as {
      error: { code: string };
    };
    expect(body.error.code).toBe('SHUTTING_DOWN');
  }, 30_000);
});
