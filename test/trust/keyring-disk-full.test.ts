// Key files on a full disk. The keyring and the per-project HMAC keys are written on first use; when
// the disk is full (ENOSPC, here injected into `node:fs/promises` for the files named) the write
// must fail as STORE_FULL, leave no half-written file, temp file or claim behind, and once space is
// back the same call must succeed: a start after a full disk never finds half a keyring it cannot open.
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HmacKeyring, Keyring } from '../../src/trust/index.js';
import { freshDir, rejectionCode } from './temp-dir.js';

/** While set, a file created whose name matches fails as a full disk would. */
let full: RegExp | undefined;

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const enospc = () =>
    Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  const open: typeof real.open = async (path, flags, mode) => {
    const handle = await real.open(path, flags, mode);
    if (full === undefined || !full.test(basename(String(path))) || flags !== 'wx') return handle;
    // Half the contents reach the disk, then it is full.
    return Object.assign(Object.create(handle), {
      writeFile: async (data: string) => {
        await handle.write(data.slice(0, data.length >> 1));
        throw enospc();
      },
      close: () => handle.close(),
      chmod: (m: number) => handle.chmod(m),
      sync: () => handle.sync(),
    });
  };
  return { ...real, open, default: { ...real, open } };
});

afterEach(() => {
  full = undefined;
});

/** Every name under `dir`, recursively, relative to it. */
async function names(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).sort();
}

describe('key files on a full disk', () => {
  it('a development keyring that cannot be written is STORE_FULL, leaves nothing, and is made once space is back', async () => {
    const data = await freshDir();
    for (const file of ['root.key.pem', 'issuer-1.key.pem', 'keyring.json']) {
      full = new RegExp(`^\\.${file.replace(/\./g, '\\.')}\\.`);
      expect(await rejectionCode(Keyring.openOrInit(data))).toBe('STORE_FULL');
      // Nothing half-written: no key, no temp file, no claim — only the empty folder.
      expect(await names(join(data, 'keys'))).toEqual([]);
    }
    full = undefined;
    const keyring = await Keyring.openOrInit(data);
    expect(keyring.canSign).toBe(true);
    expect((await Keyring.open(data)).rootFingerprint).toBe(keyring.rootFingerprint);
  });

  it("a project's first HMAC key that cannot be written is STORE_FULL, leaves nothing, and is made once space is back", async () => {
    const data = await freshDir();
    const keyring = HmacKeyring.open(data, { env: {} });
    full = /^\.k1\.json\./;
    expect(await rejectionCode(keyring.current('alpha'))).toBe('STORE_FULL');
    expect(await names(join(data, 'keys', 'hmac', 'alpha'))).toEqual([]);
    full = undefined;
    const key = await keyring.current('alpha');
    expect(key.keyId).toBe('k1');
    expect((await HmacKeyring.open(data, { env: {} }).current('alpha')).keyId).toBe('k1');
  });
});
