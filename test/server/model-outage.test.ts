// The model path over real HTTP: canonry on loopback with a model classifier configured the way an
// operator does it (CANONRY_MODEL_* in the environment), in front of a fake OpenAI-compatible server
// on loopback that is dead, hangs, stalls after its headers, asks for a pause, fails, talks nonsense
// or drafts hostile classifications. Outages are 502/503 (+ Retry-After), bad output 422; the
// message stays archived once and is classified when sent again; the log (captured) says what failed
// without the key, the prompt or the message text.
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import { DEFAULT_MODEL_POLICY } from '../../src/models/index.js';
import { buildServer } from '../../src/server/index.js';
import {
  apiError,
  completion,
  deadURL,
  type FakeOpenAI,
  type Reply,
  startFakeOpenAI,
} from '../fixtures/models/fake-openai-server.js';
import { type Called, call, tokensFor } from '../helpers/auth.js';
import { freshRuntime } from '../helpers/runtime.js';

const P = 'outage';
const KEY = 'sk-outage-SECRET-5f1e2d3c4b5a';
const PROMPT_MARK = 'You classify one message for canonry';

interface Live {
  readonly url: string;
  readonly runtime: CanonryRuntime;
  readonly fake: FakeOpenAI | null;
  readonly log: string[];
  readonly owner: string;
  readonly agent: string;
  post(token: string, body: Record<string, unknown>): Promise<Called>;
  close(): Promise<void>;
}

const opened: Live[] = [];
afterAll(async () => {
  for (const live of opened) await live.close();
});

