// A message sent again (a client retrying its POST with the same message_id) answers what its first
// intake made, and reads only the proposals on the objects its classification names: not the
// project's every proposal, so a retry costs the same in a project of 40 messages as in one of 80 —
// on both engines.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  archiveMessage,
  type Classifier,
  type IntakeResult,
  intake,
  ScriptedClassifier,
} from '../../src/canon/index.js';
import { CanonryError } from '../../src/core/index.js';
import {
  CANON_ENGINES,
  create,
  type EngineRuntime,
  expectCode,
  principals,
} from '../helpers/canon.js';

/** A classifier that cannot reach its model: each intake journals a failure. */
const DOWN: Classifier = {
  name: 'down',
  classify: async () => {
    throw new CanonryError('MODEL_UNAVAILABLE', 'the model is down');
  },
};

const summary = (r: IntakeResult) =>
  r.proposals.map((p) =>
    p.ok
      ? [p.outcome.proposal.proposal_id, p.outcome.proposal.object_id, p.outcome.proposal.status]
      : [p.code],
  );

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`a message sent again, on ${engine.name}`, () => {
    const { owner } = principals();
    const classifier = new ScriptedClassifier();
    let e: EngineRuntime;

    const send = (id: string, text: string) =>
      intake(e.runtime.canon, classifier, owner, { text, message_id: id });

    async function decided(from: number, to: number) {
      for (let i = from; i < to; i++) {
        // Its only long word its own: a sentence naming a word of an earlier note's title touches it.
        const word = `toolkit${[...String(i).padStart(3, '0')].map((d) => 'abcdefghij'[Number(d)]).join('')}`;
        const r = await send(`m.${i}`, `We decided on ${word}.`);
        expect(r.proposals).toHaveLength(1);
      }
    }

    /** The rows of canon_proposals the store hands over while `work` runs. */
    async function proposalRows<T>(work: () => Promise<T>): Promise<{ value: T; rows: number }> {
      const store = e.runtime.store;
      const all = store.all.bind(store);
      let rows = 0;
      const spy = vi.spyOn(store, 'all').mockImplementation((async (
        sql: string,
        params?: readonly unknown[],
      ) => {
        const out = await all(sql, params as never);
        if (/FROM canon_proposals\b/.test(sql)) rows += out.length;
        return out;
      }) as typeof store.all);
      try {
        return { value: await work(), rows };
      } finally {
        spy.mockRestore();
      }
    }

    beforeAll(async () => {
      e = await engine.open();
      await decided(0, 40);
    }, 240_000);
    afterAll(() => e?.close());

    it('answers the first intake and reads no more as the project grows', async () => {
      const text = 'We decided on zeppelins.';
      const first = await send('m.target', text);
      expect(first.proposals).toHaveLength(1);
      const again = await proposalRows(() => send('m.target', text));
      expect(summary(again.value)).toEqual(summary(first));
      expect(again.value.classification).toEqual(first.classification);
      expect(again.rows).toBeGreaterThan(0);
      expect(again.rows).toBeLessThanOrEqual(2);
      await decided(40, 80);
      const later = await proposalRows(() => send('m.target', text));
      expect(summary(later.value)).toEqual(summary(first));
      expect(later.rows).toBe(again.rows);
    });

    it('classifies a message its first intake could not, without reading the project', async () => {
      const tried: number[] = [];
      for (const [id, text] of [
        ['m.down.1', 'We decided on airships.'],
        ['m.down.2', 'We decided on balloons.'],
      ] as const) {
        await expectCode(
          intake(e.runtime.canon, DOWN, owner, { text, message_id: id }),
          'MODEL_UNAVAILABLE',
        );
        const again = await proposalRows(() => send(id, text));
        expect(again.value.proposals).toHaveLength(1);
        tried.push(again.rows);
        await decided(80 + tried.length * 40, 120 + tried.length * 40);
      }
      // Proposing reads what the one object needs (its pending proposals), not the project's.
      expect(tried[0]).toBeLessThanOrEqual(2);
      expect(tried[1]).toBe(tried[0]);
    });

    it('answers a message taken in before classifications were journaled with its proposals', async () => {
      const text = 'Storage is SQLite.';
      await archiveMessage(e.runtime.canon, owner, { text, message_id: 'm.legacy' });
      const made = await create(
        e.runtime,
        owner,
        'storage.engine',
        { sources: [{ message_id: 'm.legacy', span: [0, text.length], quote: text }] },
        { message_id: 'm.legacy' },
      );
      const again = await send('m.legacy', text);
      expect(summary(again)).toEqual([
        [made.proposal.proposal_id, 'storage.engine', made.proposal.status],
      ]);
      const on = await e.runtime.canon.reader(owner.project).proposalsOn(['storage.engine']);
      expect(on.map((p) => p.proposal_id)).toEqual([made.proposal.proposal_id]);
    });
  });
}
