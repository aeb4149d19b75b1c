// Intake over real HTTP on loopback, on SQLite files and PostgreSQL: a model (a fake
// OpenAI-compatible server on loopback, configured the way an operator does, CANONRY_MODEL_*) goes
// down → 502 naming the message → GET /unclassified lists it with its journaled failure → the model
// is back → POST /messages/{id}/classify (the id percent-encoded) makes its proposals, once. Without
// any configuration a decision proposes; classifier subjects set over HTTP are journaled and survive
// a rebuild; restore takes a version number; message ids take `# / : @`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import { rebuildProject } from '../../src/journal/index.js';
import {
  completion,
  type FakeOpenAI,
  startFakeOpenAI,
} from '../fixtures/models/fake-openai-server.js';
import { CANON_ENGINES, type EngineRuntime } from '../helpers/canon.js';
import { decisionAnswer } from '../helpers/model-answers.js';
import { type ServedCanon, serveCanon } from '../helpers/serve-canon.js';

const P = 'intake';
const KEY = 'sk-intake-SECRET-9a8b7c6d5e4f';
const ODD_ID = 'slack:C01/p#12@x';

interface Served extends ServedCanon<'olivia' | 'eddie' | 'bot' | 'val'> {
  readonly runtime: CanonryRuntime;
}

async function serve(open: () => Promise<EngineRuntime>): Promise<Served> {
  const served = await serveCanon(open, P, {
    olivia: 'owner',
    eddie: 'editor',
    bot: 'agent',
    val: 'viewer',
  });
  return { ...served, runtime: served.env.runtime };
}