/** A canonry server whose classifier is the model at `url` (a fake server unless `dead`). */
async function canonryWithModel(settings: Record<string, string>, dead = false): Promise<Live> {
  const fake = dead ? null : await startFakeOpenAI();
  const env = {
    CANONRY_MODEL_URL: fake?.baseURL ?? (await deadURL()),
    CANONRY_MODEL: 'fake-llm',
    CANONRY_MODEL_KEY: KEY,
    ...settings,
  };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  let fresh: Awaited<ReturnType<typeof freshRuntime>>;
  try {
    fresh = await freshRuntime();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  const log: string[] = [];
  const app: FastifyInstance = buildServer(fresh.runtime, {
    logLevel: 'info',
    logStream: { write: (line) => log.push(line) },
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const tokens = await tokensFor(fresh.runtime, P, { alice: 'owner', bot: 'agent' });
  const live: Live = {
    url,
    runtime: fresh.runtime,
    fake,
    log,
    owner: tokens.alice,
    agent: tokens.bot,
    post: (token, body) => call(url, 'POST', `/v1/projects/${P}/messages`, token, body),
    close: async () => {
      await app.close();
      await fresh.close();
      await fake?.close();
    },
  };
  opened.push(live);
  return live;
}

/** The model's answer: a classification with these drafts. */
function classification(drafts: Record<string, unknown>[]): Reply {
  return completion(
    JSON.stringify({
      outcome: drafts.length > 0 ? 'candidate_fact' : 'no_effect',
      touched: drafts.map((d) => d.object_id),
      drafts,
      rationale: 'the message states it',
    }),
  );
}

function draft(
  text: string,
  sentence: string,
  candidate: Record<string, unknown> = {},
  id = 'api.limit',
): Record<string, unknown> {
  const start = text.indexOf(sentence);
  if (start < 0) throw new Error('the sentence is not in the text');
  return {
    object_id: id,
    intent: 'create',
    supersedes: [],
    rationale: 'stated in the message',
    candidate: {
      object_type: 'fact',
      title: 'API limit',
      text: sentence,
      confidence_state: 'asserted',
      status: 'active',
      visibility: 'project',
      sources: [{ span: [start, start + sentence.length], quote: sentence }],
      dependency_refs: [],
      effective_from: null,
      effective_until: null,
      tags: [],
      ...candidate,
    },
  };
}

/** The warn lines of the captured log, parsed. */
function warnings(live: Live): Record<string, any>[] {
  return live.log.map((line) => JSON.parse(line)).filter((entry) => entry.level === 40);
}

/** Nothing secret or private in the log: not the key, the prompt, nor any message text sent. */
function expectCleanLog(live: Live, texts: readonly string[]): void {
  const all = live.log.join('\n');
  expect(all).not.toContain(KEY);
  expect(all).not.toContain(PROMPT_MARK);
  for (const text of texts) expect(all).not.toContain(text);
}

async function journalKeys(live: Live, key: string): Promise<number> {
  const rows = await live.runtime.store.all(
    'SELECT seq FROM journal_entries WHERE project = $1 AND idempotency_key = $2',
    [P, key],
  );
  return rows.length;
}

describe('a dead model: 502 first, then 503 with Retry-After while it cools down', () => {
  it('answers 502 naming the message, archives it, then fails fast with 503 + Retry-After', async () => {
    const live = await canonryWithModel(
      {
        CANONRY_MODEL_TIMEOUT_MS: '300',
        CANONRY_MODEL_RETRIES: '1',
        CANONRY_MODEL_COOLDOWN_MS: '60000',
      },
      true,
    );
    const first = await live.post(live.owner, { text: 'The API limit is 100.', message_id: 'd-1' });
    expect(first.status).toBe(502);
    expect(first.headers.get('retry-after')).toBeNull();
    expect(first.body.error).toMatchObject({
      code: 'MODEL_UNAVAILABLE',
      details: { message_id: 'd-1', route: 'openai:fake-llm' },
    });
    expect(first.body.error.message).toContain('ECONNREFUSED');

    const second = await live.post(live.owner, { text: 'The quota is 5.', message_id: 'd-2' });
    expect(second.status).toBe(503);
    expect(second.body.error).toMatchObject({ code: 'MODEL_BUSY', details: { message_id: 'd-2' } });
    const retryAfter = Number(second.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(second.body.error.details.retry_after_s).toBe(retryAfter);

    for (const id of ['d-1', 'd-2']) {
      const got = await call(live.url, 'GET', `/v1/projects/${P}/messages/${id}`, live.owner);
      expect(got.status).toBe(200);
      expect(await journalKeys(live, `message:${id}`)).toBe(1);
      expect(await journalKeys(live, `classification:${id}`)).toBe(0);
    }
    expect(JSON.stringify([first.body, second.body])).not.toContain(KEY);
    const warned = warnings(live);
    expect(warned.map((w) => [w.code, w.message_id])).toEqual([
      ['MODEL_UNAVAILABLE', 'd-1'],
      ['MODEL_BUSY', 'd-2'],
    ]);
    expect(warned[1]).toMatchObject({ route: 'openai:fake-llm', retry_after_s: retryAfter });
    expectCleanLog(live, ['The API limit is 100.', 'The quota is 5.']);
  });
});

describe('a model that does not answer: the configured bound, not the default one', () => {
  for (const [name, reply] of [
    ['hangs before its headers', { kind: 'hang' }],
    ['stalls after its headers', { kind: 'stall' }],
    ['dribbles its body', { kind: 'dribble', everyMs: 40 }],
  ] as const) {
    it(`${name}: 502 well before the default timeout`, async () => {
      const live = await canonryWithModel({
        CANONRY_MODEL_TIMEOUT_MS: '300',
        CANONRY_MODEL_RETRIES: '0',
        CANONRY_MODEL_COOLDOWN_MS: '0',
      });
      live.fake!.enqueue(reply);
      const start = performance.now();
      const r = await live.post(live.owner, { text: 'Slow model.', message_id: 'h-1' });
      const ms = performance.now() - start;
      expect(r.status).toBe(502);
      expect(r.body.error).toMatchObject({
        code: 'MODEL_UNAVAILABLE',
        details: { message_id: 'h-1' },
      });
      expect(r.body.error.message).toContain('timed out');
      expect(ms).toBeLessThan(DEFAULT_MODEL_POLICY.timeoutMs / 2);
      expect(live.fake!.requests).toHaveLength(1);
    });
  }
});

describe('a model that asks for a pause or fails', () => {
  for (const status of [429, 503]) {
    it(`${status} with Retry-After: 503 MODEL_BUSY passing the hint on`, async () => {
      const live = await canonryWithModel({
        CANONRY_MODEL_RETRIES: '2',
        CANONRY_MODEL_COOLDOWN_MS: '0',
      });
      live.fake!.enqueue(apiError(status, 'rate limited', { 'retry-after': '7' }));
      const r = await live.post(live.owner, { text: 'Busy model.', message_id: 'b-1' });
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('7');
      expect(r.body.error).toMatchObject({
        code: 'MODEL_BUSY',
        details: { message_id: 'b-1', upstream_status: status, retry_after_s: 7 },
      });
      expect(live.fake!.requests).toHaveLength(1);
      expect(warnings(live)[0]).toMatchObject({ code: 'MODEL_BUSY', upstream_status: status });
    });
  }

  it('500s: retried as configured, then 502 with the upstream status', async () => {
    const live = await canonryWithModel({
      CANONRY_MODEL_RETRIES: '1',
      CANONRY_MODEL_COOLDOWN_MS: '0',
    });
    live.fake!.enqueue(apiError(500, 'boom'), apiError(500, 'boom'));
    const r = await live.post(live.owner, { text: 'Failing model.', message_id: 'f-1' });
    expect(r.status).toBe(502);
    expect(r.headers.get('retry-after')).toBeNull();
    expect(r.body.error.details).toMatchObject({ message_id: 'f-1', upstream_status: 500 });
    expect(live.fake!.requests).toHaveLength(2);
  });

  it('garbage output: 422 CLASSIFIER_FAILED, logged at warn with its reason code only', async () => {
    const live = await canonryWithModel({ CANONRY_MODEL_COOLDOWN_MS: '0' });
    const text = 'Our private launch date is March 3.';
    live.fake!.enqueue(completion(`Sure! ${text} is a fact.`), completion(''));
    const prose = await live.post(live.owner, { text, message_id: 'g-1' });
    expect(prose.status).toBe(422);
    expect(prose.body.error).toMatchObject({
      code: 'CLASSIFIER_FAILED',
      details: { message_id: 'g-1' },
    });
    expect(prose.body.error.details.issues[0]).toMatch(/^not_json: /);
    const empty = await live.post(live.owner, { text, message_id: 'g-2' });
    expect(empty.status).toBe(422);
    expect(empty.body.error.details.issues[0]).toMatch(/^model_output_invalid: /);
    expect(await journalKeys(live, 'classification:g-1')).toBe(0);
    expect(warnings(live).map((w) => [w.code, w.message_id, w.reasons])).toEqual([
      ['CLASSIFIER_FAILED', 'g-1', ['not_json']],
      ['CLASSIFIER_FAILED', 'g-2', ['model_output_invalid']],
    ]);
    expectCleanLog(live, [text]);
  });
});

describe('hostile drafts are refused in code; the gate still asks where it would', () => {
  const TEXT = 'The API limit is 100 requests a minute.';
  const CITED = 'According to https://example.test/limits the API limit is 100 requests a minute.';
  let live: Live;
  const reject = async (token: string, text: string, candidate: Record<string, unknown>) => {
    live.fake!.enqueue(classification([draft(text, text, candidate)]));
    const r = await live.post(token, { text });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('CLASSIFIER_FAILED');
    return (r.body.error.details.issues as string[]).map((i) => i.split(':')[0]);
  };

  it('verified, from anyone: no_verification', async () => {
    live = await canonryWithModel({ CANONRY_MODEL_COOLDOWN_MS: '0' });
    expect(await reject(live.owner, TEXT, { confidence_state: 'verified' })).toEqual([
      'no_verification',
    ]);
    expect(
      await reject(live.agent, TEXT, { confidence_state: 'verified', status: 'provisional' }),
    ).toEqual(['no_verification']);
  });

  it('an agent claiming asserted, or sourced without citing: over_confident', async () => {
    expect(await reject(live.agent, TEXT, { status: 'provisional' })).toEqual(['over_confident']);
    expect(
      await reject(live.agent, TEXT, { confidence_state: 'sourced', status: 'provisional' }),
    ).toEqual(['over_confident']);
  });

  it('an agent proposing an active note: over_status', async () => {
    expect(await reject(live.agent, TEXT, { confidence_state: 'inferred' })).toEqual([
      'over_status',
    ]);
    const both = await reject(live.agent, TEXT, {});
    expect(both).toEqual(['over_confident', 'over_status']);
  });

  it('an assistant message sent by the owner is a suggestion too', async () => {
    live.fake!.enqueue(classification([draft(TEXT, TEXT)]));
    const r = await live.post(live.owner, { text: TEXT, role: 'assistant' });
    expect(r.status).toBe(422);
    expect(r.body.error.details.issues.map((i: string) => i.split(':')[0])).toEqual([
      'over_confident',
      'over_status',
    ]);
  });

  it('within bounds, an agent decision waits for confirmation (suggestion turned directive, beyond its authority)', async () => {
    const text = 'We will use PostgreSQL for the ledger.';
    live.fake!.enqueue(
      classification([
        draft(
          text,
          text,
          { object_type: 'decision', confidence_state: 'inferred', status: 'provisional' },
          'db.ledger',
        ),
      ]),
    );
    const r = await live.post(live.agent, { text });
    expect(r.status).toBe(201);
    const [p] = r.body.proposals;
    expect(p.ok).toBe(true);
    expect(p.outcome.proposal).toMatchObject({ status: 'pending', required_role: 'editor' });
    expect(p.outcome.proposal.gate.label).toBe('REQUIRE_CONFIRMATION');
    expect(p.outcome.proposal.comparison.checks.suggestion_to_directive.result).toBe(true);
    expect(p.outcome.proposal.comparison.checks.within_authority.result).toBe(false);
    expect(p.outcome.committed).toBeNull();
  });

  it('an agent that cites a source may say sourced (and stays provisional)', async () => {
    live.fake!.enqueue(
      classification([
        draft(CITED, CITED, { confidence_state: 'sourced', status: 'provisional' }, 'api.cited'),
      ]),
    );
    const r = await live.post(live.agent, { text: CITED });
    expect(r.status).toBe(201);
    expect(r.body.proposals[0].outcome.proposal.candidate).toMatchObject({
      confidence_state: 'sourced',
      status: 'provisional',
    });
    // Nothing refused above reached canon.
    const objects = await live.runtime.canon.reader(P).objects();
    expect(objects.map((o) => o.object_id).sort()).toEqual(['api.cited']);
  });
});

describe('a message sent during an outage is classified when sent again, once', () => {
  it('502, then 201 with its proposal after recovery, then the same answer without the model', async () => {
    const live = await canonryWithModel({
      CANONRY_MODEL_RETRIES: '0',
      CANONRY_MODEL_COOLDOWN_MS: '0',
    });
    const text = 'The API limit is 100 requests a minute.';
    const body = { text, message_id: 'r-1' };
    live.fake!.enqueue(apiError(500, 'down'));
    const down = await live.post(live.owner, body);
    expect(down.status).toBe(502);
    expect(down.body.error.details.message_id).toBe('r-1');
    const headAfterOutage = await live.runtime.journal.head(P);

    live.fake!.enqueue(classification([draft(text, text)]));
    const back = await live.post(live.owner, body);
    expect(back.status).toBe(201);
    // The same archive entry as during the outage (the project's first), not a second copy.
    expect(back.body.message).toMatchObject({ message_id: 'r-1', seq: 1 });
    expect(back.body.classification).toMatchObject({
      outcome: 'candidate_fact',
      classifier: 'model:openai:fake-llm',
    });
    const [p] = back.body.proposals;
    expect(p.outcome.proposal).toMatchObject({ object_id: 'api.limit', status: 'committed' });
    expect(live.fake!.requests).toHaveLength(2);
    const head = await live.runtime.journal.head(P);
    expect(head.seq).toBeGreaterThan(headAfterOutage.seq);

    // Sent again, even with the model down: the journaled classification, no model call, no write.
    live.fake!.enqueue(apiError(500, 'down again'));
    const again = await live.post(live.owner, body);
    expect(again.status).toBe(201);
    expect(again.body.classification).toEqual(back.body.classification);
    expect(again.body.proposals.map((x: any) => x.outcome.proposal.proposal_id)).toEqual([
      p.outcome.proposal.proposal_id,
    ]);
    expect(live.fake!.requests).toHaveLength(2);
    expect(await live.runtime.journal.head(P)).toEqual(head);
    expect(await journalKeys(live, 'message:r-1')).toBe(1);
    expect(await journalKeys(live, 'classification:r-1')).toBe(1);
    const proposals = await live.runtime.canon.reader(P).proposals();
    expect(proposals.filter((x) => x.message_id === 'r-1')).toHaveLength(1);
  });

  it('concurrent retries of one message: one classification, one proposal', async () => {
    const live = await canonryWithModel({ CANONRY_MODEL_COOLDOWN_MS: '0' });
    const text = 'The quota is 5 projects per team.';
    const body = { text, message_id: 'c-1' };
    live.fake!.enqueue(classification([draft(text, text, {}, 'team.quota')]));
    const answers = await Promise.all(Array.from({ length: 4 }, () => live.post(live.owner, body)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    const ids = new Set(
      answers.flatMap((a) => a.body.proposals.map((x: any) => x.outcome.proposal.proposal_id)),
    );
    expect(ids.size).toBe(1);
    expect(live.fake!.requests).toHaveLength(1);
    expect(await journalKeys(live, 'classification:c-1')).toBe(1);
  });

  it('a message archived without classification (classify=false) is classified when sent again', async () => {
    const live = await canonryWithModel({ CANONRY_MODEL_COOLDOWN_MS: '0' });
    const text = 'The team quota is 7.';
    const body = { text, message_id: 'a-1' };
    const archived = await call(
      live.url,
      'POST',
      `/v1/projects/${P}/messages?classify=false`,
      live.owner,
      body,
    );
    expect(archived.status).toBe(201);
    expect(live.fake!.requests).toHaveLength(0);
    live.fake!.enqueue(classification([draft(text, text, {}, 'team.seats')]));
    const r = await live.post(live.owner, body);
    expect(r.status).toBe(201);
    expect(r.body.proposals).toHaveLength(1);
    expect(live.fake!.requests).toHaveLength(1);
  });
});
