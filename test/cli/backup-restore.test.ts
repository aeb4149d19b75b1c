// `canonry backup` takes a consistent, verified copy of a data directory's SQLite database while a
// real `canonry serve` goes on appending over HTTP, and `canonry restore` puts it back — refused
// while any process has the database open, refused for a file that is not a good canonry database
// (the live one untouched), and keeping the database it replaces.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { JOURNAL_MIGRATIONS } from '../../src/journal/index.js';
import { call } from '../helpers/auth.js';
import { issueTokens, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/runtime.js';
import { type ServeProcess, serveRefuses, startServe } from '../helpers/serve.js';

const temp = tempDir('canonry-cli-backup-');
let serve: ServeProcess | undefined;
afterAll(async () => {
  await serve?.stop('SIGKILL');
  temp.cleanup();
});

type Chain = Map<number, string>;

/** Every (seq → hash) of a project's journal in a database file, read without writing to it. */
function chainIn(file: string, project: string): Chain {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare('SELECT seq, hash FROM journal_entries WHERE project = ? ORDER BY seq')
      .all(project) as { seq: number; hash: string }[];
    return new Map(rows.map((r) => [Number(r.seq), r.hash]));
  } finally {
    db.close();
  }
}

function integrity(file: string): string[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('PRAGMA integrity_check').pluck().all() as string[];
  } finally {
    db.close();
  }
}

/** What a start could write before it serves: migrations applied, the store's identity, the heads. */
function recorded(file: string): unknown[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return [
      'SELECT module, version, name, applied_at FROM canonry_migrations ORDER BY module, version',
      'SELECT * FROM canonry_store',
      'SELECT project, seq, hash FROM journal_heads ORDER BY project',
    ].map((sql) => db.prepare(sql).all());
  } finally {
    db.close();
  }
}

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The one `canonry: CODE: …` line of a refusal, and that nothing else (no stack) was printed. */
function refusal(run: { code: number; stderr: string }): string | undefined {
  expect(run.code).toBe(1);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  const lines = run.stderr.trim().split('\n');
  return /^canonry: ([A-Z_]+): /.exec(lines.at(-1)!)?.[1];
}

/** Files of a data directory a restore may leave: the replaced database, temporary copies. */
const leftovers = (dir: string) =>
  readdirSync(dir).filter((f) => f.includes('.replaced-') || f.endsWith('.tmp'));

