// `canonry serve` reports the address it actually bound: all interfaces for `--host 0` or
// CANONRY_HOST=0.0.0.0, where Fastify's own answer names loopback alone.
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/runtime.js';
import { type ServeProcess, startServe } from '../helpers/serve.js';

const temp = tempDir('canonry-listen-');
const started: ServeProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop('SIGKILL')));
  temp.cleanup();
});

describe('the start line of canonry serve', () => {
  it.each([
    ['--host 0', { args: ['--host', '0'] }],
    ['CANONRY_HOST=0.0.0.0', { env: { CANONRY_HOST: '0.0.0.0' } }],
  ])(
    'names all interfaces for %s',
    async (_, options) => {
      const serve = await startServe(temp.dir, options);
      started.push(serve);
      const line = serve
        .stderr()
        .split('\n')
        .find((l) => l.includes('listening on'))!;
      expect(line).toMatch(/^canonry listening on http:\/\/0\.0\.0\.0:\d+ \(all interfaces\) /);
      expect((await fetch(`${serve.url}/healthz`)).status).toBe(200);
      await serve.stop();
    },
    30_000,
  );

  it('names loopback when bound to loopback', async () => {
    const serve = await startServe(temp.dir);
    started.push(serve);
    const line = serve
      .stderr()
      .split('\n')
      .find((l) => l.includes('listening on'))!;
    expect(line).toMatch(/^canonry listening on http:\/\/127\.0\.0\.1:\d+ \(data /);
    await serve.stop();
  }, 30_000);
});
