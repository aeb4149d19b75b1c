// Ctrl-C during `canonry backup`: SIGINT sent while SQLite writes the snapshot (its temporary copy
// beside --out growing) stops the backup at once — the copy is removed on the signal, no file is
// written at --out (an existing one, replaced only with --force, stays byte for byte), and the
// command says so and exits 130, as a shell reports a process Ctrl-C stopped. SIGTERM alike, 143.
// A signal that comes before SQLite has opened the copy leaves nothing either: the copy the
// snapshot thread then writes whole is removed before the process exits.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/runtime.js';

const temp = tempDir('canonry-cli-backup-sigint-');
afterAll(temp.cleanup);
const data = join(temp.dir, 'data');
const folder = join(temp.dir, 'backups');
const out = join(folder, 'b.db');
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

beforeAll(async () => {
  const demo = await runCli(['demo', '--data', data]);
  expect(demo.code, demo.stderr).toBe(0);
  mkdirSync(folder);
  const first = await runCli(['backup', '--data', data, '--out', out]);
  expect(first.code, first.stderr).toBe(0);
  // ~120 MB more rows, so that VACUUM INTO takes long enough to be interrupted while it writes.
  const db = new Database(join(data, 'canonry.db'));
  try {
    db.exec('CREATE TABLE filler (b BLOB)');
    const insert = db.prepare('INSERT INTO filler VALUES (randomblob(4000))');
    db.transaction(() => {
      for (let i = 0; i < 30_000; i++) insert.run();
    })();
  } finally {
    db.close();
  }
}, 120_000);

/** The temporary copy beside --out once it exists (`written`: once SQLite has written into it). */
function copyBeside(written: boolean): string | undefined {
  for (const name of readdirSync(folder)) {
    if (!name.startsWith('.b.db.backup-')) continue;
    if (!written || statSync(join(folder, name)).size > 0) return name;
  }
  return undefined;
}

/**
 * `canonry backup --force`, sent `signal` once its copy is being written — or, `early`, as soon as
 * the empty copy exists, before the snapshot thread has opened it.
 */
function interruptedBackup(
  signal: NodeJS.Signals,
  early = false,
): Promise<{ code: number | null; signal: string | null; stderr: string; copy?: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [CLI, 'backup', '--data', data, '--out', out, '--force'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    let copy: string | undefined;
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const poll = setInterval(() => {
      copy = copyBeside(!early);
      if (copy !== undefined) {
        clearInterval(poll);
        child.kill(signal);
      }
    }, 1);
    child.on('error', reject);
    child.on('close', (code, killed) => {
      clearInterval(poll);
      resolve({ code, signal: killed, stderr, copy });
    });
  });
}

describe('a backup interrupted while it copies', { timeout: 120_000 }, () => {
  for (const [signal, status] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal}: removes its copy, leaves --out as it was, exits ${status}`, async () => {
      const before = sha(out);
      const r = await interruptedBackup(signal);
      expect(r.copy, r.stderr).toBeDefined();
      expect(r.signal, r.stderr).toBeNull();
      expect(r.code, r.stderr).toBe(status);
      expect(r.stderr).toContain(
        `backup: interrupted by ${signal}: no backup written, its temporary copy removed`,
      );
      expect(r.stderr).not.toContain('wrote ');
      expect(readdirSync(folder)).toEqual(['b.db']);
      expect(sha(out)).toBe(before);
    });
  }

  it('SIGINT before SQLite opens its copy: the copy it then makes is removed before the exit', async () => {
    const before = sha(out);
    const r = await interruptedBackup('SIGINT', true);
    expect(r.copy, r.stderr).toBeDefined();
    expect(r.code, r.stderr).toBe(130);
    expect(readdirSync(folder)).toEqual(['b.db']);
    expect(sha(out)).toBe(before);
  });
});
