// A page of unclassified messages is chosen in SQL from the messages the projection marks
// unclassified, in capture order, by who may read them: the project's classified messages and
// another principal's personal unclassified ones are never read into the process — on both engines.
// A store made before the mark existed is given it, filled from its intake states and proposals,
// when this code opens it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  archiveMessage,
  type Classifier,
  intake,
  type Principal,
  ScriptedClassifier,
  type UnclassifiedPageQuery,
} from '../../src/canon/index.js';
import { unclassifiedPageSql } from '../../src/canon/page.js';
import { CanonryError } from '../../src/core/index.js';
import {
  CANON_ENGINES,
  create,
  type EngineRuntime,
  expectCode,
  PROJECT,
  principals,
} from '../helpers/canon.js';
import { counting, expectIndexedReads } from '../helpers/page-bound.js';

/** What the scenario archived: its seq, who alone may read it (null: the project), and whether it was ever classified. */
interface Made {
  readonly id: string;
  readonly seq: number;
  readonly holder: string | null;
  readonly unclassified: boolean;
}

/** What a page shows a viewer (null: the operator), from the scenario alone, in capture order. */
function expected(made: readonly Made[], viewer: string | null, q: UnclassifiedPageQuery) {
  return made
    .filter((m) => m.unclassified)
    .filter((m) => viewer === null || m.holder === null || m.holder === viewer)
    .filter((m) => q.after === undefined || m.seq > q.after)
    .sort((a, b) => a.seq - b.seq)
    .slice(0, q.limit)
    .map((m) => m.id);
}

