import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/runtime.js';

let dir: string;
let cleanup: () => void;
let holder: Server;
let port: number;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen({ host: '127.0.0.1', port: 0 }, resolve));
  port = (holder.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => holder.close(resolve));
  cleanup();
});

describe('canonry serve on an address it cannot bind', () => {
  it('a port another process holds is ADDRESS_UNAVAILABLE, and no data directory is made', async () => {
    const data = join(dir, 'taken');
    const res = await runCli(['serve', '--port', String(port), '--data', data]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(
      `canonry: ADDRESS_UNAVAILABLE: 127.0.0.1:${port} is already in use`,
    );
    expect(existsSync(data)).toBe(false);
  });

  it('a host that is not an address of this machine is ADDRESS_UNAVAILABLE, and no data directory is made', async () => {
    const data = join(dir, 'foreign');
    // 192.0.2.0/24 is TEST-NET-1 (RFC 5737): never an address of this machine.
    const res = await runCli(['serve', '--host', '192.0.2.1', '--port', '0', '--data', data]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('canonry: ADDRESS_UNAVAILABLE: cannot listen on 192.0.2.1:0');
    expect(existsSync(data)).toBe(false);
  });
});
