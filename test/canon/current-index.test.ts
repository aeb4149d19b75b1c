// The current canon intake classifies against (LCSM §4), kept by the process between messages
// (`Canon.currentFor`): after every change — creations, updates that rename, supersessions,
// retirements, personal notes of two principals (§14), and writes by another process on the same
// store — it answers as a fresh read of the store does, for each reader; a message's words find the
// notes whose titles hold them; and a message read against it reads only the objects written since
// the last one, not every current object again. On SQLite files and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type CanonObject,
  intake,
  type Principal,
  ScriptedClassifier,
} from '../../src/canon/index.js';
import {
  CANON_ENGINES,
  create,
  type EngineRuntime,
  PROJECT,
  principal,
  update,
} from '../helpers/canon.js';

const CURRENT = ['active', 'provisional', 'disputed'] as const;
const owner = principal('olivia', 'owner');
const ed = principal('eddie', 'editor');
const kim = principal('kim', 'editor');

/** The scenario's own rule for a title word: 4+ letters or digits, lower-cased, no stopword here. */
const wordsOf = (title: string) =>
  (title.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 4);

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`the current canon kept for intake (${engine.name})`, () => {
    let env: EngineRuntime;
    beforeAll(async () => {
      env = await engine.open();
    });
    afterAll(() => env?.close());

    /** What a fresh read of the store gives `who`, and what the kept index gives. */
    async function both(who: Principal) {
      const read = await env.runtime.canon.readerFor(who).objects([...CURRENT]);
      const kept = await env.runtime.canon.currentFor(who);
      return { read, kept };
    }

    async function expectSame(who: Principal, titles: Map<string, string>) {
      const { read, kept } = await both(who);
      const ids = (objects: readonly CanonObject[]) => objects.map((o) => o.object_id);
      expect(ids(kept.all())).toEqual(ids(read));
      expect(kept.all()).toEqual(read);
      expect(kept.size).toBe(read.length);
      for (const o of read) expect(kept.get(o.object_id)).toEqual(o);
      // Every title word the scenario used finds exactly the readable current notes holding it.
      const words = new Set([...titles.values()].flatMap(wordsOf));
      for (const word of words) {
        const expected = read
          .filter((o) => wordsOf(o.title).includes(word))
          .map((o) => o.object_id);
        expect([word, ids(kept.titled(new Set([word])))]).toEqual([word, expected]);
      }
    }

    it('answers as a fresh read of the store after every kind of change, for each reader', async () => {
      const { runtime } = env;
      const titles = new Map<string, string>();
      const made = async (who: Principal, id: string, title: string, extra = {}) => {
        titles.set(id, title);
        await create(runtime, who, id, { title, ...extra });
      };
      const check = async () => {
        for (const who of [owner, ed, kim]) await expectSame(who, titles);
      };
      await check();
      await made(owner, 'idx.alpha', 'Alpha release cadence');
      await made(owner, 'idx.beta', 'Beta release window');
      await made(ed, 'idx.eddie', 'Eddie private cadence', { visibility: 'personal' });
      await made(kim, 'idx.kim', 'Kimberly private window', { visibility: 'personal' });
      await check();
      // A rename: the old title's words no longer find it.
      await update(runtime, owner, 'idx.alpha', { title: 'Gamma deploy cadence' });
      titles.set('idx.alpha', 'Gamma deploy cadence');
      await check();
      // A supersession: the replaced note leaves the current canon.
      const beta = await runtime.canon.reader(PROJECT).current('idx.beta');
      await runtime.canon.propose(owner, {
        object_id: 'idx.delta',
        intent: 'supersede',
        base_version: null,
        candidate: { ...beta!.content, title: 'Delta release window' },
        supersedes: ['idx.beta'],
      });
      titles.set('idx.delta', 'Delta release window');
      await check();
      expect((await runtime.canon.currentFor(owner)).get('idx.beta')).toBeUndefined();
      // A retirement of a personal note by its holder; then writes by another process.
      const eddie = (await runtime.canon.readerFor(ed).current('idx.eddie'))!;
      const retired = await runtime.canon.propose(ed, {
        object_id: 'idx.eddie',
        intent: 'retire',
        base_version: eddie.version_hash,
        candidate: eddie.content,
      });
      expect(retired.proposal.status).toBe('committed');
      await check();
      expect((await runtime.canon.currentFor(ed)).get('idx.eddie')).toBeUndefined();
      const other = await env.another();
      await create(other, owner, 'idx.far', { title: 'Faraway cadence notes' });
      titles.set('idx.far', 'Faraway cadence notes');
      await update(other, owner, 'idx.delta', { title: 'Epsilon release window' });
      titles.set('idx.delta', 'Epsilon release window');
      await check();
    });

    it('reads only the objects written since the last message, not every current object again', async () => {
      const { runtime } = env;
      const classifier = new ScriptedClassifier();
      const inputs = Array.from({ length: 300 }, (_, i) => ({
        object_id: `bulk.n${i}`,
        intent: 'create' as const,
        base_version: null,
        candidate: {
          object_type: 'fact' as const,
          title: `Bulk note ${i} about topic${i % 10}`,
          text: `Bulk fact ${i}.`,
          shape: null,
          confidence_state: 'asserted' as const,
          status: 'active' as const,
          visibility: 'project' as const,
          sources: [],
          dependency_refs: [],
          effective_from: null,
          effective_until: null,
          tags: [],
        },
      }));
      await runtime.canon.proposeBatch(owner, inputs);
      await intake(runtime.canon, classifier, owner, { text: 'We decided to warm up first.' });
      const all = vi.spyOn(runtime.store, 'all');
      const result = await intake(runtime.canon, classifier, owner, {
        text: 'We decided topic3 notes stay as they are.',
      });
      const objectRows = (
        await Promise.all(
          all.mock.calls.map(async ([sql], i) =>
            /FROM canon_objects/.test(sql) && !/object_id (=|IN)/.test(sql)
              ? ((await all.mock.results[i]!.value) as unknown[]).length
              : 0,
          ),
        )
      ).reduce((a, b) => a + b, 0);
      all.mockRestore();
      // The message touches the 30 topic3 notes; it read the few objects the last message wrote.
      expect(result.classification.touched.filter((id) => id.startsWith('bulk.'))).toHaveLength(30);
      expect(objectRows).toBeLessThan(10);
    });
  });
}
