import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCanonry } from '../../src/app/index.js';
import { hmacCheck, hmacSeal } from '../../src/trust/index.js';
import { tempDir } from '../helpers/runtime.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  delete process.env.CANONRY_HMAC_KEY;
  for (const c of cleanups.splice(0)) c();
});
function temp(): string {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  return dir;
}

describe('the runtime’s HMAC keyring', () => {
  it('is the data directory’s: a key made through one runtime verifies in the next', async () => {
    const dataDir = temp();
    const first = await createCanonry({ dataDir, logLevel: 'silent' });
    const message = new TextEncoder().encode('cso');
    let seal: string;
    try {
      expect(first.hmac.source).toBe('files');
      seal = await hmacSeal(first.hmac, 'alpha', message);
    } finally {
      await first.close();
    }
    expect(statSync(join(dataDir, 'keys', 'hmac', 'alpha', 'k1.json')).mode & 0o777).toBe(0o600);
    const second = await createCanonry({ dataDir, logLevel: 'silent' }, { create: false });
    try {
      expect(await hmacCheck(second.hmac, 'alpha', message, seal)).toEqual({ ok: true });
    } finally {
      await second.close();
    }
  });

  it('refuses to start on a malformed CANONRY_HMAC_KEY before it creates anything', async () => {
    const dataDir = join(temp(), 'data');
    process.env.CANONRY_HMAC_KEY = 'c2hvcnQ='; // "short": 5 bytes
    await expect(createCanonry({ dataDir, logLevel: 'silent' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('CANONRY_HMAC_KEY'),
    });
    expect(existsSync(dataDir)).toBe(false);
  });

  it('uses CANONRY_HMAC_KEY for every project when it is set, writing no key file', async () => {
    const dataDir = temp();
    process.env.CANONRY_HMAC_KEY = 'ab'.repeat(32);
    const runtime = await createCanonry({ dataDir, logLevel: 'silent' });
    try {
      expect(runtime.hmac.source).toBe('environment');
      const seal = await hmacSeal(runtime.hmac, 'alpha', new Uint8Array([1, 2, 3]));
      expect(seal).toMatch(/^hmac-sha256:env-[0-9a-f]{8}:/);
      expect(readdirSync(join(dataDir, 'keys'))).not.toContain('hmac');
    } finally {
      await runtime.close();
    }
  });
});
