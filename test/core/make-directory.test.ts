import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isCanonryError, makeDirectory } from '../../src/core/index.js';
import { FileAuditSink, FileProtocolStore } from '../../src/kernel/index.js';

const root = mkdtempSync(join(tmpdir(), 'canonry-mkdir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function refusal(run: () => unknown): { code: string; message: string; errno: unknown } {
  try {
    run();
  } catch (error) {
    if (!isCanonryError(error)) throw error;
    return { code: error.code, message: error.message, errno: error.details?.errno };
  }
  throw new Error('expected a refusal');
}

describe('makeDirectory: a bounded mkdir -p, 0700', () => {
  it('makes every missing folder of the path, each 0700, and takes an existing one as it is', () => {
    const deep = join(root, 'a', 'b', 'c');
    makeDirectory(deep);
    for (const folder of [join(root, 'a'), join(root, 'a', 'b'), deep]) {
      expect(statSync(folder).isDirectory()).toBe(true);
      expect(statSync(folder).mode & 0o777).toBe(0o700);
    }
    makeDirectory(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
  });

  it('names a file on the path (ENOTDIR), whether it is the folder itself or a parent', () => {
    const file = join(root, 'plain-file');
    writeFileSync(file, 'x');
    expect(refusal(() => makeDirectory(file))).toEqual({
      code: 'STORE_UNAVAILABLE',
      message: `cannot create ${file}: ${file} is not a folder (ENOTDIR)`,
      errno: 'ENOTDIR',
    });
    const below = join(file, 'x', 'y');
    expect(refusal(() => makeDirectory(below))).toEqual({
      code: 'STORE_UNAVAILABLE',
      message: `cannot create ${below}: ${file} is not a folder (ENOTDIR)`,
      errno: 'ENOTDIR',
    });
  });

  it('names a folder that takes no new folder (/proc/self), where a recursive mkdir never returns', () => {
    const dir = '/proc/self/canonry-x/y';
    expect(refusal(() => makeDirectory(dir))).toEqual({
      code: 'STORE_UNAVAILABLE',
      message: `cannot create ${dir}: /proc/self takes no new folder (ENOENT)`,
      errno: 'ENOENT',
    });
  });

  it("is the kernel's file stores' too: a file where their folder should be is named, typed", () => {
    const file = join(root, 'taken');
    writeFileSync(file, 'x');
    expect(refusal(() => new FileProtocolStore(join(file, 'protocols'))).errno).toBe('ENOTDIR');
    expect(refusal(() => new FileAuditSink(join(file, 'audit', 'log.jsonl'))).errno).toBe(
      'ENOTDIR',
    );
    const made = new FileProtocolStore(join(root, 'store', 'protocols'));
    expect(made).toBeInstanceOf(FileProtocolStore);
    expect(statSync(join(root, 'store', 'protocols')).mode & 0o777).toBe(0o700);
  });
});
