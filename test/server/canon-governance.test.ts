// Proposal governance over real HTTP on loopback, for each storage engine: a proposal citing a
// hedged message is flagged suggestion → directive through POST /proposals; `intent` is required; an
// approval retried after STALE_APPROVAL does not commit until it names the new base, which the
// proposal view shows with what it would now overwrite; a stale create is closed; a tool token,
// issued over the API, reports and corrects its own facts but never approves; closed proposals show
// who was required and who approved, and nothing pending.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import { CANON_ENGINES } from '../helpers/canon.js';
import { type ServedCanon, serveCanon } from '../helpers/serve-canon.js';

const P = 'gov';

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`proposal governance over HTTP on ${engine.name}`, () => {
    let served: ServedCanon<'alice' | 'bob' | 'assistant' | 'val'>;
    let runtime: CanonryRuntime;
    let t: typeof served.t;
    let n = 0;
    const fresh = (prefix: string) => `${prefix}.${++n}`;

    beforeAll(async () => {
      served = await serveCanon(engine.open, P, {
        alice: 'owner',
        bob: 'editor',
        assistant: 'agent',
        val: 'viewer',
      });
      ({ t } = served);
      runtime = served.env.runtime;
    });
    afterAll(async () => served?.close());

    const api = (method: string, path: string, token: string | null, body?: unknown) =>
      served.api(method, path, token, body);
    const head = async () => (await runtime.journal.head(P))?.seq ?? 0;

    /** Archives `text` (no classification) and returns a source quoting `quote`. */
    const said = async (token: string, text: string, quote = text) => {
      const r = await api('POST', '/messages?classify=false', token, { text });
      expect(r.status).toBe(201);
      const id = r.body.message.message_id as string;
      const start = text.indexOf(quote);
      return { id, source: { message_id: id, span: [start, start + quote.length], quote } };
    };
    const propose = (token: string, body: unknown) => api('POST', '/proposals', token, body);
    const createBody = (object_id: string, candidate: Record<string, unknown>, extra = {}) => ({
      object_id,
      intent: 'create',
      base_version: null,
      candidate: { object_type: 'fact', title: 'A note', ...candidate },
      ...extra,
    });

    it('POST /proposals citing a hedged message: suggestion → directive, held for confirmation', async () => {
      const hedged = await said(t.alice, 'Maybe we could deploy on Fridays?', 'deploy on Fridays');
      const r = await propose(
        t.assistant,
        createBody(fresh('deploy'), {
          text: 'Deploys must happen on Fridays.',
          sources: [hedged.source],
        }),
      );
      expect(r.status).toBe(201);
      const check = r.body.proposal.comparison.checks.suggestion_to_directive;
      expect(check).toMatchObject({ result: true, items: [`${hedged.id}[0:33]: "maybe"`] });
      expect(r.body.proposal).toMatchObject({ status: 'pending', required_role: 'editor' });
      expect(r.body.proposal.gate.label).toBe('REQUIRE_CONFIRMATION');
      expect(r.body.committed).toBeNull();

      const plain = await said(t.alice, 'We deploy on Fridays.', 'deploy on Fridays');
      const ok = await propose(
        t.assistant,
        createBody(fresh('deploy'), {
          text: 'Deploys must happen on Fridays.',
          sources: [plain.source],
        }),
      );
      expect(ok.status).toBe(201);
      expect(ok.body.proposal.comparison.checks.suggestion_to_directive.result).toBe(false);
      expect(ok.body.proposal.status).toBe('committed');

      // Citing the message by id: a decision from "what if …" is flagged, shown in the view.
      const asked = await said(t.alice, 'What if we ship on Fridays?');
      const d = await propose(
        t.bob,
        createBody(
          fresh('ship'),
          { object_type: 'decision', text: 'We ship on Fridays.' },
          { message_id: asked.id },
        ),
      );
      expect(d.status).toBe(201);
      const view = await api('GET', `/proposals/${d.body.proposal.proposal_id}`, t.val);
      expect(view.body.checks.suggestion_to_directive).toMatchObject({
        result: true,
        items: [`${asked.id}[0:27]: "what if"`],
      });
    });

    it('intent is required: 400 INVALID_PROPOSAL, nothing written', async () => {
      const before = await head();
      const body = createBody(fresh('noint'), { text: 'No intent.' }) as Record<string, unknown>;
      delete body.intent;
      const r = await propose(t.alice, body);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({
        code: 'INVALID_PROPOSAL',
        details: { field: 'intent' },
      });
      const wrong = await propose(t.alice, { ...body, intent: 'upsert' });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error.code).toBe('INVALID_PROPOSAL');
      expect(await head()).toBe(before);
    });

    it('an approval retried after STALE_APPROVAL does not commit; one naming the new base does', async () => {
      const id = fresh('train');
      const made = await propose(t.alice, createBody(id, { text: 'The release train is weekly.' }));
      const v1 = made.body.committed.version_hash;
      const held = await propose(t.assistant, {
        object_id: id,
        intent: 'update',
        base_version: v1,
        candidate: {
          object_type: 'fact',
          title: 'A note',
          text: 'The release train is weekly. Hotfixes ship daily.',
        },
      });
      const pid = held.body.proposal.proposal_id;
      expect(held.body.proposal.status).toBe('pending');
      const moved = await propose(t.alice, {
        object_id: id,
        intent: 'update',
        base_version: v1,
        candidate: { object_type: 'fact', title: 'A note', text: 'The release train is biweekly.' },
      });
      const v2 = moved.body.committed.version_hash;

      const stale = await api('POST', `/proposals/${pid}/approve`, t.bob, {});
      expect(stale.status).toBe(409);
      expect(stale.body.error).toMatchObject({
        code: 'STALE_APPROVAL',
        details: { proposal_id: pid, closed: false, approval_requires_base: v2 },
      });

      const view = await api('GET', `/proposals/${pid}`, t.bob);
      expect(view.body).toMatchObject({
        status: 'pending',
        required_role: 'editor',
        approval_requires_base: v2,
        base_version: v2,
        current_version_now: v2,
        stale: false,
      });
      // What it would now overwrite, compared again.
      expect(view.body.current).toMatchObject({ version_hash: v2 });
      expect(view.body.current.content.text).toBe('The release train is biweekly.');
      expect(view.body.checks.information_removed.items).toEqual([
        'the release train is biweekly.',
      ]);

      const before = await head();
      for (const body of [{}, undefined, { base_version: v1 }, { base_version: null }]) {
        const again = await api('POST', `/proposals/${pid}/approve`, t.bob, body);
        expect(again.status).toBe(409);
        expect(again.body.error).toMatchObject({
          code: 'BASE_NOT_ACKNOWLEDGED',
          details: { approval_requires_base: v2 },
        });
      }
      const bad = await api('POST', `/proposals/${pid}/approve`, t.bob, { base_version: 'v2' });
      expect([bad.status, bad.body.error.code]).toEqual([400, 'INVALID_BODY']);
      const object = await api('GET', `/objects/${id}`, t.val);
      expect(object.body.current.version_hash).toBe(v2);
      expect(await head()).toBe(before);

      const done = await api('POST', `/proposals/${pid}/approve`, t.bob, { base_version: v2 });
      expect(done.status).toBe(200);
      expect(done.body.committed).toMatchObject({ version_id: 3, parent_version_hash: v2 });
      const after = await api('GET', `/proposals/${pid}`, t.val);
      expect(after.body).toMatchObject({
        status: 'committed',
        required_role: null,
        approval_role: 'editor',
        approved_by: { id: 'bob', role: 'editor' },
        approval_requires_base: null,
      });
      const listed = await api('GET', '/proposals?status=committed', t.val);
      const mine = listed.body.proposals.find((p: any) => p.proposal_id === pid);
      expect(mine).toMatchObject({ required_role: null, approval_role: 'editor' });
    });

    it('a stale create whose object now exists is closed: 409, never version 2', async () => {
      const id = fresh('staging');
      const held = await propose(
        t.assistant,
        createBody(id, { object_type: 'decision', text: 'Staging mirrors production.' }),
      );
      const pid = held.body.proposal.proposal_id;
      await propose(t.alice, createBody(id, { text: 'Staging is a smaller copy.' }));
      const stale = await api('POST', `/proposals/${pid}/approve`, t.bob);
      expect(stale.status).toBe(409);
      expect(stale.body.error).toMatchObject({ code: 'STALE_APPROVAL', details: { closed: true } });
      const view = await api('GET', `/proposals/${pid}`, t.val);
      expect(view.body).toMatchObject({
        status: 'rejected',
        required_role: null,
        approved_by: null,
      });
      expect(view.body.reason).toMatch(/^conflict:/);
      const retry = await api('POST', `/proposals/${pid}/approve`, t.alice, {});
      expect([retry.status, retry.body.error.code]).toEqual([409, 'PROPOSAL_CLOSED']);
      const object = await api('GET', `/objects/${id}`, t.val);
      expect(object.body).toMatchObject({ versions: 1, current: { version_id: 1 } });
    });

    it('a tool token: issued over the API, its observations commit, it never approves', async () => {
      const issued = await api('POST', '/tokens', t.alice, {
        principal: 'ci-runner',
        role: 'tool',
      });
      expect(issued.status).toBe(201);
      expect(issued.body.info).toMatchObject({ principal: 'ci-runner', role: 'tool' });
      const tool = issued.body.token as string;

      const run = await api('POST', '/messages?classify=false', tool, {
        text: 'CI run 41: 412 tests passed.',
      });
      expect(run.body.message).toMatchObject({ role: 'tool', actor_role: 'tool' });
      const asUser = await api('POST', '/messages', tool, { text: 'Ship it.', role: 'user' });
      expect([asUser.status, asUser.body.error.code]).toEqual([400, 'AUTHORITY_FROM_PAYLOAD']);

      const id = fresh('tests');
      const quote = '412 tests passed';
      const made = await propose(
        tool,
        createBody(id, {
          text: '412 tests pass.',
          confidence_state: 'sourced',
          sources: [{ message_id: run.body.message.message_id, span: [11, 27], quote }],
        }),
      );
      expect(made.status).toBe(201);
      expect(made.body.proposal.status).toBe('committed');

      const other = fresh('latency');
      const theirs = await propose(
        t.alice,
        createBody(other, { text: 'The API answers in 200 ms.' }),
      );
      const correction = await propose(tool, {
        object_id: other,
        intent: 'update',
        base_version: theirs.body.committed.version_hash,
        candidate: { object_type: 'fact', title: 'A note', text: 'The API answers in 480 ms.' },
      });
      expect(correction.body.proposal).toMatchObject({
        status: 'pending',
        required_role: 'editor',
      });
      const approve = await api(
        'POST',
        `/proposals/${correction.body.proposal.proposal_id}/approve`,
        tool,
        {},
      );
      expect([approve.status, approve.body.error.code]).toEqual([403, 'FORBIDDEN']);
    });
  });
}
