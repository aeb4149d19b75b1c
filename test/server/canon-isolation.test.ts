// Project isolation and authentication on EVERY project-scoped route. The route list comes from the
// OpenAPI document (itself checked against Fastify's registrations in openapi.test.ts), so a new route
// cannot be forgotten here. For each: no token, a malformed, unknown or revoked token → 401; a token
// of another project → 403, also for a project that does not exist; a role below the route's
// minimum → 403; and nothing is written — journal heads, tokens and canon rows are unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHash } from '../../src/core/index.js';
import { call, STORY_SUBJECTS, tokensFor, writeSnapshot } from '../helpers/auth.js';
import { liveServer } from '../helpers/runtime.js';

let live: Awaited<ReturnType<typeof liveServer>>;
let alpha: Record<'owner' | 'editor' | 'agent' | 'viewer' | 'revoked', string>;
let beta: Record<'owner' | 'agent', string>;
let routes: { method: string; path: string; minRole: string; body: unknown; stream: boolean }[];
const ids: Record<string, string> = {};

const RANK = { owner: 0, editor: 1, agent: 2, viewer: 3 } as const;

beforeAll(async () => {
  live = await liveServer({ alpha: STORY_SUBJECTS, beta: STORY_SUBJECTS });
  alpha = await tokensFor(live.runtime, 'alpha', {
    owner: 'owner',
    editor: 'editor',
    agent: 'agent',
    viewer: 'viewer',
    revoked: 'owner',
  });
  beta = await tokensFor(live.runtime, 'beta', { owner: 'owner', agent: 'agent' });
  const revoked = (await live.runtime.tokens.authenticate(alpha.revoked))!;
  await live.runtime.tokens.revoke('alpha', revoked.token_id);

  // Real ids in alpha (and the same object id in beta) so every route would reach canon.
  const a = (method: string, path: string, token: string, body?: unknown) =>
    call(live.url, method, `/v1/projects/alpha${path}`, token, body);
  const first = await a('POST', '/messages', alpha.owner, {
    text: 'I would like a red interface for the app.',
    message_id: 'm-1',
  });
  ids.version = first.body.proposals[0].outcome.committed.version_hash;
  const second = await a('POST', '/messages', alpha.agent, {
    text: 'I propose blue instead of red for accessibility.',
    role: 'assistant',
  });
  ids.proposal = second.body.proposals[0].outcome.proposal.proposal_id;
  await a('POST', '/artifacts', alpha.agent, {
    artifact_id: 'screen',
    canonical_note_versions: [{ object_id: 'ui.colour', version_hash: ids.version }],
    output_digest: contentHash('screen'),
  });
  ids.token = (await live.runtime.tokens.authenticate(alpha.viewer))!.token_id;
  await call(live.url, 'POST', '/v1/projects/beta/messages', beta.owner, {
    text: 'I would like a red interface for the app.',
  });

  const doc = (await call(live.url, 'GET', '/openapi.json', null)).body;
  routes = Object.entries(doc.paths as Record<string, Record<string, any>>)
    .filter(([path]) => path.startsWith('/v1/projects/{project}'))
    .flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        minRole: op['x-min-role'],
        body: op.requestBody?.content['application/json'].example,
        // The live feed answers with a stream that stays open: only its status is read.
        stream: op.responses['200']?.content['text/event-stream'] !== undefined,
      })),
    );
});
afterAll(() => live?.close());

