// A data directory canonry cannot use, and a disk that fails under `canonry serve`, from outside.
// Starting: on a read-only file system (a 4 MiB tmpfs remounted read-only), a full one, or a
// directory of another user, `canonry keys init` and `canonry serve` exit 1 with one line naming the
// file and the cause (STORE_UNAVAILABLE, STORE_FULL), never INTERNAL or a stack trace, and keep no
// part of `store.json`. Serving: once the process may no longer write its files (its file-size
// limit lowered to one byte: SQLite's writes fail as SQLITE_IOERR_WRITE), appends over HTTP answer
// 503 STORE_UNAVAILABLE (never a 500), reads still answer, and once the disk works again the same
// appends land and `canonry journal verify` passes. Needs root (mount, setpriv) and prlimit: under
// CI=true their absence is a failure.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_METADATA_HASH } from '../../src/kernel/index.js';
import { call } from '../helpers/auth.js';
import { CLI, issueTokens, runCli } from '../helpers/cli.js';
import { fill, permitted, type SmallDisk, smallTmpfs } from '../helpers/disk.js';
import { refundProtocol, tempDir } from '../helpers/runtime.js';
import { serveRefuses, startServe } from '../helpers/serve.js';

const P = 'disk';
const SUITE = 'storage failure process test';

/** A refusal to start as the operator reads it: exit 1, one typed line, no stack trace. */
function expectOneLine(result: { code: number | null; stderr: string }, line: RegExp): void {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stderr).not.toMatch(/INTERNAL|^\s+at /m);
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(line);
}

/** `canonry …` as user nobody; resolves to its exit code and stderr. */
function asNobody(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'setpriv',
      ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, CLI, ...args],
      { env: { ...process.env, CANONRY_LOG_LEVEL: 'warn' }, cwd: '/' },
    );
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('canonry on a data directory it cannot use', () => {
  let disk: SmallDisk | undefined;
  let dir: string;
  let mounted = false;
  beforeAll(() => {
    disk = smallTmpfs(SUITE, 'canonry-unusable-');
    ({ dir, mounted } = disk);
  });
  afterAll(() => disk?.release());
  const remount = (mode: 'ro' | 'rw') => execFileSync('mount', ['-o', `remount,${mode}`, dir]);

  it('a read-only or full disk, or another user’s folder, is one typed line naming the file, and nothing half-written stays', async (context) => {
    if (!mounted) context.skip();
    const data = join(dir, 'data');
    mkdirSync(data, { mode: 0o700 });
    // Elsewhere (not on the tmpfs), so the start reaches the data directory's own store.json.
    const { dir: elsewhere, cleanup: dropElsewhere } = tempDir('canonry-db-');
    const database = `sqlite:${join(elsewhere, 'canonry.db')}`;
    try {
      // An empty data directory on a read-only disk: no keyring can be made.
      remount('ro');
      expectOneLine(
        await runCli(['keys', 'init', '--data', data]),
        /^canonry: STORE_UNAVAILABLE: cannot create \S+\/data\/keys: its file system is read-only \(EROFS\)/,
      );
      // serve opens its database before it makes a keyring: the database is what it cannot create.
      expectOneLine(
        await serveRefuses(data),
        /^canonry: STORE_UNAVAILABLE: cannot create or open the database \S+\/data\/canonry\.db: its file system is read-only \(EROFS\)/,
      );
      // Another user’s folder: user nobody may not read root’s 0700 data directory, store.json first.
      remount('rw');
      if (permitted(SUITE, 'setpriv', 'setpriv', ['--reuid=65534', 'true'])) {
        expectOneLine(
          await asNobody(['serve', '--port', '0', '--data', data]),
          /^canonry: STORE_UNAVAILABLE: cannot read \S+\/data\/store\.json: permission denied/,
        );
      }

      // A keyring and a database, but no store.json yet (the data directory was set up with
      // another database): on a read-only disk it cannot be written, nor the database opened.
      await issueTokens(data, P, [['alice', 'owner']]);
      rmSync(join(data, 'store.json'));
      remount('ro');
      expectOneLine(
        await serveRefuses(data, { args: ['--db', database] }),
        /^canonry: STORE_UNAVAILABLE: cannot write \S+\/data\/store\.json: its file system is read-only \(EROFS\)/,
      );
      expectOneLine(
        await serveRefuses(data),
        /^canonry: STORE_UNAVAILABLE: cannot create or open the database \S+\/data\/canonry\.db: its file system is read-only \(EROFS\)/,
      );
      remount('rw');

      // On a full disk: STORE_FULL, and no part of store.json (nor its temp file) stays.
      const before = readdirSync(data).sort();
      const filler = join(dir, 'filler');
      fill(filler);
      expectOneLine(
        await serveRefuses(data, { args: ['--db', database] }),
        /^canonry: STORE_FULL: cannot write \S+\/data\/store\.json: no space is left on its disk \(ENOSPC\)/,
      );
      expect(readdirSync(data).sort()).toEqual(before);

      // Once space is back, it starts and records its database.
      rmSync(filler);
      const served = await startServe(data, { args: ['--db', database] });
      await served.stop();
      expect(readdirSync(data)).toContain('store.json');
    } finally {
      remount('rw');
      dropElsewhere();
    }
  });

  it('a data directory whose path runs through a file is one typed line, not a keyring said to be corrupt', async () => {
    const { dir: base, cleanup: drop } = tempDir('canonry-notdir-');
    try {
      const file = join(base, 'a-file');
      closeSync(openSync(file, 'w'));
      const data = join(file, 'data');
      const through = (file: string) =>
        new RegExp(
          `^canonry: STORE_UNAVAILABLE: cannot read \\S+/a-file/data/${file}: a part of its path is a file, not a folder \\(ENOTDIR\\)$`,
        );
      expectOneLine(await runCli(['keys', 'init', '--data', data]), through('keys'));
      // A start reads store.json first, once.
      expectOneLine(await serveRefuses(data), through('store\\.json'));
    } finally {
      drop();
    }
  });
});