/** A runtime opened while CANONRY_MODEL_* name the fake model (the environment is restored after). */
async function withModelEnv<T>(env: Record<string, string>, open: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await open();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** The fake model's answer for `text`: the whole message as one decision. */
function decision(text: string, id: string) {
  return completion(decisionAnswer(text, id));
}

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`intake over HTTP (${engine.name})`, () => {
    let plain: Served;
    let modelled: Served;
    let fake: FakeOpenAI;
    beforeAll(async () => {
      fake = await startFakeOpenAI();
      plain = await serve(() => engine.open());
      modelled = await withModelEnv(
        {
          CANONRY_MODEL_URL: fake.baseURL,
          CANONRY_MODEL: 'fake-llm',
          CANONRY_MODEL_KEY: KEY,
          CANONRY_MODEL_RETRIES: '0',
          CANONRY_MODEL_COOLDOWN_MS: '0',
          CANONRY_MODEL_TIMEOUT_MS: '2000',
        },
        () => serve(() => engine.open()),
      );
    });
    afterAll(async () => {
      await plain?.close();
      await modelled?.close();
      await fake?.close();
    });

    it('model down → 502 → listed with its failure → model back → classified once', async () => {
      const s = modelled;
      const text = 'We decided to release on Tuesdays.';
      const encoded = encodeURIComponent(ODD_ID);
      fake.enqueue({ kind: 'drop' });
      const down = await s.api('POST', '/messages', s.t.olivia, { text, message_id: ODD_ID });
      expect(down.status).toBe(502);
      expect(down.body.error).toMatchObject({
        code: 'MODEL_UNAVAILABLE',
        details: { message_id: ODD_ID },
      });

      const listed = await s.api('GET', '/unclassified', s.t.olivia);
      expect(listed.status).toBe(200);
      expect(listed.body.messages).toHaveLength(1);
      expect(listed.body.messages[0]).toMatchObject({
        message: { message_id: ODD_ID, text },
        failure: { code: 'MODEL_UNAVAILABLE', attempts: 1, classifier: 'model:openai:fake-llm' },
      });
      expect(JSON.stringify(listed.body)).not.toContain(KEY);
      // Everyone of the project reads a shared message's failure; nobody outside the project.
      expect((await s.api('GET', '/unclassified', s.t.val)).body.messages).toHaveLength(1);

      // Only its speaker classifies it again; the id travels percent-encoded.
      const other = await s.api('POST', `/messages/${encoded}/classify`, s.t.eddie);
      expect([other.status, other.body.error.code]).toEqual([403, 'FORBIDDEN']);
      const unknown = await s.api('POST', '/messages/nope/classify', s.t.olivia);
      expect([unknown.status, unknown.body.error.code]).toEqual([404, 'UNKNOWN_MESSAGE']);
      const bad = await s.api(
        'POST',
        `/messages/${encodeURIComponent('a b')}/classify`,
        s.t.olivia,
      );
      expect([bad.status, bad.body.error.code]).toEqual([400, 'INVALID_ARGUMENT']);

      fake.enqueue(decision(text, 'release.day'));
      const back = await s.api('POST', `/messages/${encoded}/classify`, s.t.olivia);
      expect(back.status, JSON.stringify(back.body)).toBe(200);
      expect(back.body.proposals).toHaveLength(1);
      expect(back.body.proposals[0]).toMatchObject({
        ok: true,
        outcome: { proposal: { object_id: 'release.day', status: 'committed' } },
      });
      expect((await s.api('GET', '/unclassified', s.t.olivia)).body.messages).toEqual([]);
      const got = await s.api('GET', `/messages/${encoded}`, s.t.val);
      expect([got.status, got.body.message_id]).toEqual([200, ODD_ID]);

      // Again, and the message re-sent: its first intake, no model call, nothing written.
      const asked = fake.requests.length;
      const head = await s.runtime.journal.head(P);
      const again = await s.api('POST', `/messages/${encoded}/classify`, s.t.olivia);
      const resent = await s.api('POST', '/messages', s.t.olivia, { text, message_id: ODD_ID });
      expect([again.status, resent.status]).toEqual([200, 201]);
      for (const r of [again, resent]) {
        expect(r.body.proposals.map((p: any) => p.outcome.proposal.proposal_id)).toEqual(
          back.body.proposals.map((p: any) => p.outcome.proposal.proposal_id),
        );
      }
      expect(fake.requests.length).toBe(asked);
      expect(await s.runtime.journal.head(P)).toEqual(head);
    });

    it('first run: a decision proposes with no configuration; the CLI-free answer names it', async () => {
      const s = plain;
      const r = await s.api('POST', '/messages', s.t.olivia, {
        text: 'We decided to ship on Fridays.',
      });
      expect(r.status).toBe(201);
      expect(r.body.classification).toMatchObject({
        outcome: 'proposed_decision',
        touched: ['decision.ship-on-fridays'],
      });
      expect(r.body.proposals[0]).toMatchObject({
        ok: true,
        outcome: {
          proposal: { object_id: 'decision.ship-on-fridays', status: 'committed' },
          committed: { version_id: 1 },
        },
      });
      expect(r.body.hint).toBeUndefined();
      // A fact needs a subject: the answer says what to configure.
      const fact = await s.api('POST', '/messages', s.t.olivia, {
        text: 'According to the review, the build takes 4 minutes.',
      });
      expect([fact.status, fact.body.proposals]).toEqual([201, []]);
      expect(fact.body.hint).toContain('POST /v1/projects/{project}/classifier/subjects');
      const board = await s.api('GET', '/objects/decision.ship-on-fridays', s.t.val);
      expect(board.body.object).toMatchObject({ object_type: 'decision', status: 'active' });
      const view = await s.api('GET', '/classifier', s.t.eddie);
      expect(view.body).toEqual({
        kind: 'scripted',
        model: null,
        subjects: 0,
        source: 'default',
        seq: null,
        config: { subjects: {} },
      });
      const modelView = await modelled.api('GET', '/classifier', modelled.t.olivia);
      expect(modelView.body).toMatchObject({ kind: 'model', model: 'fake-llm' });
      expect(JSON.stringify(modelView.body)).not.toContain(KEY);
    });

    it('subjects over HTTP: editors only, validated, journaled, used, and rebuilt from the journal', async () => {
      const s = plain;
      const subjects = {
        subjects: {
          'ui.colour': {
            title: 'Interface colour',
            object_type: 'preference',
            keywords: ['red', 'blue', 'colour'],
            tags: ['identity'],
          },
        },
      };
      for (const who of [s.t.bot, s.t.val]) {
        const r = await s.api('POST', '/classifier/subjects', who, subjects);
        expect([r.status, r.body.error.code]).toEqual([403, 'FORBIDDEN']);
        expect((await s.api('GET', '/classifier', who)).status).toBe(403);
      }
      for (const bad of [
        { subjects: { 'UI Colour': subjects.subjects['ui.colour'] } },
        { subjects: { 'ui.colour': { title: 'x', object_type: 'colour', keywords: [] } } },
        { subjects: {}, extra: true },
        'not json',
      ]) {
        const r = await s.api('POST', '/classifier/subjects', s.t.eddie, bad);
        expect(r.status, JSON.stringify(bad)).toBe(400);
        expect(['INVALID_BODY', 'MALFORMED_BODY']).toContain(r.body.error.code);
      }
      const head = await s.runtime.journal.head(P);
      const set = await s.api('POST', '/classifier/subjects', s.t.eddie, subjects);
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({ kind: 'scripted', subjects: 1, source: 'api' });
      expect(set.body.seq).toBe(head.seq + 1);
      const [entry] = await s.runtime.journal.read(P, { after: head.seq, limit: 1 });
      expect(entry).toMatchObject({
        kind: 'canon.classifier',
        actor: 'eddie',
        body: { config: subjects, source: 'api', by: { id: 'eddie', role: 'editor' } },
      });
      const said = await s.api('POST', '/messages', s.t.olivia, {
        text: 'I would like a blue colour for the app.',
      });
      expect(said.body.proposals[0]).toMatchObject({
        ok: true,
        outcome: { proposal: { object_id: 'ui.colour', candidate: { tags: ['identity'] } } },
      });

      const before = await s.api('GET', '/classifier', s.t.olivia);
      await s.runtime.store.run('DELETE FROM canon_classifier WHERE project = $1', [P]);
      await rebuildProject(s.runtime.journal, P);
      const after = await s.api('GET', '/classifier', s.t.olivia);
      expect(after.body).toEqual(before.body);

      const gone = await s.api('DELETE', '/classifier/subjects/ui.colour', s.t.olivia);
      expect(gone.body).toMatchObject({ subjects: 0, source: 'api' });
      const missing = await s.api('DELETE', '/classifier/subjects/ui.colour', s.t.olivia);
      expect([missing.status, missing.body.error.code]).toEqual([404, 'UNKNOWN_SUBJECT']);
    });

    it('restore by version number or hash, exactly one; bad numbers are 400', async () => {
      const s = plain;
      const make = (text: string, base: string | null, intent: string) =>
        s.api('POST', '/proposals', s.t.olivia, {
          object_id: 'api.limit',
          intent,
          base_version: base,
          candidate: { object_type: 'fact', title: 'API limit', text },
        });
      const v1 = await make('The API limit is 100.', null, 'create');
      const v2 = await make('The API limit is 200.', v1.body.committed.version_hash, 'update');
      await make('The API limit is 300.', v2.body.committed.version_hash, 'update');
      for (const body of [
        {},
        { version: 1, version_hash: v1.body.committed.version_hash },
        { version: 0 },
        { version: 1.5 },
        { version: '1' },
        { version: -2 },
      ]) {
        const r = await s.api('POST', '/objects/api.limit/restore', s.t.olivia, body);
        expect([r.status, r.body.error.code], JSON.stringify(body)).toEqual([400, 'INVALID_BODY']);
      }
      const none = await s.api('POST', '/objects/api.limit/restore', s.t.olivia, { version: 7 });
      expect([none.status, none.body.error.code]).toEqual([404, 'UNKNOWN_VERSION']);
      const back = await s.api('POST', '/objects/api.limit/restore', s.t.olivia, { version: 1 });
      expect(back.status).toBe(201);
      expect(back.body.committed).toMatchObject({
        version_id: 4,
        content: { text: 'The API limit is 100.' },
      });
      expect(back.body.proposal.restore_version).toBe(v1.body.committed.version_hash);
      const byHash = await s.api('POST', '/objects/api.limit/restore', s.t.olivia, {
        version_hash: v2.body.committed.version_hash,
      });
      expect(byHash.body.committed).toMatchObject({ version_id: 5 });
    });
  });
}
