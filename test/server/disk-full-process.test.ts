import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_METADATA_HASH } from '../../src/kernel/index.js';
import { call } from '../helpers/auth.js';
import { issueTokens, runCli } from '../helpers/cli.js';
import { fill, type SmallDisk, smallTmpfs } from '../helpers/disk.js';
import { refundProtocol } from '../helpers/runtime.js';
import { serveRefuses, startServe } from '../helpers/serve.js';

const P = 'full';

const SUITE = 'disk-full process test';

let disk: SmallDisk | undefined;
let dir: string;
let mounted = false;

beforeAll(() => {
  disk = smallTmpfs(SUITE, 'canonry-full-');
  ({ dir, mounted } = disk);
});
afterAll(() => disk?.release());

describe('canonry serve on a full filesystem', () => {
  it('refuses to start with STORE_FULL, appends answer 507, and everything carries on once space is back', async (context) => {
    if (!mounted) context.skip();
    const data = join(dir, 'data');
    const filler = join(dir, 'filler');
    mkdirSync(data, { recursive: true, mode: 0o700 });

    // First start on a full disk: the database cannot be made, so no keyring is either (one is
    // made only once the database opens); nothing half-written stays.
    fill(filler);
    const refused = await serveRefuses(data);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/STORE_FULL/);
    expect(existsSync(join(data, 'keys'))).toBe(false);
    rmSync(filler);

    const { alice } = await issueTokens(data, P, [['alice', 'owner']]);
    const served = await startServe(data, { timeoutMs: 60_000 });
    try {
      const post = (id: string) =>
        call(served.url, 'POST', `/v1/projects/${P}/messages?classify=false`, alice, {
          message_id: id,
          text: `message ${id} ${'x'.repeat(19_000)}`,
        });
      const acked: string[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await post(`warm-${i}`);
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        acked.push(`warm-${i}`);
      }

      fill(filler);
      const full = await Promise.all(Array.from({ length: 24 }, (_, i) => post(`full-${i}`)));
      for (const r of full) {
        expect(r.status, JSON.stringify(r.body)).toBe(507);
        expect(r.body.error.code).toBe('STORE_FULL');
      }
      // A verdict is still answered; its audit record waits for the disk like any write.
      const verdict = await fetch(`${served.url}/v1/validate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          artifact: { amount: 10 },
          agentic_protocol: refundProtocol(),
          generation_metadata_hash: EMPTY_METADATA_HASH,
        }),
      });
      expect(verdict.status).toBe(200);
      expect(served.stderr()).toMatch(/"code":"STORE_FULL".*no space left for the data/);
      expect(served.stderr()).not.toMatch(/unhandled error/);

      rmSync(filler);
      const again = await Promise.all(Array.from({ length: 24 }, (_, i) => post(`again-${i}`)));
      for (const [i, r] of again.entries()) {
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        acked.push(`again-${i}`);
      }
    } finally {
      await served.stop();
    }

    const verified = await runCli(['journal', 'verify', '--project', P, '--data', data, '--json']);
    expect(verified.code, verified.stderr).toBe(0);
    const report = JSON.parse(verified.stdout);
    expect(report).toMatchObject({ ok: true, broken: null });
    expect(report.checked).toBe(1 + 5 + 24); // the token's entry, then every acknowledged message
  });
});
