// The journal over HTTP, against a real server on loopback: paged reads, chain verification (also
// after the real SQLite file is tampered with), receipts, and typed 4xx for every bad input with
// nothing written. Entries of one project never appear when reading another, and one project's
// token never reads another project's journal. Every request carries a viewer token of the project
// it names (the journal routes sit under /v1/projects/:project and need one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalize } from '../../src/core/index.js';
import type { JournalEntry } from '../../src/journal/index.js';
import { tokensFor } from '../helpers/auth.js';
import { acceptNotes } from '../helpers/journal.js';
import { liveServer } from '../helpers/runtime.js';

let live: Awaited<ReturnType<typeof liveServer>>;
const ALPHA = 230;
const BETA = 40;

/** A viewer token per project the tests read. */
const tokens: Record<string, string> = {};

beforeAll(async () => {
  live = await liveServer();
  acceptNotes(live.runtime);
  for (const project of ['alpha', 'beta', 'gamma', 'delta', 'nobody']) {
    tokens[project] = (await tokensFor(live.runtime, project, { reader: 'viewer' })).reader;
  }
  const { journal } = live.runtime;
  // Interleaved, with the same idempotency keys and correlation ids in both projects.
  for (let i = 1; i <= ALPHA; i++) {
    await journal.append('alpha', {
      kind: 'test.note',
      body: { project: 'alpha', i },
      actor: 'tester',
      authority: { role: 'owner' },
      idempotency_key: `k-${i}`,
      correlation_id: `corr-${i % 7}`,
      receipt: { checks: [{ name: 'shape', result: 'pass' }], warnings: [`w${i}`] },
    });
    if (i <= BETA) {
      await journal.append('beta', {
        kind: 'test.note',
        body: { project: 'beta', i },
        actor: 'tester',
        idempotency_key: `k-${i}`,
      });
    }
  }
});
afterAll(() => live?.close());

