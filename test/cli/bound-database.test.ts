// A data directory is bound to one database (store.json). A command or `serve` that would open a
// database which cannot be that one — its SQLite file deleted or emptied, no --db for a directory
// bound to PostgreSQL — refuses before it creates anything; and a --db that is a FIFO, a device or
// :memory: is refused, typed, instead of hanging or binding to a database gone at exit.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/runtime.js';
import { serveRefuses } from '../helpers/serve.js';
import { freshPostgresSchema, postgresAvailable } from '../helpers/stores.js';

const temp = tempDir('canonry-cli-bound-');
afterAll(() => temp.cleanup());

/** A data directory with a keyring, bound to its SQLite database, holding one token. */
async function boundDirectory(name: string): Promise<string> {
  const dir = join(temp.dir, name);
  const made = await runCli(
    ['tokens', 'create', '--project', 'p', '--principal', 'a', '--role', 'owner', '--data', dir],
    {},
  );
  expect(made.stderr).not.toMatch(/canonry: [A-Z_]+:/);
  expect(made.code).toBe(0);
  return dir;
}

describe('a data directory whose SQLite database is gone', () => {
  it.each([
    ['deleted', (db: string) => rmSync(db)],
    ['truncated to 0 bytes', (db: string) => truncateSync(db, 0)],
  ])(
    'is refused when the database is %s, naming it and the restore, creating nothing',
    async (_, lose) => {
      const dir = await boundDirectory(`lost-${readdirSync(temp.dir).length}`);
      const db = join(dir, 'canonry.db');
      for (const f of [`${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
      lose(db);
      const before = readdirSync(dir).sort();
      const sizeBefore = existsSync(db) ? readFileSync(db).length : -1;

      const listed = await runCli(['tokens', 'list', '--project', 'p', '--data', dir]);
      expect(listed.code).toBe(1);
      expect(listed.stderr).toMatch(
        /^canonry: STORE_UNAVAILABLE: the database .*canonry\.db is missing .*restore it from its backup/,
      );
      const served = await serveRefuses(dir);
      expect(served.code).toBe(1);
      expect(served.stderr).toMatch(/STORE_UNAVAILABLE: the database .*canonry\.db is missing/);
      expect(served.stderr).not.toMatch(/STORE_MISMATCH/);
      // Nothing made: no new database, no WAL beside it.
      expect(readdirSync(dir).sort()).toEqual(before);
      expect(existsSync(db) ? readFileSync(db).length : -1).toBe(sizeBefore);
    },
    60_000,
  );
});

describe('a data directory whose keyring is gone', () => {
  it('gets no new keys: keys init, keys hmac rotate and a token refused, keys/ with only hmac/ as missing', async () => {
    const dir = await boundDirectory('keys-lost');
    rmSync(join(dir, 'keys'), { recursive: true });
    const refused = [
      ['keys', 'init'],
      ['keys', 'hmac', 'rotate', '--project', 'p'],
      ['tokens', 'create', '--project', 'p', '--principal', 'b', '--role', 'owner'],
    ];
    for (const args of refused) {
      const res = await runCli([...args, '--data', dir]);
      expect(res.code, args.join(' ')).toBe(1);
      expect(res.stderr, args.join(' ')).toMatch(
        /^canonry: KEYRING_MISSING: .*keys is missing, but .* is bound to a database .*restore keys\/ from its backup/,
      );
      expect(existsSync(join(dir, 'keys')), args.join(' ')).toBe(false);
    }
    // An HMAC folder (made before this canonry refused it, or by hand) is no keyring: a command
    // that would make one is still refused, and mints none beside it.
    mkdirSync(join(dir, 'keys', 'hmac', 'p'), { recursive: true });
    const made = await runCli([...refused[2]!, '--data', dir]);
    expect(made.code).toBe(1);
    expect(made.stderr).toMatch(/^canonry: KEYRING_MISSING: .*keys holds no keyring, but /);
    expect(readdirSync(join(dir, 'keys'))).toEqual(['hmac']);
  }, 60_000);
});

describe('a fresh data directory whose database is refused', () => {
  it('gets no keyring: a --db that cannot be opened, is not SQLite, or is signed under another root', async () => {
    const other = await boundDirectory('another-root');
    const text = join(temp.dir, 'not-a-database.txt');
    writeFileSync(text, 'hello\n');
    const cases = [
      [`sqlite:${join(text, 'x.db')}`, 'STORE_UNAVAILABLE'],
      [text, 'STORE_CORRUPT'],
      [join(other, 'canonry.db'), 'KEYRING_MISMATCH'],
    ] as const;
    for (const [i, [db, code]] of cases.entries()) {
      const fresh = join(temp.dir, `fresh-refused-${i}`);
      const made = await runCli([
        'tokens',
        'create',
        '--project',
        'p',
        '--principal',
        'b',
        '--role',
        'owner',
        '--data',
        fresh,
        '--db',
        db,
      ]);
      expect(made.code, db).toBe(1);
      expect(made.stderr, db).toMatch(new RegExp(`^canonry: ${code}: `));
      expect(existsSync(fresh), db).toBe(false);
      const served = await serveRefuses(fresh, { args: ['--db', db] });
      expect(served.code, db).toBe(1);
      expect(served.stderr, db).toContain(`${code}: `);
      expect(existsSync(fresh), db).toBe(false);
    }
    expect(readFileSync(text, 'utf8')).toBe('hello\n');
  }, 120_000);
});

describe.skipIf(!postgresAvailable)('a data directory bound to PostgreSQL', () => {
  it('refuses a command without --db, naming the database (never its password), creating no SQLite file', async () => {
    const pg = await freshPostgresSchema();
    try {
      // A password the server (trust auth) ignores: it must never be echoed.
      const url = pg.url.replace('postgres://postgres@', 'postgres://postgres:s3cret-pw@');
      const dir = join(temp.dir, 'on-postgres');
      const made = await runCli(
        ['tokens', 'create', '--project', 'p', '--principal', 'a', '--role', 'owner'],
        { env: { CANONRY_DATA: dir, CANONRY_DB: url } },
      );
      expect(made.code).toBe(0);
      const before = readdirSync(dir).sort();
      expect(before).not.toContain('canonry.db');

      for (const args of [
        ['tokens', 'list', '--project', 'p', '--data', dir],
        ['journal', 'read', '--project', 'p', '--data', dir],
      ]) {
        const refused = await runCli(args, { env: { CANONRY_DB: '' } });
        expect({ args, code: refused.code }).toEqual({ args, code: 1 });
        expect(refused.stderr).toMatch(
          /^canonry: STORE_MISMATCH: .* is bound to the database postgres:\/\/postgres:\*\*\*@127\.0\.0\.1.*pass that database with --db or CANONRY_DB/,
        );
        expect(refused.stderr).not.toContain('s3cret-pw');
        expect(readdirSync(dir).sort()).toEqual(before);
      }
      const served = await serveRefuses(dir, { env: { CANONRY_DB: '' } });
      expect(served.stderr).toMatch(/STORE_MISMATCH: .* is bound to the database postgres:/);
      expect(readdirSync(dir).sort()).toEqual(before);
    } finally {
      await pg.drop();
    }
  }, 60_000);
});

describe('--db naming what cannot hold a database', () => {
  it('refuses a FIFO (no hang) and a device, typed, before making the data directory', async () => {
    const fifo = join(temp.dir, 'db.fifo');
    execFileSync('mkfifo', [fifo]);
    for (const [db, kind] of [
      [fifo, 'a FIFO'],
      ['/dev/null', 'a device'],
    ] as const) {
      const dir = join(temp.dir, `fresh-${kind.replace(/\W/g, '')}`);
      const served = await serveRefuses(dir, { args: ['--db', db] });
      expect(served.code).toBe(1);
      expect(served.stderr).toContain(`STORE_UNAVAILABLE: the database ${db} is ${kind}`);
      const viaEnv = await runCli(
        ['tokens', 'create', '--project', 'p', '--principal', 'a', '--role', 'owner'],
        { env: { CANONRY_DATA: dir, CANONRY_DB: db } },
      );
      expect(viaEnv.stderr).toMatch(/^canonry: STORE_UNAVAILABLE: .* not a regular file/);
      expect(existsSync(dir)).toBe(false);
    }
  }, 60_000);

  it('refuses :memory: naming the flag or the variable', async () => {
    const dir = join(temp.dir, 'memory');
    const flag = await serveRefuses(dir, { args: ['--db', ':memory:'] });
    expect(flag.stderr).toMatch(/INVALID_ARGUMENT: --db may not be :memory:/);
    const variable = await runCli(['journal', 'read', '--project', 'p', '--data', dir], {
      env: { CANONRY_DB: 'sqlite::memory:' },
    });
    expect(variable.stderr).toMatch(/^canonry: INVALID_ARGUMENT: CANONRY_DB may not be :memory:/);
    expect(existsSync(dir)).toBe(false);
  }, 60_000);
});
