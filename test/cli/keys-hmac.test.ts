import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/runtime.js';

const { dir, cleanup } = tempDir('canonry-hmac-cli-');
afterAll(() => cleanup());

describe('canonry keys hmac', () => {
  it('rotates and lists a project’s key ids, never a key', async () => {
    const data = join(dir, 'data');
    const first = await runCli(['keys', 'hmac', 'rotate', '--project', 'alpha', '--data', data]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('rotated: k1');
    const second = await runCli([
      ...['keys', 'hmac', 'rotate', '--project', 'alpha', '--data', data, '--json'],
    ]);
    expect(second.code, second.stderr).toBe(0);
    const listed = await runCli(['keys', 'hmac', 'list', '--project', 'alpha', '--data', data]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      project: 'alpha',
      keys: [
        { key_id: 'k1', status: 'retired' },
        { key_id: 'k2', status: 'current' },
      ],
    });
    for (const n of [1, 2]) {
      const file = join(data, 'keys', 'hmac', 'alpha', `k${n}.json`);
      const key = JSON.parse(readFileSync(file, 'utf8')).key as string;
      for (const out of [first, second, listed]) expect(out.stdout + out.stderr).not.toContain(key);
    }
  });

  it('refuses a bad project name, and rotation of a key that comes from CANONRY_HMAC_KEY', async () => {
    const data = join(dir, 'other');
    const bad = await runCli(['keys', 'hmac', 'rotate', '--project', '../up', '--data', data]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('INVALID_PROJECT');
    const key = 'cd'.repeat(32);
    const env = await runCli(['keys', 'hmac', 'rotate', '--project', 'alpha', '--data', data], {
      env: { CANONRY_HMAC_KEY: key },
    });
    expect(env.code).toBe(1);
    expect(env.stderr).toContain('INVALID_ARGUMENT');
    expect(env.stderr).toContain('CANONRY_HMAC_KEY');
    expect(env.stderr).not.toContain(key);
  });
});
