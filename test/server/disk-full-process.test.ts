// A full filesystem under `canonry serve`: its data directory on a 4 MiB tmpfs, filled by a file the
// test writes beside it (deleting that file is "space is back"). First start on a full disk: the
// keyring cannot be written, serve refuses with STORE_FULL and leaves no half keyring, and starts
// once space is back. Then, serving: appends over HTTP on a full disk answer 507 STORE_FULL (never
// a 500) with an error log line, validations are still answered, and once space is back appends
// land again after the real head and `canonry journal verify` passes, projections included, with
// every acknowledged message kept. Needs root (mount): under CI=true its absence is a failure.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_METADATA_HASH } from '../../src/kernel/index.js';
import { call } from '../helpers/auth.js';
import { issueTokens, runCli } from '../helpers/cli.js';
import { fill, permitted } from '../helpers/disk.js';
import { refundProtocol, tempDir } from '../helpers/runtime.js';
import { serveRefuses, startServe } from '../helpers/serve.js';

const P = 'full';

const SUITE = 'disk-full process test';

let dir: string;
let cleanup: () => void;
let mounted = false;

beforeAll(() => {
  ({ dir, cleanup } = tempDir('canonry-full-'));
  mounted = permitted(SUITE, 'a tmpfs mount', 'mount', [
    '-t',
    'tmpfs',
    '-o',
    'size=4m',
    'tmpfs',
    dir,
  ]);
});
afterAll(() => {
  if (mounted) execFileSync('umount', [dir]);
  cleanup?.();
});

describe('canonry serve on a full filesystem', () => {
  it('refuses to start with STORE_FULL, appends answer 507, and everything carries on once space is back', async (context) => {
    if (!mounted) context.skip();
    const data = join(dir, 'data');
    const filler = join(dir, 'filler');
    mkdirSync(data, { recursive: true, mode: 0o700 });

    // First start on a full disk: the keyring cannot be written; nothing half-written stays.
    fill(filler);
    const refused = await serveRefuses(data);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/STORE_FULL/);
    expect(readdirSync(join(data, 'keys'))).toEqual([]);
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