describe('backup while serve writes, then restore', { timeout: 240_000 }, () => {
  const data = join(temp.dir, 'live');
  const backup = join(temp.dir, 'live.backup.db');

  it('copies a prefix of the live journal that verifies, and restores it as the head', async () => {
    const { owner } = await issueTokens(data, 'p', [['owner', 'owner']]);
    serve = await startServe(data);
    const url = serve.url;

    // Writers append continuously over HTTP (one journal entry per archived message).
    let acknowledged = 0;
    let writing = true;
    const failures: string[] = [];
    const writer = async (w: number) => {
      for (let i = 0; writing; i++) {
        const r = await call(url, 'POST', '/v1/projects/p/messages?classify=false', owner!, {
          text: `writer ${w} message ${i}`,
        });
        if (r.status === 201) acknowledged++;
        else failures.push(`${r.status} ${JSON.stringify(r.body)}`);
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    while (acknowledged < 40) await new Promise((r) => setTimeout(r, 20));

    const atStart = acknowledged;
    const made = await runCli(['backup', '--data', data, '--out', backup, '--json']);
    const duringBackup = acknowledged - atStart;
    // Let the live journal move past the snapshot before the writers stop.
    const atEnd = acknowledged;
    while (acknowledged < atEnd + 20) await new Promise((r) => setTimeout(r, 20));
    writing = false;
    await Promise.all(writers);
    expect(failures).toEqual([]);
    expect(made.code, made.stderr).toBe(0);
    // The server kept acknowledging appends while the backup ran: it was taken under writes.
    expect(duringBackup).toBeGreaterThan(0);

    const summary = JSON.parse(made.stdout);
    expect(summary.file).toBe(backup);
    expect(summary.bytes).toBe(statSync(backup).size);
    expect(summary.keys_included).toBe(false);
    expect(summary.keys).toMatch(/keys\/ is not in the backup/);
    const p = summary.projects.find((c: { project: string }) => c.project === 'p');
    // Every append acknowledged before the backup started is in it (and the token's entry).
    expect(p.head.seq).toBeGreaterThanOrEqual(atStart + 1);
    expect(p.entries).toBe(p.head.seq);
    for (const step of [/snapshot: .*VACUUM INTO/, /fsync/, /integrity_check: ok/, /verified p: /])
      expect(made.stderr).toMatch(step);
    expect(statSync(backup).mode & 0o777).toBe(0o600);
    expect(integrity(backup)).toEqual(['ok']);
    const copied = chainIn(backup, 'p');
    expect(copied.size).toBe(p.head.seq);
    expect(copied.get(p.head.seq)).toBe(p.head.hash);
    expect(readdirSync(temp.dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    // An idle server still has the database open: restore refuses, in one line, and changes nothing.
    const busy = await runCli(['restore', '--data', data, '--from', backup]);
    expect(refusal(busy)).toBe('STORE_IN_USE');
    expect(busy.stderr.trim().split('\n')).toHaveLength(1);
    expect(leftovers(data)).toEqual([]);
    const stillServing = await call(url, 'GET', '/v1/projects/p/journal?limit=1', owner!);
    expect(stillServing.status).toBe(200);
    const liveHead = stillServing.body.head as { seq: number; hash: string };
    expect(liveHead.seq).toBeGreaterThan(p.head.seq);

    // The server dies without closing (its WAL left behind); then the backup is restored.
    await serve.stop('SIGKILL');
    serve = undefined;
    const restored = await runCli(['restore', '--data', data, '--from', backup, '--json']);
    expect(restored.code, restored.stderr).toBe(0);
    const done = JSON.parse(restored.stdout);
    expect(done.database).toBe(join(data, 'canonry.db'));
    expect(done.projects.find((c: { project: string }) => c.project === 'p').head).toEqual(p.head);
    for (const step of [/holding it/, /integrity_check: ok/, /verified p: /, /kept the replaced/])
      expect(restored.stderr).toMatch(step);

    // The replaced database is kept whole — its WAL folded in — and the backup is a prefix of it.
    expect(done.replaced).toMatch(/canonry\.db\.replaced-/);
    const replaced = done.replaced as string;
    expect(statSync(replaced).mode & 0o777).toBe(0o600);
    expect(readdirSync(data).filter((f) => f.startsWith('canonry.db.replaced-'))).toEqual([
      replaced.slice(data.length + 1),
    ]);
    expect(integrity(replaced)).toEqual(['ok']);
    const live = chainIn(replaced, 'p');
    expect(live.size).toBe(liveHead.seq);
    expect(live.get(liveHead.seq)).toBe(liveHead.hash);
    for (const [seq, hash] of copied) expect(live.get(seq), `seq ${seq}`).toBe(hash);
    // No stale WAL or shared memory of the old database beside the restored one.
    expect(readdirSync(data).filter((f) => /^canonry\.db-(wal|shm|journal)$/.test(f))).toEqual([]);

    // Served again, the project's head is the backup's, the chain verifies, and appends go on.
    serve = await startServe(data);
    const after = await call(serve.url, 'GET', '/v1/projects/p/journal?limit=1', owner!);
    expect(after.body.head).toEqual({ project: 'p', ...p.head });
    const verified = await call(serve.url, 'GET', '/v1/projects/p/journal/verify', owner!);
    expect(verified.body).toMatchObject({ ok: true, head: p.head });
    const next = await call(serve.url, 'POST', '/v1/projects/p/messages?classify=false', owner!, {
      text: 'after the restore',
    });
    expect(next.status).toBe(201);
    const moved = await call(serve.url, 'GET', '/v1/projects/p/journal?limit=1', owner!);
    expect(moved.body.head.seq).toBe(p.head.seq + 1);
    await serve.stop();
    serve = undefined;
  });
});

describe('restore refuses what is not a good backup, and leaves the live database alone', {
  timeout: 120_000,
}, () => {
  const data = join(temp.dir, 'quiet');
  const good = join(temp.dir, 'quiet.backup.db');
  const file = (name: string) => join(temp.dir, name);

  it('refuses a foreign, damaged, tampered or other-root file', async () => {
    await issueTokens(data, 'q', [['ada', 'owner']]);
    const made = await runCli(['backup', '--data', data, '--out', good]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/keys\/ is not in the backup/);

    writeFileSync(file('text.db'), 'not a database\n');
    const foreign = new Database(file('foreign.db'));
    foreign.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)');
    foreign.close();

    // A page of an index overwritten: SQLite's integrity check (or its first read) fails.
    copyFileSync(good, file('damaged.db'));
    const probe = new Database(file('damaged.db'), { readonly: true });
    const pageSize = probe.pragma('page_size', { simple: true }) as number;
    const { rootpage } = probe
      .prepare("SELECT rootpage FROM sqlite_master WHERE name = 'journal_entries_idempotency'")
      .get() as { rootpage: number };
    probe.close();
    const bytes = readFileSync(file('damaged.db'));
    bytes.fill(0xff, (rootpage - 1) * pageSize, rootpage * pageSize);
    writeFileSync(file('damaged.db'), bytes);

    // A journal entry edited under its hash: a valid database whose chain does not verify.
    copyFileSync(good, file('tampered.db'));
    const tamper = new Database(file('tampered.db'));
    tamper
      .prepare("UPDATE journal_entries SET actor = 'mallory' WHERE project = 'q' AND seq = 1")
      .run();
    tamper.close();

    // A good backup of another data directory: another root, another store.
    const other = join(temp.dir, 'other');
    await issueTokens(other, 'q', [['bob', 'owner']]);
    expect((await runCli(['backup', '--data', other, '--out', file('other.db')])).code).toBe(0);

    const before = sha(join(data, 'canonry.db'));
    const cases: [string, string][] = [
      ['text.db', 'INVALID_BACKUP'],
      ['foreign.db', 'INVALID_BACKUP'],
      ['damaged.db', 'STORE_CORRUPT'],
      ['tampered.db', 'CHAIN_BROKEN'],
      ['other.db', 'KEYRING_MISMATCH'],
      ['missing.db', 'FILE_UNREADABLE'],
    ];
    for (const [name, code] of cases) {
      const run = await runCli(['restore', '--data', data, '--from', file(name)]);
      expect(refusal(run), name).toBe(code);
      expect(sha(join(data, 'canonry.db')), name).toBe(before);
      expect(leftovers(data), name).toEqual([]);
    }
    const json = await runCli(['restore', '--data', data, '--from', file('tampered.db'), '--json']);
    expect(JSON.parse(json.stdout).error.code).toBe('CHAIN_BROKEN');

    // The good one restores (nothing ran meanwhile), keeping the database it replaced.
    const ok = await runCli(['restore', '--data', data, '--from', good]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/the replaced database is kept as .*canonry\.db\.replaced-/);
    const verified = await runCli(['journal', 'verify', '--project', 'q', '--data', data]);
    expect(verified.code, verified.stderr).toBe(0);
  });

  it('refuses a database a newer canonry migrated, on restore and on start, changing nothing', async () => {
    // As a newer canonry leaves it: one more journal migration recorded than this one knows.
    const known = JOURNAL_MIGRATIONS.length;
    const newer = file('newer.db');
    copyFileSync(good, newer);
    const db = new Database(newer);
    db.prepare(
      "INSERT INTO canonry_migrations (module, version, name, applied_at) VALUES ('journal', ?, 'from a newer canonry', '2027-01-01T00:00:00.000Z')",
    ).run(known + 1);
    db.close();

    const before = sha(join(data, 'canonry.db'));
    // The database the last good restore replaced is kept there; nothing is added to it.
    const kept = leftovers(data);
    const restore = await runCli(['restore', '--data', data, '--from', newer]);
    expect(refusal(restore)).toBe('SCHEMA_TOO_NEW');
    expect(restore.stderr).toContain(
      `its journal schema is at version ${known + 1}, and this canonry knows ${known}`,
    );
    expect(sha(join(data, 'canonry.db'))).toBe(before);
    expect(leftovers(data)).toEqual(kept);

    // Put in place by other means (a newer canonry ran here, then an older one is started): the
    // runtime refuses before it migrates or binds anything, and the file is left as it was.
    const moved = join(temp.dir, 'downgraded');
    cpSync(data, moved, { recursive: true });
    copyFileSync(newer, join(moved, 'canonry.db'));
    const untouched = recorded(join(moved, 'canonry.db'));
    const started = await serveRefuses(moved);
    expect(started.code).toBe(1);
    expect(started.stderr).toMatch(/canonry: SCHEMA_TOO_NEW: .* was migrated by a newer canonry/);
    expect(started.stderr).not.toMatch(/\n\s+at /);
    // Opening the file switches it to WAL, as every open does; no migration or row was written.
    expect(recorded(join(moved, 'canonry.db'))).toEqual(untouched);
    const verify = await runCli(['journal', 'verify', '--project', 'q', '--data', moved, '--json']);
    expect(verify.code).toBe(1);
    expect(JSON.parse(verify.stdout).error.code).toBe('SCHEMA_TOO_NEW');
  });

  it('refuses to overwrite a backup file unless --force', async () => {
    const out = file('kept.db');
    writeFileSync(out, 'an older backup\n');
    const refused = await runCli(['backup', '--data', data, '--out', out]);
    expect(refusal(refused)).toBe('INVALID_ARGUMENT');
    expect(refused.stderr).toMatch(/exists; pass --force/);
    expect(readFileSync(out, 'utf8')).toBe('an older backup\n');

    const forced = await runCli(['backup', '--data', data, '--out', out, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(integrity(out)).toEqual(['ok']);
    expect(statSync(out).mode & 0o777).toBe(0o600);
  });

  it('answers bad arguments with one line and exit 1, never a stack trace', async () => {
    const runs = [
      [['backup', '--out', file('x.db')], /required option '--data <dir>'/],
      [['backup', '--data', data], /required option '--out <file>'/],
      [['restore', '--data', data], /required option '--from <file>'/],
      [['restore', '--from', good], /required option '--data <dir>'/],
      [
        ['backup', '--data', data, '--out', join(temp.dir, 'no', 'such', 'x.db')],
        /INVALID_ARGUMENT: the folder of the backup file .* does not exist/,
      ],
      [
        ['backup', '--data', join(temp.dir, 'never-made'), '--out', file('y.db')],
        /INVALID_ARGUMENT: there is no database at/,
      ],
      [
        ['backup', '--data', data, '--out', join(data, 'canonry.db'), '--force'],
        /would replace the live database/,
      ],
      [
        ['backup', '--data', data, '--out', join(data, 'keys', 'root.key.pem'), '--force'],
        /is inside the data directory/,
      ],
      [
        ['backup', '--data', data, '--out', join(data, 'store.json'), '--force'],
        /is inside the data directory/,
      ],
      [['backup', '--data', data, '--out', file('linked.db'), '--force'], /is not a regular file/],
    ] as const;
    symlinkSync(join(data, 'keys', 'root.key.pem'), file('linked.db'));
    const key = readFileSync(join(data, 'keys', 'root.key.pem'));
    for (const [args, said] of runs) {
      const run = await runCli([...args]);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stdout, args.join(' ')).toBe('');
      expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(run.stderr, args.join(' ')).toMatch(said);
    }
    expect(readFileSync(join(data, 'keys', 'root.key.pem')).equals(key)).toBe(true);
    expect(lstatSync(file('linked.db')).isSymbolicLink()).toBe(true);
    const json = await runCli(['backup', '--out', file('x.db'), '--json']);
    expect(JSON.parse(json.stdout).error.code).toBe('INVALID_ARGUMENT');
    expect(readdirSync(temp.dir)).not.toContain('never-made');
  });

  it('refuses a directory, a device or a FIFO as the database, without opening it or leaving a file', async () => {
    const outs = join(temp.dir, 'irregular-outs');
    mkdirSync(outs);
    const folder = join(temp.dir, 'irregular-db');
    mkdirSync(folder);
    const fifo = join(temp.dir, 'irregular.fifo');
    execFileSync('mkfifo', [fifo]);
    // The FIFO last: opening one waits for a writer that never comes.
    for (const [db, kind] of [
      [folder, 'a directory'],
      ['/dev/zero', 'a device'],
      [fifo, 'a FIFO'],
    ] as const) {
      for (const args of [
        ['backup', '--data', data, '--db', db, '--out', join(outs, 'b.db')],
        ['restore', '--data', data, '--db', db, '--from', good],
      ]) {
        const run = await runCli(args);
        expect(refusal(run), `${args[0]} ${kind}`).toBe('STORE_UNAVAILABLE');
        expect(run.stderr).toContain(`the database ${db} is ${kind}, not a regular file`);
      }
    }
    expect(readdirSync(outs)).toEqual([]);
    expect(readdirSync(folder)).toEqual([]);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('points a PostgreSQL data directory at pg_dump, never echoing its URL', async () => {
    const url = 'postgres://canonry:s3cret@127.0.0.1:1/canonry';
    const byEnv = await runCli(['backup', '--data', data, '--out', file('pg.db')], {
      env: { CANONRY_DB: url },
    });
    expect(refusal(byEnv)).toBe('UNSUPPORTED_STORE');
    expect(byEnv.stderr).toMatch(/pg_dump/);
    expect(byEnv.stderr).not.toContain('s3cret');

    const pgDir = join(temp.dir, 'pg');
    await runCli(['keys', 'init', '--data', pgDir]);
    writeFileSync(
      join(pgDir, 'store.json'),
      JSON.stringify({ store_id: 'x', database: 'postgres://127.0.0.1/canonry' }),
    );
    for (const args of [
      ['backup', '--data', pgDir, '--out', file('pg.db')],
      ['restore', '--data', pgDir, '--from', good],
    ]) {
      const run = await runCli(args, { env: { CANONRY_DB: '' } });
      expect(refusal(run), args[0]).toBe('UNSUPPORTED_STORE');
      expect(run.stderr).toMatch(/pg_dump/);
    }
  });

  it('keeps the restored database 0600 whatever the mode of the backup file', async () => {
    for (const mode of [0o644, 0o666]) {
      const open = file(`open-${mode.toString(8)}.db`);
      copyFileSync(good, open);
      chmodSync(open, mode);
      const restored = await runCli(['restore', '--data', data, '--from', open]);
      expect(restored.code, restored.stderr).toBe(0);
      expect(statSync(join(data, 'canonry.db')).mode & 0o777).toBe(0o600);
      expect(statSync(open).mode & 0o777).toBe(mode);
    }
  });

  it('removes the copy a restore killed before its rename left in the data directory', async () => {
    // What a restore killed with SIGKILL after its copy leaves: a whole database beside the live one.
    const left = join(data, '.canonry.db.restore-0123456789ab.tmp');
    copyFileSync(good, left);
    writeFileSync(`${left}-journal`, '');
    writeFileSync(join(data, 'notes.restore-0123456789ab.tmp'), 'not a restore copy\n');
    const restored = await runCli(['restore', '--data', data, '--from', good]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stderr).toContain('removed .canonry.db.restore-0123456789ab.tmp');
    expect(readdirSync(data).filter((n) => n.includes('.restore-'))).toEqual([
      'notes.restore-0123456789ab.tmp',
    ]);
  });
});

describe('a data directory bound to a SQLite file outside it', { timeout: 120_000 }, () => {
  it('backs up and restores only that file: without --db, STORE_MISMATCH and no second database', async () => {
    const data = join(temp.dir, 'bound-elsewhere');
    const elsewhere = join(temp.dir, 'elsewhere');
    mkdirSync(elsewhere);
    const db = join(elsewhere, 'store.db');
    const made = await runCli([
      'tokens',
      'create',
      '--project',
      'q',
      '--principal',
      'ada',
      '--role',
      'owner',
      '--data',
      data,
      '--db',
      `sqlite:${db}`,
    ]);
    expect(made.code, made.stderr).toBe(0);
    const out = join(temp.dir, 'elsewhere.backup.db');

    const unnamed = await runCli(['backup', '--data', data, '--out', out]);
    expect(refusal(unnamed)).toBe('STORE_MISMATCH');
    expect(unnamed.stderr).toContain(`bound to the database sqlite:${db}`);
    const named = await runCli(['backup', '--data', data, '--db', db, '--out', out]);
    expect(named.code, named.stderr).toBe(0);

    // Restored without --db, the backup would become a second database of the same store.
    const stray = await runCli(['restore', '--data', data, '--from', out]);
    expect(refusal(stray)).toBe('STORE_MISMATCH');
    expect(readdirSync(data).filter((n) => n.includes('canonry.db'))).toEqual([]);
    const restored = await runCli(['restore', '--data', data, '--db', db, '--from', out]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(readdirSync(data).filter((n) => n.includes('canonry.db'))).toEqual([]);
  });
});

describe('a live database that does not verify', { timeout: 120_000 }, () => {
  it('is named in backup’s refusal, not the backup file it never wrote', async () => {
    const data = join(temp.dir, 'tampered-live');
    await issueTokens(data, 'q', [['ada', 'owner']]);
    const live = new Database(join(data, 'canonry.db'));
    live
      .prepare("UPDATE journal_entries SET actor = 'mallory' WHERE project = 'q' AND seq = 1")
      .run();
    live.close();
    const out = join(temp.dir, 'never-written.backup.db');
    const run = await runCli(['backup', '--data', data, '--out', out]);
    expect(refusal(run)).toBe('CHAIN_BROKEN');
    const said = run.stderr.trim().split('\n').at(-1)!;
    expect(said).toContain(`the copy of ${join(data, 'canonry.db')}`);
    expect(said).not.toContain(out);
    expect(readdirSync(temp.dir)).not.toContain('never-written.backup.db');
  });
});
