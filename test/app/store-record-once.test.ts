// store.json is read once at start and that one record is what every check before the store opens,
// and the binding after, judge; a store.json another start wrote meanwhile is never replaced.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createCanonry, openTokens } from '../../src/app/index.js';
import { isCanonryError } from '../../src/core/index.js';
import { tempDir } from '../helpers/runtime.js';

/** Every call of a file function of node:fs on a path ending in store.json, by name. */
const touched: string[] = [];
/** Run once as this start begins writing its own store.json: another start writing its own. */
let beforeWrite: (() => void) | undefined;
vi.mock('node:fs/promises', async (original) => {
  const fs = await original<typeof import('node:fs/promises')>();
  const open: typeof fs.open = (path, ...rest) => {
    if (typeof path === 'string' && /\/\.store\.json\.[0-9a-f]+\.tmp$/.test(path) && beforeWrite) {
      const run = beforeWrite;
      beforeWrite = undefined;
      run();
    }
    return fs.open(path, ...rest);
  };
  return { ...fs, open, default: { ...fs, open } };
});
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  const counted =
    (name: string, f: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      const path = args[0];
      if (typeof path === 'string' && path.endsWith('store.json')) touched.push(name);
      return f(...args);
    };
  const names = [
    'existsSync',
    'openSync',
    'readFileSync',
    'statSync',
    'lstatSync',
    'accessSync',
  ] as const;
  const wrapped = Object.fromEntries(
    names.map((n) => [n, counted(n, fs[n] as (...args: unknown[]) => unknown)]),
  );
  return { ...fs, ...wrapped, default: { ...fs, ...wrapped } };
});

const temp = tempDir();
afterAll(temp.cleanup);

describe('store.json at start', () => {
  it('is read once by createCanonry and by openTokens', async () => {
    const data = join(temp.dir, 'once');
    await (await createCanonry({ dataDir: data, logLevel: 'silent' })).close();
    touched.length = 0;
    await (await createCanonry({ dataDir: data, logLevel: 'silent' })).close();
    expect(touched).toEqual(['openSync']);
    touched.length = 0;
    await (await openTokens({ dataDir: data })).close();
    expect(touched).toEqual(['openSync']);
  });

  it('one another start writes as this one writes its own is never replaced: this start is STORE_MISMATCH', async () => {
    const data = join(temp.dir, 'race');
    const theirs = `${JSON.stringify({ store_id: 'another-start', database: 'sqlite:/elsewhere.db' })}\n`;
    beforeWrite = () => {
      mkdirSync(data, { recursive: true, mode: 0o700 });
      writeFileSync(join(data, 'store.json'), theirs, { mode: 0o600 });
    };
    const start = createCanonry({ dataDir: data, logLevel: 'silent' });
    const refused = await start.then(
      async (runtime) => {
        await runtime.close();
        return undefined;
      },
      (err: unknown) => err,
    );
    expect(beforeWrite).toBeUndefined();
    expect(isCanonryError(refused, 'STORE_MISMATCH'), String(refused)).toBe(true);
    expect(readFileSync(join(data, 'store.json'), 'utf8')).toBe(theirs);
  });
});