/** GETs a path with the viewer token of the project it names (alpha's for a name with none). */
const get = async (path: string, token?: string | null) => {
  const project = /^\/v1\/projects\/([^/?]+)/.exec(path)?.[1] ?? '';
  const bearer = token === undefined ? (tokens[project] ?? tokens.alpha) : token;
  const res = await fetch(`${live.url}${path}`, {
    headers: bearer === null ? {} : { authorization: `Bearer ${bearer}` },
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

/** Everything the journal holds, to prove a request wrote nothing. */
const snapshot = async () => ({
  projects: await live.runtime.journal.projects(),
  heads: await live.runtime.store.all('SELECT * FROM journal_heads ORDER BY project'),
  entries: await live.runtime.store.all(
    'SELECT project, seq, hash FROM journal_entries ORDER BY project, seq',
  ),
  checkpoints: await live.runtime.store.all(
    'SELECT project, seq FROM journal_checkpoints ORDER BY project, seq',
  ),
  tokens: await live.runtime.store.all(
    'SELECT token_id, revoked_at FROM auth_tokens ORDER BY token_id',
  ),
});

/** Follows `next_after` from the start until it is null, returning every page. */
async function readAll(project: string, limit: number) {
  const pages: Array<Record<string, any>> = [];
  let after: number | null = 0;
  while (after !== null) {
    const { status, body } = await get(
      `/v1/projects/${project}/journal?after=${after}&limit=${limit}`,
    );
    expect(status).toBe(200);
    pages.push(body);
    after = body.next_after as number | null;
    expect(pages.length).toBeLessThan(1_000);
  }
  return pages;
}

describe('GET /v1/projects/:project/journal', () => {
  it('pages through every entry exactly once, in order, with the head', async () => {
    const head = await live.runtime.journal.head('alpha');
    expect(head.seq).toBe(ALPHA);
    for (const limit of [1, 7, 100, 229, 230, 1000]) {
      const pages = await readAll('alpha', limit);
      expect(pages).toHaveLength(Math.max(1, Math.ceil(ALPHA / limit)));
      const entries = pages.flatMap((p) => p.entries as JournalEntry[]);
      expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: ALPHA }, (_, i) => i + 1));
      for (const page of pages) {
        expect(page.project).toBe('alpha');
        expect(page.head).toEqual(head);
        expect((page.entries as unknown[]).length).toBeLessThanOrEqual(limit);
      }
      // Each page's next_after is its last seq, until the head.
      expect(pages.at(-1)!.next_after).toBeNull();
    }
    // What HTTP returns is exactly what is stored, chained entry to entry.
    const entries = (await readAll('alpha', 1000)).flatMap((p) => p.entries as JournalEntry[]);
    expect(entries).toEqual(await live.runtime.journal.read('alpha', { limit: 1000 }));
    for (let i = 1; i < entries.length; i++) {
      expect(entries[i]!.prev_hash).toBe(entries[i - 1]!.hash);
    }
    expect(entries.at(-1)!.hash).toBe(head.hash);
  });

  it('starts after the given seq, defaults to 100 entries, and is empty past the head', async () => {
    const mid = await get('/v1/projects/alpha/journal?after=200&limit=5');
    expect(mid.body.entries.map((e: JournalEntry) => e.seq)).toEqual([201, 202, 203, 204, 205]);
    expect(mid.body.next_after).toBe(205);
    const defaults = await get('/v1/projects/alpha/journal');
    expect(defaults.body.entries).toHaveLength(100);
    expect(defaults.body.next_after).toBe(100);
    const past = await get(`/v1/projects/alpha/journal?after=${ALPHA + 50}`);
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ entries: [], next_after: null });
  });

  it('never returns one project’s entries when reading another', async () => {
    const alpha = (await readAll('alpha', 50)).flatMap((p) => p.entries as JournalEntry[]);
    const beta = (await readAll('beta', 50)).flatMap((p) => p.entries as JournalEntry[]);
    expect(beta).toHaveLength(BETA);
    expect(beta.every((e) => e.project === 'beta')).toBe(true);
    expect(beta.every((e) => (e.body as { project: string }).project === 'beta')).toBe(true);
    expect(alpha.every((e) => e.project === 'alpha')).toBe(true);
    const alphaHashes = new Set(alpha.map((e) => e.hash));
    expect(beta.filter((e) => alphaHashes.has(e.hash))).toEqual([]);
    // The same idempotency keys exist in both projects, each in its own.
    expect(beta.map((e) => e.idempotency_key)).toEqual(
      alpha.slice(0, BETA).map((e) => e.idempotency_key),
    );
    // Another project's token reads nothing of beta, whichever route.
    for (const path of [
      '/v1/projects/beta/journal',
      '/v1/projects/beta/journal/verify',
      '/v1/projects/beta/journal/1/receipt',
    ]) {
      const crossed = await get(path, tokens.alpha);
      expect({ path, status: crossed.status, code: crossed.body.error?.code }).toEqual({
        path,
        status: 403,
        code: 'FORBIDDEN',
      });
      expect(JSON.stringify(crossed.body)).not.toContain('"entries"');
    }
    const betaHead = await get('/v1/projects/beta/journal?limit=1');
    expect(betaHead.body.head).toEqual(await live.runtime.journal.head('beta'));
    // A project that does not exist reads as empty and is not created by the read.
    const before = await snapshot();
    const none = await get('/v1/projects/gamma/journal');
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ entries: [], next_after: null, head: { seq: 0 } });
    expect(await snapshot()).toEqual(before);
  });
});

