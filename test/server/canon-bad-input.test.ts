// Hostile input on every write route of canon, over HTTP against a real server: malformed JSON,
// wrong types, unknown fields, authority claims, huge strings, bad ids and hashes, sources that do
// not match the archive. Each is a typed 4xx with `error.code`, never a 5xx, and leaves canon exactly
// as it was (journal heads, tokens, objects, versions, proposals, messages, artifacts). A fast-check
// fuzz of random JSON bodies per write route backs this up.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHash } from '../../src/core/index.js';
import { call, STORY_SUBJECTS, tokensFor, writeSnapshot } from '../helpers/auth.js';
import { liveServer } from '../helpers/runtime.js';

const P = 'bad';
let live: Awaited<ReturnType<typeof liveServer>>;
let t: Record<'owner' | 'agent' | 'editor', string>;
const ids = { version: '', proposal: '', token: '' };
const ZERO = `sha256:${'0'.repeat(64)}`;
const TEXT = 'I would like a red interface for the app.';

beforeAll(async () => {
  live = await liveServer({ [P]: STORY_SUBJECTS });
  t = await tokensFor(live.runtime, P, { owner: 'owner', agent: 'agent', editor: 'editor' });
  const first = await api('POST', '/messages', t.owner, { text: TEXT, message_id: 'm-1' });
  ids.version = first.body.proposals[0].outcome.committed.version_hash;
  const second = await api('POST', '/messages', t.agent, {
    text: 'I propose blue instead of red for accessibility.',
    role: 'assistant',
  });
  ids.proposal = second.body.proposals[0].outcome.proposal.proposal_id;
  expect(second.body.proposals[0].outcome.proposal.status).toBe('pending');
  await api('POST', '/artifacts', t.agent, {
    artifact_id: 'screen',
    canonical_note_versions: [{ object_id: 'ui.colour', version_hash: ids.version }],
    output_digest: contentHash('screen'),
  });
  ids.token = (await live.runtime.tokens.authenticate(t.editor))!.token_id;
});
afterAll(() => live?.close());

function api(method: string, path: string, token: string, body?: unknown, contentType?: string) {
  return call(
    live.url,
    method,
    `/v1/projects/${P}${path}`,
    token,
    body,
    contentType ? { contentType } : {},
  );
}

/** The write routes, with a path that names real ids. */
const WRITES = () =>
  [
    ['POST', '/messages'],
    ['POST', '/messages?classify=false'],
    ['POST', '/proposals'],
    ['POST', `/proposals/${ids.proposal}/approve`],
    ['POST', `/proposals/${ids.proposal}/reject`],
    ['POST', '/objects/ui.colour/restore'],
    ['POST', '/artifacts'],
    ['POST', '/artifacts/screen/review'],
    ['POST', '/working-set'],
    ['POST', '/tokens'],
    ['DELETE', `/tokens/${ids.token}`],
  ] as const;

/** Sends one bad request and checks it is a typed 4xx that wrote nothing. */
async function refused(
  method: string,
  path: string,
  body: unknown,
  expected: { code?: string; status?: number } = {},
  contentType?: string,
) {
  const before = await writeSnapshot(live.runtime);
  const r = await api(method, path, t.owner, body, contentType);
  const label = `${method} ${path} ${typeof body === 'string' ? body.slice(0, 80) : JSON.stringify(body)?.slice(0, 80)}`;
  expect(r.status, label).toBeGreaterThanOrEqual(400);
  expect(r.status, label).toBeLessThan(500);
  expect(typeof r.body?.error?.code, label).toBe('string');
  if (expected.code) expect(r.body.error.code, label).toBe(expected.code);
  if (expected.status) expect(r.status, label).toBe(expected.status);
  expect(await writeSnapshot(live.runtime), label).toEqual(before);
  return r;
}

