// LCSM §14 planes and §2 effective windows over real HTTP: a server on loopback with a real SQLite
// file and an injected clock; an owner, an editor and an agent of one project, each with a token.
// The editor keeps a personal plane (a personal message, personal notes — one from intake — a pending
// personal proposal, a personal artifact, an expired personal note). Every read route the OpenAPI
// document lists then answers the owner and the agent exactly as before (no id, text, quote or count
// leaked), every route given a personal id answers as if it did not exist, the journal redacts the
// personal entries (the chain still links, the rest re-hashes, verify passes), writes cannot reach the
// personal plane, and boards, object reads, provenance and working sets follow the effective windows.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import { contentHash } from '../../src/core/index.js';
import { entryHash, type JournalEntry, withoutHash } from '../../src/journal/index.js';
import { buildServer } from '../../src/server/index.js';
import { call, tokensFor } from '../helpers/auth.js';
import { tempDir } from '../helpers/runtime.js';

const P = 'planes';
const T0 = '2030-06-01T00:00:00.000Z';
let clock = new Date(T0);
let runtime: CanonryRuntime;
let app: FastifyInstance;
let url = '';
let cleanup = () => {};
let t: Record<'olivia' | 'eddie' | 'agent', string>;

const SECRET = {
  message: 'Diary, between us: my salary is 91234 and I plan to negotiate in March.',
  quote: 'my salary is 91234',
  title: 'Zanzibar compensation memo',
  text: 'Eddie earns 91234 and will negotiate a raise in March.',
  morale: 'I would like my morale check-ins kept between me and my notes.',
};
const NEVER = [
  'eddie.salary',
  'eddie.old',
  'eddie.plan',
  'eddie.sheet',
  'eddie.lapsed',
  'team.morale',
  'eddie-diary-1',
  // Digits alone could turn up in a random hash: each fragment carries words.
  'salary is 91234',
  'earns 91234',
  'earned 88000',
  'Zanzibar',
  'bonus',
  'morale check-ins',
];
const hidden = { hashes: [] as string[], proposals: [] as string[], seqs: [] as number[] };

function expectNoLeak(value: unknown, where: string): void {
  const json = JSON.stringify(value);
  for (const s of [...NEVER, ...hidden.hashes, ...hidden.proposals]) {
    expect(json, `${where} leaked ${s}`).not.toContain(s);
  }
}

const api = (method: string, path: string, token: string, body?: unknown) =>
  call(url, method, `/v1/projects/${P}${path}`, token, body);