describe('GET /v1/projects/:project/journal/:seq/receipt', () => {
  it('returns the stored LCSM §7 receipt of that project’s entry', async () => {
    const [entry] = await live.runtime.journal.read('alpha', { after: 4, limit: 1 });
    const { status, body } = await get('/v1/projects/alpha/journal/5/receipt');
    expect(status).toBe(200);
    expect(body).toEqual(await live.runtime.journal.receipt('alpha', 5));
    expect(body).toMatchObject({
      receipt_id: 'rcpt:alpha:5',
      request_ref: 'k-5',
      prior_state_ref: { seq: 4, hash: entry!.prev_hash },
      result_state_ref: { seq: 5, hash: entry!.hash },
      hash_chain_parent: entry!.prev_hash,
      warnings: ['w5'],
    });
    expect(body.checks.map((c: { name: string }) => c.name)).toEqual(['hash-chain', 'shape']);
    const beta = await get('/v1/projects/beta/journal/5/receipt');
    expect(beta.body.receipt_id).toBe('rcpt:beta:5');
    expect(beta.body.result_state_ref.hash).not.toBe(entry!.hash);
    // beta has no seq 100: alpha's is not returned in its place.
    const missing = await get('/v1/projects/beta/journal/100/receipt');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
  });
});

describe('GET /v1/projects/:project/journal/verify', () => {
  it('verifies each project and names the broken seq after the SQLite file is tampered with', async () => {
    const { journal, store } = live.runtime;
    for (let i = 1; i <= 30; i++) {
      await journal.append('delta', { kind: 'test.note', body: { i }, actor: 'tester' });
    }
    const clean = await get('/v1/projects/delta/journal/verify');
    expect(clean.status).toBe(200);
    expect(clean.body).toMatchObject({ project: 'delta', ok: true, checked: 30, broken: null });
    const alpha = await get('/v1/projects/alpha/journal/verify');
    expect(alpha.body).toMatchObject({ ok: true, checked: ALPHA, broken: null });

    expect(live.runtime.store.description).toMatch(/^sqlite:/);
    await store.run("UPDATE journal_entries SET body = $1 WHERE project = 'delta' AND seq = 17", [
      canonicalize({ i: 1700 }),
    ]);
    const broken = await get('/v1/projects/delta/journal/verify');
    expect(broken.status).toBe(200);
    expect(broken.body).toMatchObject({
      ok: false,
      checked: 16,
      broken: { seq: 17, reason: 'body-changed' },
    });
    // Other projects are not affected.
    expect((await get('/v1/projects/alpha/journal/verify')).body.ok).toBe(true);

    await store.run("DELETE FROM journal_entries WHERE project = 'delta' AND seq = 17");
    const deleted = await get('/v1/projects/delta/journal/verify');
    expect(deleted.body.broken).toMatchObject({ seq: 17, reason: 'missing-entry' });
  });
});