const candidate = (extra: Record<string, unknown> = {}) => ({
  object_type: 'fact',
  title: 'A fact',
  text: 'The sky is violet.',
  ...extra,
});
const proposal = (extra: Record<string, unknown> = {}) => ({
  object_id: 'sky',
  intent: 'create',
  base_version: null,
  candidate: candidate(),
  ...extra,
});

describe('every write route refuses malformed bodies with a typed 4xx and writes nothing', () => {
  it('not JSON, empty, not a JSON media type, too deep, too large', async () => {
    for (const [method, path] of WRITES()) {
      await refused(method, path, '{"text": ', { code: 'MALFORMED_BODY', status: 400 });
      await refused(method, path, '', { code: 'MALFORMED_BODY', status: 400 });
      await refused(
        method,
        path,
        'text=hi',
        { code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 },
        'text/plain',
      );
      await refused(method, path, `${'['.repeat(200)}${']'.repeat(200)}`, {
        code: 'NESTING_TOO_DEEP',
      });
      await refused(
        method,
        path,
        { text: 'x'.repeat(1_100_000) },
        {
          code: 'PAYLOAD_TOO_LARGE',
          status: 413,
        },
      );
    }
  });

  it('a body naming a member twice, which JSON.parse would read as its last, however escaped', async () => {
    // Each would be taken as its last member's value: a message, a proposal on a real object.
    const message = `{"text":"${TEXT}","role":"assistant","\\u0072ole":"user"}`;
    const doubled = JSON.stringify(proposal()).replace(
      '"intent":"create"',
      '"intent":"x","intent":"create"',
    );
    for (const [method, path] of WRITES()) {
      for (const [raw, member] of [
        [message, 'role'],
        [doubled, 'intent'],
        ['{"a":{"b":1,"b":2}}', 'b'],
      ] as const) {
        const r = await refused(method, path, raw, { code: 'MALFORMED_BODY', status: 400 });
        expect(r.body.error.details).toEqual({ member });
        expect(r.body.error.message).toBe(`an object names member "${member}" twice`);
      }
    }
  });

  it('wrong top-level types, unknown fields and authority claims', async () => {
    for (const [method, path] of WRITES()) {
      for (const body of [[], 'text', 42, null, true]) await refused(method, path, body);
      await refused(method, path, { unknown_field: 1 }, { status: 400 });
      await refused(
        method,
        path,
        { actor: 'alice', authority: 'owner' },
        { code: 'AUTHORITY_FROM_PAYLOAD', status: 400 },
      );
      await refused(method, path, { approved_by: 'alice' }, { code: 'AUTHORITY_FROM_PAYLOAD' });
      await refused(
        `${method}`,
        `${path}${path.includes('?') ? '&' : '?'}as=owner`,
        {},
        {
          code: 'INVALID_ARGUMENT',
        },
      );
    }
  });
});

