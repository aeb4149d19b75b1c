// The output-file policy every command that writes a file follows (keys, conformance events,
// backups): nothing existing is replaced without force, and with it only a regular file, never
// through a link; a file that appears between the check and the write is not clobbered.
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkOutputPath, publishOutput } from '../../src/app/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'canonry-out-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const at = (name: string) => join(dir, name);
const refusal = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    return err as { code: string; message: string };
  }
  throw new Error('not refused');
};

describe('checkOutputPath', () => {
  it('lets a new path through, and refuses an existing one without force', () => {
    expect(() => checkOutputPath(at('new.pem'), { label: '--out' })).not.toThrow();
    writeFileSync(at('root.key.pem'), 'secret');
    const err = refusal(() => checkOutputPath(at('root.key.pem'), { label: '--out' }));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.message).toBe(
      `cannot write --out ${at('root.key.pem')} (it exists; pass --force to replace it)`,
    );
  });

  it('with force, refuses a link, a directory and a device; lets a regular file through', () => {
    writeFileSync(at('target'), 'keep');
    symlinkSync(at('target'), at('link'));
    const force = { label: 'the backup file', force: true };
    expect(refusal(() => checkOutputPath(at('link'), force)).message).toMatch(/not a regular file/);
    expect(refusal(() => checkOutputPath(dir, force)).message).toMatch(/it is a directory/);
    expect(refusal(() => checkOutputPath('/dev/null', force)).message).toMatch(
      /not a regular file/,
    );
    expect(() => checkOutputPath(at('target'), force)).not.toThrow();
  });
});

describe('publishOutput', () => {
  it('without force, never replaces a file that appeared after the check', () => {
    checkOutputPath(at('out'), { label: '--out' });
    writeFileSync(at('out'), 'someone else');
    writeFileSync(at('temp'), 'ours');
    const err = refusal(() => publishOutput(at('temp'), at('out'), { label: '--out' }));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(readFileSync(at('out'), 'utf8')).toBe('someone else');
  });

  it('names a new file, and with force replaces a regular one', () => {
    writeFileSync(at('temp'), 'first');
    publishOutput(at('temp'), at('out'), { label: '--out' });
    expect(readFileSync(at('out'), 'utf8')).toBe('first');
    writeFileSync(at('temp2'), 'second');
    publishOutput(at('temp2'), at('out'), { label: '--out', force: true });
    expect(readFileSync(at('out'), 'utf8')).toBe('second');
  });
});