/** A classifier that cannot reach its model: each intake journals a failure. */
const DOWN: Classifier = {
  name: 'down',
  classify: async () => {
    throw new CanonryError('MODEL_UNAVAILABLE', 'the model is down');
  },
};

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(
    `a page of unclassified messages, bounded, on ${engine.name}`,
    () => {
      const who = principals();
      const made: Made[] = [];
      const classifier = new ScriptedClassifier();
      let e: EngineRuntime;

      /** Archived and classified (no draft: small talk). */
      async function classified(p: Principal, id: string, personal = false) {
        const r = await intake(e.runtime.canon, classifier, p, {
          text: `hello there, ${id}`,
          message_id: id,
          ...(personal ? { visibility: 'personal' as const } : {}),
        });
        expect(r.classification.drafts).toEqual([]);
        made.push({ id, seq: r.message.seq, holder: personal ? p.id : null, unclassified: false });
      }

      /** Archived only (classify=false), or tried while the model was down. */
      async function unclassified(p: Principal, id: string, personal: boolean, tried: boolean) {
        const input = {
          text: `We decided something about ${id}.`,
          message_id: id,
          visibility: personal ? ('personal' as const) : ('project' as const),
        };
        if (tried) await expectCode(intake(e.runtime.canon, DOWN, p, input), 'MODEL_UNAVAILABLE');
        const m = await archiveMessage(e.runtime.canon, p, input);
        made.push({ id, seq: m.seq, holder: personal ? p.id : null, unclassified: true });
      }

      beforeAll(async () => {
        e = await engine.open();
        await unclassified(who.owner, 'u.first', false, false);
        for (let i = 0; i < 40; i++) await classified(who.owner, `c.${i}`);
        await unclassified(who.owner, 'u.down', false, true);
        for (let i = 0; i < 40; i++) await unclassified(who.editor, `e.${i}`, true, false);
        for (let i = 0; i < 20; i++) await classified(who.editor, `ec.${i}`, true);
        await unclassified(who.owner, 'u.mine', true, true);
        // Cited by a proposal, never classified: taken in before classifications were journaled.
        const cited = await archiveMessage(e.runtime.canon, who.owner, {
          text: 'Storage is SQLite.',
          message_id: 'u.cited',
        });
        const outcome = await create(
          e.runtime,
          who.owner,
          'storage.engine',
          {
            sources: [{ message_id: 'u.cited', span: [0, 18], quote: 'Storage is SQLite.' }],
          },
          { message_id: 'u.cited' },
        );
        expect(outcome.proposal.message_id).toBe('u.cited');
        made.push({ id: 'u.cited', seq: cited.seq, holder: null, unclassified: false });
        for (let i = 0; i < 30; i++) await classified(who.owner, `d.${i}`);
        await unclassified(who.viewer, 'u.last', false, false);
      }, 240_000);
      afterAll(() => e?.close());

      const seqOf = (id: string) => made.find((m) => m.id === id)!.seq;
      const QUERIES = (): UnclassifiedPageQuery[] => [
        { limit: 1 },
        { limit: 2 },
        { limit: 3, after: seqOf('u.first') },
        { limit: 2, after: seqOf('u.down') },
        { limit: 5, after: seqOf('e.3') },
        { limit: 10 },
      ];

      it('the owner reads a page with at most its limit of rows, each with its failure', async () => {
        for (const q of QUERIES()) {
          const { db, seen } = counting(e.runtime.store);
          const page = await e.runtime.canon.readerFor(who.owner, db).unclassifiedPage(q);
          expect(page.map((u) => u.message.message_id)).toEqual(expected(made, who.owner.id, q));
          expect(seen.from('canon_messages')).toBeLessThanOrEqual(q.limit);
          expect(seen.rows).toBeLessThanOrEqual(2 * q.limit);
          for (const u of page) {
            const tried = u.message.message_id === 'u.down' || u.message.message_id === 'u.mine';
            expect(u.failure?.code ?? null).toBe(tried ? 'MODEL_UNAVAILABLE' : null);
          }
        }
      });

      it('the operator reads a page with at most its limit of rows', async () => {
        for (const q of QUERIES()) {
          const { db, seen } = counting(e.runtime.store);
          const page = await e.runtime.canon.reader(PROJECT, db).unclassifiedPage(q);
          expect(page.map((u) => u.message.message_id)).toEqual(expected(made, null, q));
          expect(seen.from('canon_messages')).toBeLessThanOrEqual(q.limit);
        }
      });

      it.runIf(engine.name === 'sqlite')(
        "reads each page's ranges from a partial index of the unclassified, never the archive",
        async () => {
          for (const q of QUERIES()) {
            for (const viewer of [who.owner.id, null]) {
              const { sql, params } = unclassifiedPageSql(q, viewer);
              const range =
                viewer !== null
                  ? 'canon_messages_unclassified_holder (project=? AND holder=?'
                  : 'canon_messages_unclassified (project=?';
              await expectIndexedReads(
                e.runtime.store,
                'canon_messages',
                sql,
                [PROJECT, ...params],
                range,
              );
            }
          }
        },
      );

      it('the editor reads its own personal ones among the project ones, each once, a page at a time', async () => {
        const all: string[] = [];
        let after: number | undefined;
        for (let n = 0; n < 100; n++) {
          const { db, seen } = counting(e.runtime.store);
          const page = await e.runtime.canon.readerFor(who.editor, db).unclassifiedPage({
            limit: 7,
            ...(after === undefined ? {} : { after }),
          });
          expect(seen.from('canon_messages')).toBeLessThanOrEqual(7);
          all.push(...page.map((u) => u.message.message_id));
          if (page.length < 7) break;
          after = page.at(-1)?.message.seq;
        }
        expect(all).toEqual(expected(made, who.editor.id, { limit: made.length }));
        expect(new Set(all).size).toBe(all.length);
        expect(all).not.toContain('u.mine');
        expect(all).toContain('e.39');
      });

      it('a message classified later leaves the pages', async () => {
        const before = await e.runtime.canon
          .readerFor(who.viewer)
          .unclassifiedPage({ limit: 1000 });
        expect(before.map((u) => u.message.message_id)).toContain('u.last');
        await intake(e.runtime.canon, classifier, who.viewer, {
          text: 'We decided something about u.last.',
          message_id: 'u.last',
        });
        const row = made.findIndex((m) => m.id === 'u.last');
        made[row] = { ...made[row]!, unclassified: false };
        const after = await e.runtime.canon.readerFor(who.viewer).unclassifiedPage({ limit: 1000 });
        expect(after.map((u) => u.message.message_id)).toEqual(
          expected(made, who.viewer.id, { limit: 1000 }),
        );
      });

      it('a store whose messages had no mark gets it from its intake states and proposals when opened', async () => {
        const { store } = e.runtime;
        await store.exec(
          'DROP INDEX canon_messages_unclassified; DROP INDEX canon_messages_unclassified_holder;',
        );
        await store.exec('ALTER TABLE canon_messages DROP COLUMN unclassified');
        await store.run('DELETE FROM canonry_migrations WHERE name = $1', [
          'canon-messages-unclassified',
        ]);
        const again = await e.another();
        const rows = await again.store.all<{ message_id: string; unclassified: number | string }>(
          'SELECT message_id, unclassified FROM canon_messages WHERE project = $1',
          [PROJECT],
        );
        expect(new Map(rows.map((r) => [r.message_id, Number(r.unclassified) === 1]))).toEqual(
          new Map(made.map((m) => [m.id, m.unclassified])),
        );
        const q = { limit: 4, after: seqOf('u.first') };
        const page = await again.canon.readerFor(who.owner).unclassifiedPage(q);
        expect(page.map((u) => u.message.message_id)).toEqual(expected(made, who.owner.id, q));
      });
    },
  );
}