describe('route by route', () => {
  it('messages', async () => {
    const bad: [unknown, string][] = [
      [{}, 'INVALID_BODY'],
      [{ text: '' }, 'INVALID_BODY'],
      [{ text: 42 }, 'INVALID_BODY'],
      [{ text: 'x'.repeat(20_001) }, 'INVALID_BODY'],
      [{ text: 'lone \ud800 surrogate' }, 'INVALID_BODY'],
      [{ text: 'hi', role: 'god' }, 'INVALID_BODY'],
      [{ text: 'hi', message_id: 'bad id!' }, 'INVALID_BODY'],
      [{ text: 'hi', message_id: 'x'.repeat(101) }, 'INVALID_BODY'],
      [{ text: 'hi', visibility: 'working' }, 'INVALID_BODY'],
      [{ text: 'hi', visibility: null }, 'INVALID_BODY'],
      [{ text: 'hi', principal: 'alice' }, 'AUTHORITY_FROM_PAYLOAD'],
    ];
    for (const [body, code] of bad) {
      await refused('POST', '/messages', body, { code });
      await refused('POST', '/messages?classify=false', body, { code });
    }
    await refused('POST', '/messages?classify=maybe', { text: 'hi' }, { code: 'INVALID_ARGUMENT' });
    await refused(
      'POST',
      '/messages?classify=false&classify=true',
      { text: 'hi' },
      {
        code: 'INVALID_ARGUMENT',
      },
    );
    const agentAsUser = await api('POST', '/messages', t.agent, { text: 'hi', role: 'system' });
    expect(agentAsUser.body.error.code).toBe('AUTHORITY_FROM_PAYLOAD');
    // A message id names one archived message: reusing it for another text or speaker is a CONFLICT.
    await refused(
      'POST',
      '/messages',
      { text: 'Blue, actually.', message_id: 'm-1' },
      {
        code: 'CONFLICT',
        status: 409,
      },
    );
    await refused(
      'POST',
      '/messages?classify=false',
      { text: TEXT, message_id: 'm-1', role: 'tool' },
      {
        code: 'CONFLICT',
      },
    );
    const before = await writeSnapshot(live.runtime);
    const hijack = await api('POST', '/messages', t.agent, {
      text: TEXT,
      message_id: 'm-1',
      role: 'agent',
    });
    expect([hijack.status, hijack.body.error.code]).toEqual([409, 'CONFLICT']);
    // The same message again is a retry: it reports the first intake and writes nothing.
    const retry = await api('POST', '/messages', t.owner, { text: TEXT, message_id: 'm-1' });
    expect(retry.status).toBe(201);
    expect(retry.body.message).toMatchObject({ message_id: 'm-1', actor: 'owner' });
    expect(retry.body.proposals.map((p: any) => p.outcome.committed.version_hash)).toEqual([
      ids.version,
    ]);
    expect(await writeSnapshot(live.runtime)).toEqual(before);
  });

  it('proposals: shapes, ids, hashes, authority claims, sources that do not match the archive', async () => {
    const span = (quote: string, at = TEXT.indexOf(quote)) => [at, at + quote.length];
    const bad: [unknown, string, number?][] = [
      [{}, 'INVALID_PROPOSAL'],
      [proposal({ object_id: 'BAD ID' }), 'INVALID_PROPOSAL'],
      [proposal({ object_id: 'x'.repeat(101) }), 'INVALID_PROPOSAL'],
      [proposal({ intent: 'delete' }), 'INVALID_PROPOSAL'],
      [proposal({ base_version: 'sha256:zz' }), 'INVALID_PROPOSAL'],
      [proposal({ base_version: 'SHA256:'.padEnd(71, 'A') }), 'INVALID_PROPOSAL'],
      [proposal({ candidate: 'text' }), 'INVALID_PROPOSAL'],
      [proposal({ candidate: candidate({ object_type: 'gossip' }) }), 'INVALID_PROPOSAL'],
      [proposal({ candidate: candidate({ text: 'x'.repeat(10_001) }) }), 'INVALID_PROPOSAL'],
      [proposal({ candidate: candidate({ title: 'lone \udc00' }) }), 'INVALID_PROPOSAL'],
      [proposal({ candidate: candidate({ tags: ['Not A Tag'] }) }), 'INVALID_PROPOSAL'],
      [proposal({ candidate: candidate({ effective_from: 'yesterday' }) }), 'INVALID_PROPOSAL'],
      [proposal({ candidate: candidate({ effective_from: '2026-02-30' }) }), 'INVALID_PROPOSAL'],
      [
        proposal({ candidate: candidate({ effective_until: '2026-01-01T00:00' }) }),
        'INVALID_PROPOSAL',
      ],
      [
        proposal({
          candidate: candidate({ effective_from: '2027-01-01', effective_until: '2026-01-01' }),
        }),
        'INVALID_PROPOSAL',
      ],
      [
        proposal({ candidate: candidate({ shape: { big: 'x'.repeat(70_000) } }) }),
        'INVALID_PROPOSAL',
      ],
      [proposal({ candidate: candidate({ dependency_refs: ['nope'] }) }), 'UNKNOWN_OBJECT', 404],
      [proposal({ supersedes: ['ui.colour'] }), 'INVALID_PROPOSAL'],
      [proposal({ restore_version: ids.version }), 'INVALID_PROPOSAL'],
      [proposal({ rationale: 'x'.repeat(2_001) }), 'INVALID_PROPOSAL'],
      [proposal({ actor: 'alice', authority: 'owner' }), 'AUTHORITY_FROM_PAYLOAD'],
      [proposal({ role: 'owner' }), 'AUTHORITY_FROM_PAYLOAD'],
      [proposal({ candidate: candidate({ authority: 'owner' }) }), 'AUTHORITY_FROM_PAYLOAD'],
      [proposal({ message_id: 'never-archived' }), 'UNKNOWN_MESSAGE', 404],
      [proposal({ object_id: 'ui.colour' }), 'CONFLICT', 409],
      [proposal({ intent: 'update', object_id: 'ui.colour', base_version: ZERO }), 'CONFLICT', 409],
      [
        proposal({ intent: 'update', object_id: 'nothing', base_version: ZERO }),
        'UNKNOWN_OBJECT',
        404,
      ],
      [
        proposal({
          intent: 'restore',
          object_id: 'ui.colour',
          base_version: ids.version,
          restore_version: ZERO,
        }),
        'UNKNOWN_VERSION',
        404,
      ],
      // Sources must be exact spans of archived messages.
      [
        proposal({
          candidate: candidate({
            sources: [{ message_id: 'missing', span: [0, 5], quote: 'I wou' }],
          }),
        }),
        'SOURCE_MISSING',
        422,
      ],
      [
        proposal({
          candidate: candidate({
            sources: [{ message_id: 'm-1', span: span('red interface'), quote: 'blue interface' }],
          }),
        }),
        'SOURCE_MISSING',
        422,
      ],
      [
        proposal({
          candidate: candidate({
            sources: [{ message_id: 'm-1', span: [1, 14], quote: 'red interface' }],
          }),
        }),
        'SOURCE_MISSING',
        422,
      ],
      [
        proposal({
          candidate: candidate({ sources: [{ message_id: 'm-1', span: [500, 600], quote: 'x' }] }),
        }),
        'SOURCE_MISSING',
        422,
      ],
      [
        proposal({
          candidate: candidate({ sources: [{ message_id: 'm-1', span: [5, 2], quote: 'x' }] }),
        }),
        'INVALID_PROPOSAL',
      ],
      [
        proposal({
          candidate: candidate({
            sources: [{ message_id: 'm-1', span: [0, 1], quote: 'I', by: 'me' }],
          }),
        }),
        'INVALID_PROPOSAL',
      ],
    ];
    for (const [body, code, status] of bad) {
      await refused('POST', '/proposals', body, { code, ...(status ? { status } : {}) });
    }
    // The same source, matching the archive, is accepted: the refusals were about the source.
    const ok = await api(
      'POST',
      '/proposals',
      t.owner,
      proposal({
        object_id: 'ok-source',
        candidate: candidate({
          sources: [{ message_id: 'm-1', span: span('red interface'), quote: 'red interface' }],
        }),
      }),
    );
    expect(ok.status).toBe(201);
  });

  it('approve and reject', async () => {
    const p = ids.proposal;
    await refused('POST', '/proposals/nope/approve', {}, { code: 'INVALID_ARGUMENT' });
    await refused(
      'POST',
      `/proposals/prop_${'0'.repeat(16)}/approve`,
      {},
      {
        code: 'UNKNOWN_PROPOSAL',
        status: 404,
      },
    );
    await refused('POST', `/proposals/${p}/approve`, { note: 'x' }, { code: 'INVALID_BODY' });
    await refused('POST', `/proposals/${p}/approve`, { decided_by: 'x' }, { code: 'INVALID_BODY' });
    await refused(
      'POST',
      `/proposals/${p}/approve`,
      { approver: 'alice' },
      {
        code: 'AUTHORITY_FROM_PAYLOAD',
      },
    );
    for (const body of [
      {},
      { reason: '' },
      { reason: 42 },
      { reason: 'x'.repeat(2_001) },
      { reason: 'lone \ud800' },
    ]) {
      await refused('POST', `/proposals/${p}/reject`, body, { code: 'INVALID_BODY' });
    }
    await refused(
      'POST',
      `/proposals/${'p'.repeat(101)}/reject`,
      { reason: 'no' },
      { status: 400 },
    );
  });

  it('restore', async () => {
    // The version is named by its hash or its number: neither (or both) is a malformed body.
    await refused('POST', '/objects/ui.colour/restore', {}, { code: 'INVALID_BODY' });
    for (const body of [
      { version: 0 },
      { version: '2' },
      { version: 2.5 },
      { version: 1e300 },
      { version: 1, version_hash: `sha256:${'0'.repeat(64)}` },
    ]) {
      await refused('POST', '/objects/ui.colour/restore', body, { code: 'INVALID_BODY' });
    }
    await refused(
      'POST',
      '/objects/ui.colour/restore',
      { version_hash: 'sha256:zz' },
      {
        code: 'INVALID_HASH',
      },
    );
    await refused(
      'POST',
      '/objects/ui.colour/restore',
      { version_hash: ids.version.toUpperCase() },
      {
        code: 'INVALID_HASH',
      },
    );
    await refused(
      'POST',
      '/objects/ui.colour/restore',
      { version_hash: ZERO },
      {
        code: 'UNKNOWN_VERSION',
        status: 404,
      },
    );
    await refused(
      'POST',
      '/objects/ui.colour/restore',
      { version_hash: ids.version, rationale: 7 },
      {
        code: 'INVALID_BODY',
      },
    );
    await refused(
      'POST',
      '/objects/BAD%20ID/restore',
      { version_hash: ids.version },
      {
        code: 'INVALID_ARGUMENT',
      },
    );
    await refused(
      'POST',
      '/objects/nothing/restore',
      { version_hash: ids.version },
      {
        code: 'UNKNOWN_OBJECT',
        status: 404,
      },
    );
  });

  it('artifacts and reviews', async () => {
    const manifest = (extra: Record<string, unknown> = {}) => ({
      artifact_id: 'next',
      canonical_note_versions: [{ object_id: 'ui.colour', version_hash: ids.version }],
      output_digest: contentHash('next'),
      ...extra,
    });
    const bad: [unknown, string, number?][] = [
      [manifest({ artifact_id: 'BAD ID' }), 'INVALID_ARTIFACT'],
      [manifest({ output_digest: 'sha256:zz' }), 'INVALID_ARTIFACT'],
      [manifest({ canonical_note_versions: [] }), 'INVALID_ARTIFACT'],
      [manifest({ canonical_note_versions: [{ object_id: 'ui.colour' }] }), 'INVALID_ARTIFACT'],
      [
        manifest({ canonical_note_versions: [{ object_id: 'ui.colour', version_hash: ZERO }] }),
        'UNKNOWN_VERSION',
        404,
      ],
      [manifest({ input_refs: ['x'.repeat(501)] }), 'INVALID_ARTIFACT'],
      [manifest({ acceptance_state: 'maybe' }), 'INVALID_ARTIFACT'],
      [manifest({ by: 'x' }), 'INVALID_ARTIFACT'],
      [manifest({ actor: 'alice' }), 'AUTHORITY_FROM_PAYLOAD'],
    ];
    for (const [body, code, status] of bad) {
      await refused('POST', '/artifacts', body, { code, ...(status ? { status } : {}) });
    }
    await refused('POST', '/artifacts/screen/review', {}, { code: 'INVALID_BODY' });
    await refused(
      'POST',
      '/artifacts/screen/review',
      { acceptance_state: 'maybe' },
      {
        code: 'INVALID_ARTIFACT',
      },
    );
    await refused(
      'POST',
      '/artifacts/none/review',
      { acceptance_state: 'accepted' },
      {
        code: 'UNKNOWN_ARTIFACT',
        status: 404,
      },
    );
    await refused(
      'POST',
      '/artifacts/BAD%20ID/review',
      { acceptance_state: 'accepted' },
      {
        code: 'INVALID_ARGUMENT',
      },
    );
  });

  it('working sets and tokens', async () => {
    for (const body of [
      { limit: 0 },
      { limit: 101 },
      { limit: '5' },
      { limit: 1.5 },
      { objective: '' },
      { objective: 'x'.repeat(2_001) },
    ]) {
      await refused('POST', '/working-set', body, { code: 'INVALID_BODY' });
    }
    await refused('POST', '/working-set', { object_id: 'BAD ID' }, { code: 'INVALID_ARGUMENT' });
    await refused(
      'POST',
      '/working-set',
      { object_id: 'nothing' },
      { code: 'UNKNOWN_OBJECT', status: 404 },
    );
    await refused('POST', '/tokens', { principal: 'carol' }, { code: 'INVALID_BODY' });
    await refused(
      'POST',
      '/tokens',
      { principal: 'carol', role: 'god' },
      { code: 'INVALID_ARGUMENT' },
    );
    await refused(
      'POST',
      '/tokens',
      { principal: 'bad principal!', role: 'viewer' },
      {
        code: 'INVALID_ARGUMENT',
      },
    );
    await refused(
      'POST',
      '/tokens',
      { principal: 'carol', role: 'viewer', project: 'other' },
      {
        code: 'INVALID_BODY',
      },
    );
    await refused('DELETE', '/tokens/tok_nope', undefined, { code: 'INVALID_ARGUMENT' });
    await refused('DELETE', `/tokens/tok_${'0'.repeat(12)}`, undefined, { status: 404 });
  });

  it('queries on reads', async () => {
    for (const path of [
      '/proposals?status=open',
      '/objects?status=active,gone',
      '/board?x=1',
      '/messages?limit=0',
      '/messages?limit=1001',
      '/messages?order=sideways',
      '/messages?after=-1',
      '/messages?x=1',
    ]) {
      const r = await api('GET', path, t.owner);
      expect([r.status, r.body.error.code], path).toEqual([400, 'INVALID_ARGUMENT']);
    }
  });

  it('paging queries of a list, each refused naming its parameter', async () => {
    for (const [path, field] of [
      ['/objects?limit=0', 'limit'],
      ['/objects?limit=1001', 'limit'],
      ['/objects?limit=1e2', 'limit'],
      ['/objects?limit=', 'limit'],
      ['/objects?after=', 'after'],
      ['/objects?after=Not.An.Id', 'after'],
      [`/objects?after=${'a'.repeat(101)}`, 'after'],
      ['/objects?status=active&after=a&limit=-1', 'limit'],
      ['/artifacts?limit=0', 'limit'],
      ['/artifacts?limit=1001', 'limit'],
      ['/artifacts?limit=ten', 'limit'],
      ['/artifacts?after=', 'after'],
      ['/artifacts?after=A%20B', 'after'],
      [`/artifacts?after=${'a'.repeat(101)}`, 'after'],
      ['/tokens?limit=0', 'limit'],
      ['/tokens?limit=1001', 'limit'],
      ['/tokens?after=tok_nope', 'after'],
      ['/tokens?after=tok_000000000000', 'after'],
      ['/evolution/admissions?limit=0', 'limit'],
      ['/evolution/admissions?limit=1001', 'limit'],
      ['/evolution/admissions?after=Not_A_Project', 'after'],
      ['/evolution/admissions?after=', 'after'],
      ['/unclassified?limit=0', 'limit'],
      ['/unclassified?limit=1001', 'limit'],
      ['/unclassified?limit=2.5', 'limit'],
      ['/unclassified?after=-1', 'after'],
      ['/unclassified?after=msg-1', 'after'],
      ['/unclassified?after=', 'after'],
      ['/board?limit=0', 'limit'],
      ['/board?limit=1001', 'limit'],
      ['/board?limit=many', 'limit'],
      ['/objects/ui.colour/graph?limit=0', 'limit'],
      ['/objects/ui.colour/graph?limit=1001', 'limit'],
      ['/objects/ui.colour/graph?limit=3.5', 'limit'],
    ] as const) {
      const r = await api('GET', path, t.owner);
      expect([r.status, r.body.error.code, r.body.error.details?.field], path).toEqual([
        400,
        'INVALID_ARGUMENT',
        field,
      ]);
    }
    for (const path of [
      '/objects?limit=1000&after=a',
      '/artifacts?limit=1000&after=a',
      '/tokens?limit=1000',
      '/evolution/admissions?limit=1000&after=a',
      '/unclassified?limit=1000&after=0',
      '/board?limit=1000',
      '/objects/ui.colour/graph?limit=1000',
    ]) {
      expect((await api('GET', path, t.owner)).status, path).toBe(200);
    }
    const graph = await api('GET', '/objects/ui.colour/graph', t.owner);
    expect(graph.body.nodes.map((n: { id: string }) => n.id)).toEqual([
      'note:ui.colour',
      'artifact:screen',
    ]);
    expect(graph.body.limit).toBe(120);
    for (const [path, status, code] of [
      ['/objects/no.such/graph', 404, 'UNKNOWN_OBJECT'],
      ['/objects/Not%20An%20Id/graph', 400, 'INVALID_ARGUMENT'],
      ['/objects/ui.colour/graph?depth=2', 400, 'INVALID_ARGUMENT'],
    ] as const) {
      const r = await api('GET', path, t.owner);
      expect([r.status, r.body.error.code], path).toEqual([status, code]);
    }
  });
});