describe('bad input', () => {
  const cases: Array<[string, number, string]> = [
    // A bad project name is refused before it is parsed: no token names such a project.
    ['/v1/projects/Bad%20Name/journal', 403, 'FORBIDDEN'],
    ['/v1/projects/Bad%20Name/journal/verify', 403, 'FORBIDDEN'],
    ['/v1/projects/Bad%20Name/journal/1/receipt', 403, 'FORBIDDEN'],
    ['/v1/projects/ALPHA/journal', 403, 'FORBIDDEN'],
    ['/v1/projects/-alpha/journal', 403, 'FORBIDDEN'],
    [`/v1/projects/${'a'.repeat(65)}/journal`, 403, 'FORBIDDEN'],
    ['/v1/projects/al%2Fpha/journal', 403, 'FORBIDDEN'],
    ["/v1/projects/alpha'%20OR%201=1--/journal", 403, 'FORBIDDEN'],
    ['/v1/projects/alpha/journal?after=-1', 400, 'INVALID_ARGUMENT'],
    ['/v1/projects/alpha/journal?after=abc', 400, 'INVALID_ARGUMENT'],
    ['/v1/projects/alpha/journal?after=1.5', 400, 'INVALID_ARGUMENT'],
    ['/v1/projects/alpha/journal?after=1e3', 400, 'INVALID_ARGUMENT'],
    ['/v1/projects/alpha/journal?after=', 400, 'INVALID_ARGUMENT'],
    ['/v1/projects/alpha/journal?after=1&after=2', 400, 'INVALID_ARGUMENT'],
    ['/v1/projects/alpha/journal?after=99999999999999999999', 400, 'INVALID_ARGUMENT'],
    ['/v1/projects/alpha/journal?limit=0', 400, 'INVALID_ARGUMENT'],
    ['/v1/projects/alpha/journal?limit=5000', 400, 'INVALID_ARGUMENT'],
    ['/v1/projects/alpha/journal?limit=1001', 400, 'INVALID_ARGUMENT'],
    ['/v1/projects/alpha/journal?limit=-5', 400, 'INVALID_ARGUMENT'],
    ['/v1/projects/alpha/journal?limit=ten', 400, 'INVALID_ARGUMENT'],
    ['/v1/projects/alpha/journal?offset=3', 400, 'INVALID_ARGUMENT'],
    ['/v1/projects/alpha/journal?project=beta', 400, 'INVALID_ARGUMENT'],
    ['/v1/projects/alpha/journal/verify?deep=1', 400, 'INVALID_ARGUMENT'],
    ['/v1/projects/alpha/journal/abc/receipt', 400, 'INVALID_ARGUMENT'],
    ['/v1/projects/alpha/journal/-1/receipt', 400, 'INVALID_ARGUMENT'],
    ['/v1/projects/alpha/journal/1.5/receipt', 400, 'INVALID_ARGUMENT'],
    ['/v1/projects/alpha/journal/0x10/receipt', 400, 'INVALID_ARGUMENT'],
    ['/v1/projects/alpha/journal/0/receipt', 404, 'NOT_FOUND'],
    ['/v1/projects/alpha/journal/99999/receipt', 404, 'NOT_FOUND'],
    ['/v1/projects/nobody/journal/1/receipt', 404, 'NOT_FOUND'],
    ['/v1/projects/alpha/journal/1/receipts', 404, 'NOT_FOUND'],
  ];

  it('gets a typed 4xx with error.code for every route, and nothing is written', async () => {
    const before = await snapshot();
    const headAlpha = await live.runtime.journal.head('alpha');
    for (const [path, status, code] of cases) {
      const res = await get(path);
      expect({ path, status: res.status, code: res.body.error?.code }).toEqual({
        path,
        status,
        code,
      });
      expect(typeof res.body.error.message).toBe('string');
    }
    // No token, or one that is not a token: 401 on every route, before anything is read.
    for (const path of [
      '/v1/projects/alpha/journal',
      '/v1/projects/alpha/journal/verify',
      '/v1/projects/alpha/journal/1/receipt',
      '/v1/projects/Bad%20Name/journal',
    ]) {
      for (const token of [null, 'not-a-token', `${tokens.alpha}x`]) {
        const res = await get(path, token);
        expect({ path, token, status: res.status, code: res.body.error?.code }).toEqual({
          path,
          token,
          status: 401,
          code: 'UNAUTHENTICATED',
        });
      }
    }
    expect(await live.runtime.journal.head('alpha')).toEqual(headAlpha);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses to write through the read routes', async () => {
    const before = await snapshot();
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const res = await fetch(`${live.url}/v1/projects/alpha/journal`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'test.note', body: {}, actor: 'mallory' }),
      });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET');
      const body = (await res.json()) as { error: { code: string } };
      expect(body.error.code).toBe('METHOD_NOT_ALLOWED');
    }
    // Whatever the body: one that is not JSON, of another type, or none where one is expected.
    for (const [method, headers, body] of [
      ['PUT', { 'content-type': 'application/json' }, '{bad'],
      ['POST', { 'content-type': 'application/json' }, '['.repeat(100)],
      ['PATCH', { 'content-type': 'text/plain' }, 'x'],
      ['QUERY', {}, 'x'],
    ] as const) {
      const res = await fetch(`${live.url}/v1/projects/alpha/journal`, { method, headers, body });
      const answer = (await res.json()) as { error: { code: string } };
      expect([method, res.status, res.headers.get('allow'), answer.error.code]).toEqual([
        method,
        405,
        'GET',
        'METHOD_NOT_ALLOWED',
      ]);
    }
    expect(await snapshot()).toEqual(before);
  });
});
