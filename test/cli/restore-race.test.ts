// A store opened while `canonry restore` swaps the database file (a `canonry serve` started during a
// restore) waits out the restore's exclusive lock — and must then use the restored file at the path,
// not the old one it opened first, which restore keeps aside as `canonry.db.replaced-<time>` (and
// which SQLite then refuses to write: SQLITE_READONLY_DBMOVED, so the server would not start). Over
// the built package, with the restore's own lock (`holdSqliteExclusive`) and its swap (a hard link
// aside, then a rename).
import { spawn } from 'node:child_process';
import { linkSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { holdSqliteExclusive } from '../../dist/store/index.js';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'open-during-restore.mjs');
let dir: string;

afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A WAL database at `path` whose table `t` holds `rows`. */
function database(path: string, rows: string[]): void {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (x TEXT)');
  for (const x of rows) db.prepare('INSERT INTO t (x) VALUES (?)').run(x);
  db.close();
}

const rowsOf = (path: string): string[] => {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT x FROM t ORDER BY rowid').all() as { x: string }[]).map((r) => r.x);
  } finally {
    db.close();
  }
};

it('a store opened during a restore writes into the restored file, not the one set aside', async () => {
  dir = mkdtempSync(join(tmpdir(), 'canonry-restore-race-'));
  const live = join(dir, 'canonry.db');
  const restored = join(dir, 'restored.db');
  database(live, ['old']);
  database(restored, ['restored']);
  const hold = holdSqliteExclusive(live);
  hold.seal();
  const child = spawn(process.execPath, [FIXTURE, live], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((done) => child.on('close', done));
  try {
    const started = Date.now();
    while (!out.includes('opening') && Date.now() - started < 10_000) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(out).toContain('opening');
    // Long enough for the child to have opened the old file and to wait on its lock.
    await new Promise((r) => setTimeout(r, 500));
    expect(out).not.toContain('wrote');
    // The swap, as restore makes it: the old file kept aside, the restored one renamed in.
    linkSync(live, `${live}.replaced-1`);
    renameSync(restored, live);
  } finally {
    hold.release();
  }
  expect(await exited, err).toBe(0);
  expect(out).toContain('wrote');
  expect(rowsOf(live)).toEqual(['restored', 'child']);
  expect(rowsOf(`${live}.replaced-1`)).toEqual(['old']);
});