describe('fuzz: random bodies on every write route', () => {
  const FIELDS = [
    'text',
    'role',
    'message_id',
    'object_id',
    'intent',
    'base_version',
    'candidate',
    'supersedes',
    'restore_version',
    'rationale',
    'reason',
    'version_hash',
    'acceptance_state',
    'artifact_id',
    'canonical_note_versions',
    'output_digest',
    'objective',
    'limit',
    'principal',
  ];
  const CANDIDATE = [
    'object_type',
    'title',
    'text',
    'shape',
    'sources',
    'tags',
    'status',
    'dependency_refs',
  ];
  const body = fc.oneof(
    fc.jsonValue(),
    fc.dictionary(fc.constantFrom(...FIELDS), fc.jsonValue(), { maxKeys: 4 }),
    fc.record(
      {
        object_id: fc.oneof(fc.constant('ui.colour'), fc.string()),
        intent: fc.constantFrom('create', 'update', 'supersede', 'retire', 'restore', 'dispute'),
        base_version: fc.oneof(fc.constant(null), fc.constant(ZERO), fc.string()),
        candidate: fc.dictionary(fc.constantFrom(...CANDIDATE), fc.jsonValue(), { maxKeys: 6 }),
      },
      { requiredKeys: [] },
    ),
  );

  it('never answers 5xx, and every refusal writes nothing', async () => {
    for (const [method, path] of WRITES()) {
      await fc.assert(
        fc.asyncProperty(body, async (value) => {
          const before = await writeSnapshot(live.runtime);
          const r = await api(method, path, t.owner, value);
          if (r.status >= 500)
            throw new Error(`${method} ${path} ${JSON.stringify(value)} → ${r.status}`);
          if (r.status >= 400) {
            expect(typeof r.body.error.code).toBe('string');
            expect(await writeSnapshot(live.runtime)).toEqual(before);
          }
        }),
        { numRuns: 40 },
      );
      await fc.assert(
        fc.asyncProperty(fc.string({ maxLength: 200 }), async (raw) => {
          const r = await api(method, path, t.owner, raw);
          expect(r.status).toBeLessThan(500);
        }),
        { numRuns: 15 },
      );
    }
  });
});