/** The status of a streamed GET (its body only when refused), the stream closed at once. */
async function streamStatus(path: string, token: string): Promise<{ status: number; body: any }> {
  const abort = new AbortController();
  const res = await fetch(`${live.url}${path}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: abort.signal,
  });
  const body = res.status === 200 ? null : await res.json();
  abort.abort();
  return { status: res.status, body };
}

/** The route's path for a project, with real ids (ids of alpha; beta has none of them). */
function pathFor(path: string, project: string): string {
  const id = path.includes('/messages/')
    ? 'm-1'
    : path.includes('/proposals/')
      ? ids.proposal
      : path.includes('/objects/')
        ? 'ui.colour'
        : path.includes('/artifacts/')
          ? 'screen'
          : path.includes('/tokens/')
            ? ids.token
            : 'x';
  return path.replace('{project}', project).replace('{id}', id!).replace('{seq}', '1');
}

/** A body that would do something if the request were let through. */
function bodyFor(route: (typeof routes)[number]): unknown {
  if (route.method === 'GET') return undefined;
  if (route.path.endsWith('/restore')) return { version_hash: ids.version };
  if (route.path.endsWith('/artifacts')) {
    return {
      artifact_id: 'screen-2',
      canonical_note_versions: [{ object_id: 'ui.colour', version_hash: ids.version }],
      output_digest: contentHash('screen-2'),
    };
  }
  return route.body;
}

describe('every project route', () => {
  it('is derived from the OpenAPI document and covers canon and the journal', () => {
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    expect(routes.length).toBeGreaterThanOrEqual(25);
    expect(keys).toContain('POST /v1/projects/{project}/proposals/{id}/approve');
    expect(keys).toContain('GET /v1/projects/{project}/journal');
    expect(keys).toContain('DELETE /v1/projects/{project}/tokens/{id}');
    for (const r of routes) expect(Object.keys(RANK)).toContain(r.minRole);
  });

  it('answers 401 UNAUTHENTICATED without a valid token and writes nothing', async () => {
    const before = await writeSnapshot(live.runtime);
    const headers: (string | null)[] = [
      null,
      '',
      'Basic YWxpY2U6b3duZXI=',
      'Bearer',
      'Bearer ',
      `Bearer ${alpha.owner} extra`,
      `Token ${alpha.owner}`,
      'Bearer cnr_short',
      `Bearer cnr_${'A'.repeat(43)}`,
      `Bearer ${alpha.revoked}`,
      `Bearer ${'x'.repeat(600)}`,
    ];
    for (const route of routes) {
      for (const header of headers) {
        const r = await call(
          live.url,
          route.method,
          pathFor(route.path, 'alpha'),
          null,
          bodyFor(route),
          header === null ? {} : { authorization: header },
        );
        expect([r.status, r.body?.error?.code], `${route.method} ${route.path} ${header}`).toEqual([
          401,
          'UNAUTHENTICATED',
        ]);
      }
    }
    expect(await writeSnapshot(live.runtime)).toEqual(before);
  });

  it('answers 403 FORBIDDEN to another project’s token, for real and missing projects, and writes nothing', async () => {
    const before = await writeSnapshot(live.runtime);
    for (const route of routes) {
      for (const [project, token] of [
        ['alpha', beta.owner],
        ['alpha', beta.agent],
        ['beta', alpha.owner],
        ['ghost', alpha.owner],
        ['BAD!', alpha.owner],
      ] as const) {
        const r = await call(
          live.url,
          route.method,
          pathFor(route.path, encodeURIComponent(project)),
          token,
          bodyFor(route),
        );
        expect([r.status, r.body?.error?.code], `${route.method} ${route.path} ${project}`).toEqual(
          [403, 'FORBIDDEN'],
        );
      }
    }
    expect(await writeSnapshot(live.runtime)).toEqual(before);
  });

  it('answers 403 FORBIDDEN to a role below the route minimum and writes nothing', async () => {
    const before = await writeSnapshot(live.runtime);
    let checked = 0;
    for (const route of routes) {
      for (const role of ['editor', 'agent', 'viewer'] as const) {
        if (RANK[role] <= RANK[route.minRole as keyof typeof RANK]) continue;
        const r = await call(
          live.url,
          route.method,
          pathFor(route.path, 'alpha'),
          alpha[role],
          bodyFor(route),
        );
        expect([r.status, r.body?.error?.code], `${route.method} ${route.path} ${role}`).toEqual([
          403,
          'FORBIDDEN',
        ]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(15);
    expect(await writeSnapshot(live.runtime)).toEqual(before);
  });

  it('lets the project’s own token through (the refusals above were about the token)', async () => {
    for (const route of routes) {
      const r = route.stream
        ? await streamStatus(pathFor(route.path, 'alpha'), alpha.owner)
        : await call(
            live.url,
            route.method,
            pathFor(route.path, 'alpha'),
            alpha.owner,
            bodyFor(route),
          );
      expect(
        [401, 403].includes(r.status) && r.body?.error?.code !== 'GATE_REFUSED',
        `${route.method} ${route.path}: ${JSON.stringify(r.body?.error)}`,
      ).toBe(false);
      expect(r.status, `${route.method} ${route.path}`).toBeLessThan(500);
    }
  });

  it('keeps canon out of the kernel’s audit project, whose journal its token may still read', async () => {
    const { owner } = await tokensFor(live.runtime, 'kernel', { owner: 'owner' });
    const read = await call(live.url, 'GET', '/v1/projects/kernel/journal?limit=1', owner);
    expect(read.status).toBe(200);
    const before = await writeSnapshot(live.runtime);
    const write = await call(live.url, 'POST', '/v1/projects/kernel/messages', owner, {
      text: 'I would like a red interface for the app.',
    });
    expect([write.status, write.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect((await call(live.url, 'GET', '/v1/projects/kernel/board', owner)).status).toBe(403);
    expect(await writeSnapshot(live.runtime)).toEqual(before);
  });

  it('keeps canon and the relay out of the project evolution keeps the kernel’s verdict events in', async () => {
    const { owner } = await tokensFor(live.runtime, 'evolution', { owner: 'owner' });
    const before = await writeSnapshot(live.runtime);
    const write = await call(live.url, 'POST', '/v1/projects/evolution/messages', owner, {
      text: 'I would like a red interface for the app.',
    });
    expect([write.status, write.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const relay = await call(live.url, 'POST', '/v1/projects/evolution/relay/sessions', owner, {
      mode: 'DOCUMENT',
      objective: 'x',
      sections: ['a'],
    });
    expect([relay.status, relay.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect((await call(live.url, 'GET', '/v1/projects/evolution/board', owner)).status).toBe(403);
    expect(await writeSnapshot(live.runtime)).toEqual(before);
    // Its evolution events stay readable to its principals.
    const events = await call(live.url, 'GET', '/v1/projects/evolution/evolution/events', owner);
    expect(events.status).not.toBe(403);
    expect(events.status).toBeLessThan(500);
  });

  it('never shows one project’s canon to another, even with the same object ids', async () => {
    const a = await call(live.url, 'GET', '/v1/projects/alpha/objects/ui.colour', alpha.editor);
    const b = await call(live.url, 'GET', '/v1/projects/beta/objects/ui.colour', beta.owner);
    expect(a.body.object.object_id).toBe('ui.colour');
    expect(b.body.object.object_id).toBe('ui.colour');
    expect(a.body.current.version_hash).not.toBe(b.body.current.version_hash);
    const betaProposal = await call(
      live.url,
      'GET',
      `/v1/projects/beta/proposals/${ids.proposal}`,
      beta.owner,
    );
    expect(betaProposal.status).toBe(404);
    const betaMessages = await call(live.url, 'GET', '/v1/projects/beta/messages', beta.owner);
    expect(betaMessages.body.messages.map((m: any) => m.message_id)).not.toContain('m-1');
  });
});
