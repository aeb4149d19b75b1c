// A `canonry backup` killed with SIGKILL after its snapshot leaves its temporary copy beside --out
// and nothing at --out; the next backup to that name removes the copy, and only a copy whose writer
// has ended.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/runtime.js';

const temp = tempDir('canonry-cli-backup-kill-');
afterAll(temp.cleanup);

/** Runs `canonry backup …` and kills it with SIGKILL once it says its snapshot is taken. */
function backupKilledAfterSnapshot(
  args: string[],
): Promise<{ stderr: string; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'backup', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
      if (stderr.includes('backup: snapshot:')) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (_code, signal) => resolve({ stderr, signal }));
  });
}

describe('a backup killed mid-way', { timeout: 120_000 }, () => {
  it('leaves no file at --out, and the next backup removes its copy (a live writer’s copy is kept)', async () => {
    const data = join(temp.dir, 'data');
    const demo = await runCli(['demo', '--data', data]);
    expect(demo.code, demo.stderr).toBe(0);
    const folder = join(temp.dir, 'backups');
    const out = join(folder, 'b.db');
    mkdirSync(folder);

    const killed = await backupKilledAfterSnapshot(['--data', data, '--out', out]);
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    expect(existsSync(out)).toBe(false);
    const left = readdirSync(folder);
    expect(left).toHaveLength(1);
    const copy = left[0]!;
    // A whole copy of the database: as private as the database.
    expect(statSync(join(folder, copy)).mode & 0o777).toBe(0o600);

    const again = await runCli(['backup', '--data', data, '--out', out]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`removed ${copy}, the copy of a backup that was interrupted`);
    expect(readdirSync(folder)).toEqual(['b.db']);

    // Named for its writer (this host, its pid): the copy of a backup still running (here, this
    // test's process) is not the next backup's to remove, nor is a file that only looks like one.
    expect(copy).toMatch(/^\.b\.db\.backup-[0-9a-f]{8}-[0-9]+-[0-9a-f]{12}\.tmp$/);
    const live = copy.replace(/-[0-9]+-([0-9a-f]{12})\.tmp$/, `-${process.pid}-0123456789ab.tmp`);
    copyFileSync(out, join(folder, live));
    writeFileSync(join(folder, '.b.db.backup-notes.tmp'), 'not a copy\n');
    const third = await runCli(['backup', '--data', data, '--out', out, '--force']);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).not.toContain('removed');
    expect(readdirSync(folder).sort()).toEqual(['.b.db.backup-notes.tmp', live, 'b.db'].sort());
  });
});