describe('canonry serve when its disk fails', () => {
  it('appends answer 503 STORE_UNAVAILABLE, reads still answer, and appends land once the disk works again', async (context) => {
    if (!permitted(SUITE, 'prlimit', 'prlimit', ['--pid', String(process.pid), '--fsize'])) {
      context.skip();
    }
    const { dir, cleanup } = tempDir('canonry-ioerr-');
    try {
      const data = join(dir, 'data');
      const { alice } = await issueTokens(data, P, [['alice', 'owner']]);
      const served = await startServe(data, { timeoutMs: 60_000 });
      // The server's own file-size limit: one byte lets no file grow, and SQLite answers
      // SQLITE_IOERR_WRITE; lifted again, writes succeed. Its log is a pipe, not a file.
      const limit = (size: string) =>
        execFileSync('prlimit', ['--pid', String(served.child.pid), `--fsize=${size}:`]);
      try {
        const post = (id: string) =>
          call(served.url, 'POST', `/v1/projects/${P}/messages?classify=false`, alice, {
            message_id: id,
            text: `message ${id}`,
          });
        for (let i = 0; i < 3; i++) expect((await post(`warm-${i}`)).status).toBe(201);

        limit('1');
        const failed = await Promise.all(Array.from({ length: 8 }, (_, i) => post(`io-${i}`)));
        for (const r of failed) {
          expect(r.status, JSON.stringify(r.body)).toBe(503);
          expect(r.body.error.code).toBe('STORE_UNAVAILABLE');
          expect(r.body.error.details.sqlite).toMatch(/^SQLITE_IOERR/);
        }
        const read = await call(served.url, 'GET', `/v1/projects/${P}/messages/warm-0`, alice);
        expect(read.status, JSON.stringify(read.body)).toBe(200);
        const verdict = await fetch(`${served.url}/v1/validate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            artifact: { amount: 10 },
            agentic_protocol: refundProtocol(),
            generation_metadata_hash: EMPTY_METADATA_HASH,
          }),
        });
        expect(verdict.status).toBe(200);
        expect(served.stderr()).toMatch(/"sqlite":"SQLITE_IOERR[A-Z_]*".*the database file failed/);
        expect(served.stderr()).not.toMatch(/unhandled error/);

        limit('unlimited');
        const again = await Promise.all(Array.from({ length: 8 }, (_, i) => post(`io-${i}`)));
        for (const r of again) expect(r.status, JSON.stringify(r.body)).toBe(201);
      } finally {
        await served.stop();
      }
      const verified = await runCli([
        'journal',
        'verify',
        '--project',
        P,
        '--data',
        data,
        '--json',
      ]);
      expect(verified.code, verified.stderr).toBe(0);
      const report = JSON.parse(verified.stdout);
      expect(report).toMatchObject({ ok: true, broken: null });
      expect(report.checked).toBe(1 + 3 + 8); // the token's entry, then every acknowledged message
    } finally {
      cleanup();
    }
  });
});