async function propose(token: string, body: Record<string, unknown>) {
  const r = await api('POST', '/proposals', token, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

/** Every read a principal can make around the shared canon, as status and body. */
const READS: [string, string, unknown?][] = [
  ['GET', '/objects'],
  ['GET', '/objects?status=superseded'],
  ['GET', '/objects?status=active,provisional'],
  ['GET', '/messages'],
  ['GET', '/proposals'],
  ['GET', '/proposals?status=pending'],
  ['GET', '/board'],
  ['GET', '/artifacts'],
  ['GET', '/artifacts/budget.sheet'],
  ['GET', '/objects/team.budget'],
  ['GET', '/objects/team.budget/versions'],
  ['GET', '/objects/team.budget/provenance'],
  ['POST', '/working-set', {}],
  ['POST', '/working-set', { objective: 'salary raise negotiate budget morale diary' }],
  ['POST', '/working-set', { object_id: 'team.budget' }],
];
async function reads(token: string) {
  const out: Record<string, unknown> = {};
  for (const [method, path, body] of READS) {
    const r = await api(method, path, token, body);
    out[`${method} ${path} ${JSON.stringify(body ?? null)}`] = [r.status, r.body];
  }
  return out;
}
const before: Record<string, unknown> = {};
const after: Record<string, unknown> = {};

beforeAll(async () => {
  const dir = tempDir('canonry-planes-');
  runtime = await createCanonry({ dataDir: dir.dir, logLevel: 'silent' }, { now: () => clock });
  app = buildServer(runtime, { logLevel: 'silent' });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  cleanup = dir.cleanup;
  t = await tokensFor(runtime, P, { olivia: 'owner', eddie: 'editor', agent: 'agent' });

  // Shared canon, with windows in the past, the future and the present.
  const src = 'Budget review: the team budget is 40000 EUR.';
  await api('POST', '/messages?classify=false', t.olivia, { text: src, message_id: 'm-budget' });
  const start = src.indexOf('the team budget');
  const budget = await propose(t.olivia, {
    object_id: 'team.budget',
    intent: 'create',
    base_version: null,
    candidate: {
      object_type: 'fact',
      title: 'Team budget',
      text: 'The team budget is 40000 EUR.',
      confidence_state: 'sourced',
      sources: [
        { message_id: 'm-budget', span: [start, src.length - 1], quote: src.slice(start, -1) },
      ],
    },
  });
  const windows: [string, Record<string, string>][] = [
    ['n.past', { effective_until: '2030-01-01' }],
    ['n.future', { effective_from: '2031-01-01' }],
    ['n.present', { effective_from: '2030-01-01', effective_until: '2031-01-01T00:00:00Z' }],
  ];
  for (const [id, window] of windows) {
    await propose(t.olivia, {
      object_id: id,
      intent: 'create',
      base_version: null,
      candidate: { object_type: 'fact', title: id, text: `Text of ${id}.`, ...window },
    });
  }
  const art = await api('POST', '/artifacts', t.eddie, {
    artifact_id: 'budget.sheet',
    canonical_note_versions: [
      { object_id: 'team.budget', version_hash: budget.committed.version_hash },
    ],
    output_digest: contentHash('budget sheet'),
  });
  expect(art.status).toBe(201);
  before.olivia = await reads(t.olivia);
  before.agent = await reads(t.agent);
  const first = (await runtime.journal.head(P)).seq + 1;

  // The editor's personal plane, all over HTTP.
  const diary = await api('POST', '/messages?classify=false', t.eddie, {
    text: SECRET.message,
    message_id: 'eddie-diary-1',
    visibility: 'personal',
  });
  expect(diary.body.message.visibility).toBe('personal');
  const q = SECRET.message.indexOf(SECRET.quote);
  const personal = (id: string, candidate: Record<string, unknown>, more = {}) =>
    propose(t.eddie, {
      object_id: id,
      intent: 'create',
      base_version: null,
      candidate: { object_type: 'fact', title: id, visibility: 'personal', ...candidate },
      ...more,
    });
  const old = await personal('eddie.old', { text: 'Eddie earned 88000 last year.' });
  const salary = await propose(t.eddie, {
    object_id: 'eddie.salary',
    intent: 'supersede',
    base_version: null,
    supersedes: ['eddie.old'],
    message_id: 'eddie-diary-1',
    candidate: {
      object_type: 'fact',
      title: SECRET.title,
      text: SECRET.text,
      visibility: 'personal',
      confidence_state: 'sourced',
      dependency_refs: ['team.budget'],
      sources: [
        { message_id: 'eddie-diary-1', span: [q, q + SECRET.quote.length], quote: SECRET.quote },
      ],
    },
  });
  const plan = await personal('eddie.plan', {
    object_type: 'decision',
    text: 'Quietly move the quarterly bonus into the raise.',
    tags: ['financial'],
  });
  expect(plan.proposal.status).toBe('pending');
  const lapsed = await personal('eddie.lapsed', {
    text: 'Eddie is on call until New Year.',
    effective_until: '2030-01-01',
  });
  const sheet = await api('POST', '/artifacts', t.eddie, {
    artifact_id: 'eddie.sheet',
    canonical_note_versions: [
      { object_id: 'eddie.salary', version_hash: salary.committed.version_hash },
      { object_id: 'team.budget', version_hash: budget.committed.version_hash },
    ],
    output_digest: contentHash('eddie sheet'),
  });
  expect(sheet.status).toBe(201);
  // Eddie's subject: its id names his personal note, so its entry is his alone (the journal shows
  // it to others only as its place in the chain).
  const subject = await api('POST', '/classifier/subjects', t.eddie, {
    subjects: {
      'team.morale': { title: 'Morale', object_type: 'preference', keywords: ['morale'] },
    },
  });
  expect(subject.status).toBe(200);
  const morale = await api('POST', '/messages', t.eddie, {
    text: SECRET.morale,
    visibility: 'personal',
  });
  expect(morale.status).toBe(201);
  expect(morale.body.proposals.length).toBeGreaterThan(0);
  for (const p of morale.body.proposals) {
    expect(p.outcome.proposal.candidate.visibility).toBe('personal');
    hidden.proposals.push(p.outcome.proposal.proposal_id);
  }
  hidden.proposals.push(
    old.proposal.proposal_id,
    salary.proposal.proposal_id,
    plan.proposal.proposal_id,
    lapsed.proposal.proposal_id,
  );
  const last = (await runtime.journal.head(P)).seq;
  for (let seq = first; seq <= last; seq++) hidden.seqs.push(seq);
  const all = runtime.canon.reader(P);
  for (const id of ['eddie.old', 'eddie.salary', 'eddie.lapsed', 'team.morale']) {
    for (const v of await all.versions(id)) hidden.hashes.push(v.version_hash);
  }
  after.olivia = await reads(t.olivia);
  after.agent = await reads(t.agent);
}, 120_000);
afterAll(async () => {
  await app?.close();
  await runtime?.close();
  cleanup();
});

describe('LCSM §14 planes over HTTP', () => {
  it('every read answers the owner and the agent exactly as before the personal plane existed', () => {
    expect(after.olivia).toEqual(before.olivia);
    expect(after.agent).toEqual(before.agent);
    for (const [key, [status]] of Object.entries(after.olivia as Record<string, [number]>)) {
      expect(status, key).toBe(200);
    }
  });

  it('nothing of the personal plane is in any of those answers', () => {
    expectNoLeak(after, 'reads');
  });

  it('every read route given a personal id answers 404, as for an id that does not exist', async () => {
    const doc = (await call(url, 'GET', '/openapi.json', null)).body;
    const ids: Record<string, string> = {
      '/objects/': 'eddie.salary',
      '/messages/': 'eddie-diary-1',
      '/proposals/': hidden.proposals.at(-2)!,
      '/artifacts/': 'eddie.sheet',
      '/journal/': String(hidden.seqs[0]),
    };
    let checked = 0;
    for (const path of Object.keys(doc.paths)) {
      if (!doc.paths[path].get || !/\{(id|seq)\}/.test(path)) continue;
      const key = Object.keys(ids).find((k) => path.includes(k));
      expect(key, `a personal id for ${path}`).toBeDefined();
      const concrete = path
        .replace('/v1/projects/{project}', '')
        .replace(/\{(id|seq)\}/, ids[key!]!)
        .replace('{version}', '1');
      for (const token of [t.olivia, t.agent]) {
        const r = await api('GET', concrete, token);
        expect(r.status, `GET ${concrete}`).toBe(404);
        expectNoLeak(r.body.error.details ?? null, concrete);
      }
      const mine = await api('GET', concrete, t.eddie);
      expect(mine.status, `GET ${concrete} as its holder`).toBe(200);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(7);
    const ws = await api('POST', '/working-set', t.olivia, { object_id: 'eddie.salary' });
    expect([ws.status, ws.body.error.code]).toEqual([404, 'UNKNOWN_OBJECT']);
  });

  it('the holder reads its personal plane: the message as personal, the note with its quote', async () => {
    const message = await api('GET', '/messages/eddie-diary-1', t.eddie);
    expect(message.body).toMatchObject({ visibility: 'personal', actor: 'eddie' });
    const walk = await api('GET', '/objects/eddie.salary/provenance', t.eddie);
    expect(walk.body.why.sources[0].quote).toBe(SECRET.quote);
    const board = await api('GET', '/board', t.eddie);
    expect(board.body.pending.map((p: any) => p.object_id)).toEqual(['eddie.plan']);
    expect(board.body.objects.superseded.map((o: any) => o.object_id)).toEqual(['eddie.old']);
  });

  it('writes by others cannot reach the personal plane; crossing planes is a typed 422', async () => {
    const taken = await api('POST', '/proposals', t.olivia, {
      object_id: 'eddie.salary',
      intent: 'create',
      base_version: null,
      candidate: { object_type: 'fact', title: 'x', text: 'x' },
    });
    expect([taken.status, taken.body.error.code, taken.body.error.details]).toEqual([
      409,
      'CONFLICT',
      undefined,
    ]);
    const cite = await api('POST', '/proposals', t.olivia, {
      object_id: 'x.cite',
      intent: 'create',
      base_version: null,
      candidate: {
        object_type: 'fact',
        title: 'x',
        text: 'x',
        sources: [{ message_id: 'eddie-diary-1', span: [0, 5], quote: 'Diary' }],
      },
    });
    expect([cite.status, cite.body.error.code]).toEqual([422, 'SOURCE_MISSING']);
    const approve = await api(
      'POST',
      `/proposals/${hidden.proposals.at(-2)}/approve`,
      t.olivia,
      {},
    );
    expect([approve.status, approve.body.error.code]).toEqual([404, 'UNKNOWN_PROPOSAL']);
    const reuse = await api('POST', '/messages?classify=false', t.olivia, {
      text: 'hello',
      message_id: 'eddie-diary-1',
    });
    expect([reuse.status, reuse.body.error.code]).toEqual([409, 'CONFLICT']);
    // Each refusal repeats what the caller sent, and nothing else.
    expect([taken.body, cite.body, approve.body, reuse.body]).toEqual([
      { error: { code: 'CONFLICT', message: 'eddie.salary is not available; choose another id' } },
      {
        error: {
          code: 'SOURCE_MISSING',
          message: 'source eddie-diary-1[0:5] does not match the archive',
        },
      },
      {
        error: { code: 'UNKNOWN_PROPOSAL', message: `no proposal ${hidden.proposals.at(-2)}` },
      },
      {
        error: {
          code: 'CONFLICT',
          message: 'message eddie-diary-1 is already archived with other content',
          details: { message_id: 'eddie-diary-1' },
        },
      },
    ]);
    const q = SECRET.message.indexOf(SECRET.quote);
    const crossing = await api('POST', '/proposals', t.eddie, {
      object_id: 'team.pay',
      intent: 'create',
      base_version: null,
      candidate: {
        object_type: 'fact',
        title: 'Pay',
        text: SECRET.quote,
        sources: [
          { message_id: 'eddie-diary-1', span: [q, q + SECRET.quote.length], quote: SECRET.quote },
        ],
      },
    });
    expect([crossing.status, crossing.body.error.code]).toEqual([422, 'PLANE_VIOLATION']);
    expect((await api('GET', '/objects/team.pay', t.eddie)).status).toBe(404);
  });

  it('an update that leaves out visibility keeps the personal note personal', async () => {
    const current = (await api('GET', '/objects/eddie.salary', t.eddie)).body;
    const out = await propose(t.eddie, {
      object_id: 'eddie.salary',
      intent: 'update',
      base_version: current.object.current_version_ref,
      candidate: {
        object_type: 'fact',
        title: SECRET.title,
        text: `${SECRET.text} Maybe April.`,
        dependency_refs: ['team.budget'],
        confidence_state: 'sourced',
        sources: current.object.source_refs,
      },
    });
    expect(out.committed.content.visibility).toBe('personal');
    hidden.hashes.push(out.committed.version_hash);
    hidden.proposals.push(out.proposal.proposal_id);
    hidden.seqs.push(out.receipt.result_state_ref.seq - 1, out.receipt.result_state_ref.seq);
    expect(await reads(t.olivia)).toEqual(before.olivia);
  });

  it('the journal shows others a personal entry only as its place in the chain', async () => {
    const head = (await runtime.journal.head(P)).seq;
    const page = await api('GET', '/journal?limit=1000', t.olivia);
    expect(page.status).toBe(200);
    const stored = await runtime.journal.read(P, { after: 0, limit: 1000 });
    const entries = page.body.entries as any[];
    expect(entries.map((e) => e.seq)).toEqual(stored.map((e) => e.seq));
    const redacted = entries.filter((e) => e.redacted === true).map((e) => e.seq);
    expect(redacted).toEqual(hidden.seqs);
    for (const [i, e] of entries.entries()) {
      if (i > 0) expect(e.prev_hash).toBe(entries[i - 1].hash);
      if (e.redacted) {
        expect(e).toEqual({
          project: P,
          seq: e.seq,
          format: stored[i]!.format,
          prev_hash: stored[i]!.prev_hash,
          hash: stored[i]!.hash,
          redacted: true,
        });
      } else {
        expect(entryHash(withoutHash(e as JournalEntry))).toBe(e.hash);
      }
    }
    expect(entries.at(-1).hash).toBe(page.body.head.hash);
    expect(page.body.head.seq).toBe(head);
    expectNoLeak(entries, 'journal');
    const receipt = await api('GET', `/journal/${hidden.seqs[1]}/receipt`, t.agent);
    expect([receipt.status, receipt.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect((await api('GET', `/journal/${hidden.seqs[1]}/receipt`, t.eddie)).status).toBe(200);
    const shared = await api('GET', '/journal/1/receipt', t.agent);
    expect(shared.status).toBe(200);
    const mine = (await api('GET', '/journal?limit=1000', t.eddie)).body.entries as any[];
    expect(mine.filter((e) => e.redacted)).toEqual([]);
    const verify = await api('GET', '/journal/verify', t.agent);
    expect(verify.body).toMatchObject({ ok: true, checked: head });
  });
});

describe('LCSM §2 effective windows over HTTP, at the injected clock', () => {
  const effective = (board: any, id: string) =>
    Object.values(board.objects as Record<string, any[]>)
      .flat()
      .find((o) => o.object_id === id)?.effective;

  it('the board marks each object in or out of effect; objects and provenance say so', async () => {
    const board = (await api('GET', '/board', t.agent)).body;
    expect(
      ['n.past', 'n.future', 'n.present', 'team.budget'].map((id) => effective(board, id)),
    ).toEqual(['expired', 'not_yet_effective', 'in_effect', 'in_effect']);
    expect(board.objects.active.map((o: any) => o.object_id)).toContain('n.past');
    expect((await api('GET', '/objects/n.past', t.agent)).body.effective).toBe('expired');
    expect((await api('GET', '/objects/n.past/provenance', t.agent)).body.effective).toBe(
      'expired',
    );
  });

  it('a working set leaves out what is not in effect and counts it, by what the reader may read', async () => {
    const ws = (await api('POST', '/working-set', t.olivia, {})).body;
    const ids = ws.notes.map((n: any) => n.object_id);
    expect(ids).toContain('n.present');
    expect(ids).not.toContain('n.past');
    expect(ids).not.toContain('n.future');
    expect([ws.expired, ws.not_yet_effective]).toEqual([1, 1]);
    expect(ws.capsule).not.toContain('Text of n.past.');
    const mine = (await api('POST', '/working-set', t.eddie, {})).body;
    expect(mine.expired).toBe(2);
  });

  it('moving the clock moves the marks and the working set', async () => {
    clock = new Date('2031-06-01T00:00:00Z');
    try {
      const board = (await api('GET', '/board', t.olivia)).body;
      expect(['n.past', 'n.future', 'n.present'].map((id) => effective(board, id))).toEqual([
        'expired',
        'in_effect',
        'expired',
      ]);
      const ws = (await api('POST', '/working-set', t.olivia, {})).body;
      expect([ws.expired, ws.not_yet_effective]).toEqual([2, 0]);
      expect(ws.notes.map((n: any) => n.object_id)).toContain('n.future');
    } finally {
      clock = new Date(T0);
    }
  });
});
