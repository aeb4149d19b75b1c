import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanonry } from '../../src/app/index.js';
import { archiveMessage } from '../../src/canon/index.js';
import { call } from '../helpers/auth.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/runtime.js';
import { type ServeProcess, startServe } from '../helpers/serve.js';

/**
 * Issue 11, item 5: a tampered store is not served silently. Four projects are written and the
 * runtime closed (which signs a checkpoint at every head); then the SQLite file is edited behind
 * canonry's back: p's last entry, q's first entry (older than p's last checkpoint), r's tail cut
 * with its head rewritten, s untouched (but one of its projection rows edited).
 */
let dir: string;
let cleanup: () => void;
const tokens: Record<string, string> = {};
const data = () => join(dir, 'data');

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  const runtime = await createCanonry({ dataDir: data(), logLevel: 'silent' });
  for (const project of ['p', 'q', 'r', 's']) {
    tokens[project] = (await runtime.tokens.create(project, 'olive', 'owner')).token;
    const who = { id: 'olive', role: 'owner' as const, project };
    for (let i = 0; i < 5; i++) {
      await archiveMessage(runtime.canon, who, { text: `message ${i} of ${project}` });
    }
  }
  await runtime.close();
  const db = new Database(join(data(), 'canonry.db'));
  const last = (project: string) =>
    db
      .prepare('SELECT seq, body FROM journal_entries WHERE project = ? ORDER BY seq DESC LIMIT 1')
      .get(project) as { seq: number; body: string };
  const p = last('p');
  db.prepare('UPDATE journal_entries SET body = ? WHERE project = ? AND seq = ?').run(
    p.body.replace('message 4', 'message 5'),
    'p',
    p.seq,
  );
  db.prepare(
    "UPDATE journal_entries SET body = replace(body, 'message 0', 'massage 0') WHERE project = 'q' AND seq = 2",
  ).run();
  const r = last('r');
  db.prepare('DELETE FROM journal_entries WHERE project = ? AND seq > ?').run('r', r.seq - 2);
  const kept = db
    .prepare('SELECT seq, hash FROM journal_entries WHERE project = ? AND seq = ?')
    .get('r', r.seq - 2) as { seq: number; hash: string };
  db.prepare('UPDATE journal_heads SET seq = ?, hash = ? WHERE project = ?').run(
    kept.seq,
    kept.hash,
    'r',
  );
  db.prepare(
    "UPDATE canon_messages SET record = replace(record, 'message 1', 'message 9') WHERE project = 's'",
  ).run();
  db.close();
}, 120_000);

afterAll(() => cleanup());

describe('a server started on a tampered store', () => {
  let server: ServeProcess;
  afterAll(() => server?.stop());

  it('verifies each tail on start: the edited and the cut chain are quarantined, the rest serve', async () => {
    server = await startServe(data());
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(503);
    const report = (await health.json()) as { ok: boolean; journal: { broken: any[] } };
    expect(report.ok).toBe(false);
    const broken = Object.fromEntries(report.journal.broken.map((b) => [b.project, b.reason]));
    expect(Object.keys(broken).sort()).toEqual(['p', 'r']);
    expect(broken.r).toBe('head-mismatch');
    // One error line per broken chain, naming it.
    const errors = server
      .stderr()
      .split('\n')
      .filter((line) => line.includes('"level":50') && line.includes('does not verify'));
    expect(errors.some((l) => l.includes('"project":"p"'))).toBe(true);
    expect(errors.some((l) => l.includes('"project":"r"'))).toBe(true);
  });

  it('refuses to serve or append to a quarantined project, with CHAIN_BROKEN', async () => {
    const before = await call(server.url, 'GET', '/v1/projects/p/journal', tokens.p!);
    expect(before.status).toBe(200);
    const board = await call(server.url, 'GET', '/v1/projects/p/board', tokens.p!);
    expect(board.status).toBe(409);
    expect(board.body.error.code).toBe('CHAIN_BROKEN');
    const write = await call(server.url, 'POST', '/v1/projects/r/messages', tokens.r!, {
      text: 'on top of a cut chain',
    });
    expect(write.status).toBe(409);
    expect(write.body.error.code).toBe('CHAIN_BROKEN');
    const after = await call(server.url, 'GET', '/v1/projects/p/journal', tokens.p!);
    expect(after.body.head).toEqual(before.body.head);
    // The untouched projects serve and accept writes.
    const fine = await call(server.url, 'POST', '/v1/projects/s/messages', tokens.s!, {
      text: 'still writable',
    });
    expect(fine.status).toBe(201);
    expect((await call(server.url, 'GET', '/v1/projects/q/board', tokens.q!)).status).toBe(200);
  });

  it('finds a tampered projection by comparing it with a replay of the journal', async () => {
    const http = await call(
      server.url,
      'GET',
      '/v1/projects/s/journal/verify?projections=true',
      tokens.s!,
    );
    expect(http.status).toBe(200);
    expect(http.body.ok).toBe(false);
    expect(http.body.broken.reason).toBe('projection-mismatch');
    expect(http.body.projections.mismatch).toBe('canon_messages');
    const chainOnly = await call(server.url, 'GET', '/v1/projects/s/journal/verify', tokens.s!);
    expect(chainOnly.body.ok).toBe(true);
    await server.stop();
    const cli = await runCli(['journal', 'verify', '--project', 's', '--data', data(), '--json']);
    expect(cli.code).toBe(1);
    expect(JSON.parse(cli.stdout).broken.reason).toBe('projection-mismatch');
    const unknown = await runCli(['journal', 'verify', '--project', 'nosuch', '--data', data()]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('UNKNOWN_PROJECT');
  });

  it('with --verify-on-start full, also quarantines the edit older than the last checkpoint', async () => {
    server = await startServe(data(), { args: ['--verify-on-start', 'full'] });
    const report = (await (await fetch(`${server.url}/healthz`)).json()) as {
      journal: { broken: { project: string }[] };
    };
    expect(report.journal.broken.map((b) => b.project).sort()).toEqual(['p', 'q', 'r']);
  });
});
