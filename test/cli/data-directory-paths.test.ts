import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { tempDir } from '../helpers/runtime.js';

const { dir, cleanup } = tempDir();
const cwd = mkdtempSync(join(tmpdir(), 'canonry-cwd-'));
afterAll(cleanup);

/**
 * Runs the CLI, killed if it is still running after 30 s: a command that loops making a folder
 * never ends by itself, and this says so instead of hanging the suite.
 */
function run(args: string[]): { code: number | null; signal: string | null; stderr: string } {
  const res = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 30_000,
    killSignal: 'SIGKILL',
    input: '',
  });
  return { code: res.status, signal: res.signal, stderr: res.stderr };
}

describe('a data directory or database path where no folder can be made', () => {
  // /proc/self exists but takes no new entry and says ENOENT, on which Node's recursive mkdir
  // retries the parent for ever.
  const proc = '/proc/self/canonry-x';
  const commands: [string, string[]][] = [
    [
      'tokens create',
      [
        'tokens',
        'create',
        '--project',
        'p',
        '--principal',
        'a',
        '--role',
        'editor',
        '--data',
        proc,
      ],
    ],
    ['serve', ['serve', '--port', '0', '--data', proc]],
    ['keys init', ['keys', 'init', '--data', `${proc}/deeper`]],
    ['keys offline init', ['keys', 'offline', 'init', '--root-dir', proc]],
    [
      'serve --db sqlite:',
      ['serve', '--port', '0', '--data', join(dir, 'beside'), '--db', `sqlite:${proc}/c.db`],
    ],
  ];
  for (const [name, args] of commands) {
    it(`${name} under /proc/self fails at once, typed, naming the folder`, () => {
      const res = run(args);
      expect(res.signal).toBeNull();
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(
        /^canonry: STORE_UNAVAILABLE: cannot create \/proc\/self\/canonry-x/m,
      );
      expect(res.stderr).toContain('/proc/self takes no new folder (ENOENT)');
    });
  }

  it('a path through a regular file or a FIFO is refused, typed, naming it', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const fifo = join(dir, 'a-fifo');
    execFileSync('mkfifo', [fifo]);
    for (const through of [file, fifo]) {
      for (const args of [
        [
          'tokens',
          'create',
          '--project',
          'p',
          '--principal',
          'a',
          '--role',
          'editor',
          '--data',
          join(through, 'x'),
        ],
        ['keys', 'offline', 'init', '--root-dir', join(through, 'x')],
        [
          'serve',
          '--port',
          '0',
          '--data',
          join(dir, 'beside2'),
          '--db',
          `sqlite:${join(through, 'x', 'c.db')}`,
        ],
      ]) {
        const res = run(args);
        expect(res.signal, args.join(' ')).toBeNull();
        expect(res.code, args.join(' ')).toBe(1);
        expect(res.stderr, args.join(' ')).toMatch(/^canonry: STORE_UNAVAILABLE: .*\(ENOTDIR\)$/m);
        expect(res.stderr, args.join(' ')).toContain(through);
      }
    }
    expect(existsSync(join(dir, 'beside2', 'keys'))).toBe(false);
  });
});

describe('a FIFO in place of store.json', () => {
  it('backup and restore refuse it at once as MALFORMED_FILE, never waiting for a writer', async () => {
    const data = join(dir, 'fifo-store');
    const made = run([
      'tokens',
      'create',
      '--project',
      'p',
      '--principal',
      'a',
      '--role',
      'editor',
      '--data',
      data,
    ]);
    expect(made.code, made.stderr).toBe(0);
    const backup = join(dir, 'fifo-store.db');
    const taken = run(['backup', '--data', data, '--out', backup]);
    expect(taken.code, taken.stderr).toBe(0);
    rmSync(join(data, 'store.json'));
    execFileSync('mkfifo', [join(data, 'store.json')]);
    for (const args of [
      ['backup', '--data', data, '--out', join(dir, 'fifo-store-2.db')],
      ['restore', '--data', data, '--from', backup],
    ]) {
      const res = run(args);
      expect(res.signal, args[0]).toBeNull();
      expect(res.code, args[0]).toBe(1);
      expect(res.stderr.trim()).toMatch(
        /^canonry: MALFORMED_FILE: \S+\/store\.json is not a regular file$/,
      );
    }
    expect(existsSync(join(dir, 'fifo-store-2.db'))).toBe(false);
  });
});
