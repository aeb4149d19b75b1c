// An intake the store failed under part way (LCSM §4): it stops at the draft the store failed on —
// the drafts after it are not tried, each waiting out the same outage — and sending the message
// again resumes it: the drafts without a proposal are proposed, once each, and the intake recorded.
// Two intakes proposing the same draft (a resume and a slow first intake, in two processes) make
// one proposal: the second is refused in its transaction and reads the first back. On SQLite files
// and PostgreSQL, through ModelClassifier over a ScriptedModel, the agent speaking (its drafts are
// suggestions: pending, so nothing but the draft rule refuses a second proposal).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type IntakeResult, intake, ModelClassifier } from '../../src/canon/index.js';
import { CanonryError } from '../../src/core/index.js';
import { ScriptedModel } from '../../src/models/index.js';
import {
  CANON_ENGINES,
  type EngineRuntime,
  expectCode,
  PROJECT,
  principals,
} from '../helpers/canon.js';
import { draftsAnswer } from '../helpers/model-answers.js';

/** A classifier that drafts `ids` for any message, counting its calls. */
function classifier(ids: readonly string[], state: { calls: number }) {
  return new ModelClassifier(
    new ScriptedModel(
      [
        {
          match: /./,
          respond: (request) => {
            state.calls++;
            const user = request.messages.at(-1)!.content;
            const text = (JSON.parse(user) as { message: { text: string } }).message.text;
            return draftsAnswer(
              text,
              ids.map((id, i) => ({ id, title: `Decision ${i}`, text: `${text} (${i})` })),
              { confidence: 'inferred', status: 'provisional' },
            );
          },
        },
      ],
      'scripted',
    ),
  );
}

const down = () => new CanonryError('STORE_UNAVAILABLE', 'the database is unreachable');
/** A lock not granted within its bound: the next draft would wait it out again. */
const busy = () => new CanonryError('STORE_BUSY', 'the database is busy');
const proposedIds = (r: IntakeResult) =>
  r.proposals.map((p) => (p.ok ? p.outcome.proposal.object_id : `${p.object_id}:${p.code}`));

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`an intake the store failed under (${engine.name})`, () => {
    let env: EngineRuntime;
    beforeAll(async () => {
      env = await engine.open();
    });
    afterAll(() => env?.close());
    afterEach(() => {
      vi.restoreAllMocks();
    });
    const { agent } = principals();

    const fromMessage = async (id: string) =>
      (await env.runtime.canon.reader(PROJECT).proposals()).filter((p) => p.message_id === id);
    const intakeRecord = (id: string) => env.runtime.journal.entryByKey(PROJECT, `intake:${id}`);

    it('stops at the draft the store failed on, and a retry proposes the rest once each', async () => {
      const { runtime } = env;
      const ids = ['resume.a', 'resume.b', 'resume.c'];
      const state = { calls: 0 };
      const text = 'We decided to resume the three releases.';
      const propose = runtime.canon.propose.bind(runtime.canon);
      let tried = 0;
      vi.spyOn(runtime.canon, 'propose').mockImplementation((...args) => {
        tried++;
        return tried === 2 ? Promise.reject(down()) : propose(...args);
      });
      const stopped = await expectCode(
        intake(runtime.canon, classifier(ids, state), agent, { text, message_id: 'res-1' }),
        'STORE_UNAVAILABLE',
      );
      // The answer names the message, so a client that let the server choose its id can finish it.
      expect(stopped.details).toEqual({ message_id: 'res-1' });
      expect(stopped.message).toContain('send it again with the same message_id');
      // The third draft was not tried, and no intake was recorded: the message is not done.
      expect(tried).toBe(2);
      expect((await fromMessage('res-1')).map((p) => p.object_id)).toEqual(['resume.a']);
      expect(await intakeRecord('res-1')).toBeNull();
      vi.restoreAllMocks();

      const retry = await intake(runtime.canon, classifier(ids, state), agent, {
        text,
        message_id: 'res-1',
      });
      expect(proposedIds(retry)).toEqual(ids);
      const made = await fromMessage('res-1');
      expect(made.map((p) => p.object_id)).toEqual(ids);
      expect(made.map((p) => p.status)).toEqual(['pending', 'pending', 'pending']);
      expect(retry.proposals.map((p) => p.ok && p.outcome.proposal.proposal_id)).toEqual(
        made.map((p) => p.proposal_id),
      );
      // Classified once; the record names the three proposals; sending it again changes nothing.
      expect(state.calls).toBe(1);
      const record = await intakeRecord('res-1');
      expect(record?.body).toEqual({
        message_id: 'res-1',
        proposals: made.map((p) => ({ ok: true, proposal_id: p.proposal_id })),
      });
      const head = await runtime.journal.head(PROJECT);
      const again = await intake(runtime.canon, classifier(ids, state), agent, {
        text,
        message_id: 'res-1',
      });
      expect(proposedIds(again)).toEqual(ids);
      expect(await runtime.journal.head(PROJECT)).toEqual(head);
    });

    it('a draft another process proposed meanwhile is refused in the transaction and read back', async () => {
      const { runtime } = env;
      const other = await env.another();
      const ids = ['race.a', 'race.b', 'race.c'];
      const state = { calls: 0 };
      const text = 'We decided to race the three releases.';
      const propose = runtime.canon.propose.bind(runtime.canon);
      let tried = 0;
      vi.spyOn(runtime.canon, 'propose').mockImplementation((...args) => {
        tried++;
        return tried === 1 ? Promise.reject(busy()) : propose(...args);
      });
      await expectCode(
        intake(runtime.canon, classifier(ids, state), agent, { text, message_id: 'res-2' }),
        'STORE_BUSY',
      );
      expect(tried).toBe(1);
      expect(await fromMessage('res-2')).toEqual([]);
      // The resume's second draft: another process proposes it first, as its own intake would.
      let theirs: string | null = null;
      vi.spyOn(runtime.canon, 'propose').mockImplementation(async (...args) => {
        if (args[1].object_id === 'race.b') {
          theirs = (await other.canon.propose(...args)).proposal.proposal_id;
        }
        return propose(...args);
      });
      const retry = await intake(runtime.canon, classifier(ids, state), agent, {
        text,
        message_id: 'res-2',
      });
      const made = await fromMessage('res-2');
      expect(made.map((p) => p.object_id).sort()).toEqual(ids);
      expect(theirs).not.toBeNull();
      expect(made.find((p) => p.object_id === 'race.b')?.proposal_id).toBe(theirs);
      expect(proposedIds(retry)).toEqual(ids);
      expect(retry.proposals[1]).toMatchObject({
        ok: true,
        outcome: { proposal: { proposal_id: theirs } },
      });

      // The same draft proposed directly a second time: refused, naming the proposal it has.
      const err = await expectCode(
        other.canon.propose(
          agent,
          {
            object_id: 'race.c',
            intent: 'create',
            base_version: null,
            candidate: made.find((p) => p.object_id === 'race.c')!.candidate,
            message_id: 'res-2',
          },
          { draft: true },
        ),
        'CONFLICT',
      );
      expect(err.details).toMatchObject({
        message_id: 'res-2',
        object_id: 'race.c',
        proposal_id: made.find((p) => p.object_id === 'race.c')!.proposal_id,
      });
      expect(await fromMessage('res-2')).toHaveLength(3);
    });
  });
}
