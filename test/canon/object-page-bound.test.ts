// A page of objects is chosen in SQL in id order by who may read it and by status: another
// principal's personal objects, and objects of another status, lying between the ones a page shows
// are never read into the process — on both engines. A store made before objects had a holder is
// given one, filled from its records, when this code opens it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObjectPageQuery, ObjectStatus, Principal } from '../../src/canon/index.js';
import { objectPageSql } from '../../src/canon/page.js';
import {
  CANON_ENGINES,
  type EngineRuntime,
  PROJECT,
  principals,
  update,
} from '../helpers/canon.js';
import {
  counting,
  expectIndexedReads,
  reopenedWithoutHolder,
  scenarioNote,
} from '../helpers/page-bound.js';

/** What the scenario made: who holds it (null: the project), and its status. */
interface Made {
  readonly id: string;
  holder: string | null;
  status: ObjectStatus;
}

/** What a page shows a viewer (null: the operator), from the scenario alone, in byte order. */
function expected(made: readonly Made[], viewer: string | null, q: ObjectPageQuery): string[] {
  return made
    .filter((m) => viewer === null || m.holder === null || m.holder === viewer)
    .filter((m) => q.statuses === undefined || q.statuses.includes(m.status))
    .map((m) => m.id)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .filter((id) => q.after === undefined || id > q.after)
    .slice(0, q.limit);
}

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`a page of objects, bounded, on ${engine.name}`, () => {
    const who = principals();
    const made: Made[] = [];
    let e: EngineRuntime;

    async function make(p: Principal, id: string, personal: boolean, status: ObjectStatus) {
      await scenarioNote(e.runtime, p, id, personal, { status });
      made.push({ id, holder: personal ? p.id : null, status });
    }

    beforeAll(async () => {
      e = await engine.open();
      await make(who.owner, 'a.1', false, 'active');
      for (let i = 0; i < 60; i++)
        await make(who.editor, `b.${String(i).padStart(3, '0')}`, true, 'active');
      // Byte order, not a linguistic one: '-' < '.' < '_'.
      await make(who.owner, 'c_x', false, 'provisional');
      await make(who.owner, 'c-x', false, 'active');
      await make(who.owner, 'c.x', false, 'provisional');
      await make(who.owner, 'k.own', true, 'active');
      for (let i = 0; i < 60; i++)
        await make(who.editor, `n.${String(i).padStart(3, '0')}`, true, 'provisional');
      await make(who.owner, 'z.1', false, 'active');
      // A personal object the editor shares moves out of its holder's range into the project's.
      await make(who.editor, 'm.moved', true, 'active');
      const moved = await update(e.runtime, who.editor, 'm.moved', { visibility: 'project' });
      expect(moved.proposal.status).toBe('committed');
      const m = made.find((x) => x.id === 'm.moved');
      if (m) m.holder = null;
    }, 240_000);
    afterAll(() => e?.close());

    const QUERIES: ObjectPageQuery[] = [
      { limit: 3 },
      { limit: 2, after: 'a.1' },
      { limit: 4, after: 'c-x' },
      { limit: 2, statuses: ['provisional'] },
      { limit: 3, statuses: ['provisional', 'active'], after: 'c.x' },
      { limit: 1, statuses: ['retired'] },
      { limit: 2, after: 'm.moved' },
    ];

    it.each(QUERIES)('the owner reads %o with at most its limit of rows', async (q) => {
      const { db, seen } = counting(e.runtime.store);
      const page = await e.runtime.canon.readerFor(who.owner, db).objectPage(q);
      expect(page.map((o) => o.object_id)).toEqual(expected(made, who.owner.id, q));
      expect(seen.rows).toBeLessThanOrEqual(q.limit);
    });

    it.each(QUERIES)('the operator reads %o with at most its limit of rows', async (q) => {
      const { db, seen } = counting(e.runtime.store);
      const page = await e.runtime.canon.reader(PROJECT, db).objectPage(q);
      expect(page.map((o) => o.object_id)).toEqual(expected(made, null, q));
      expect(seen.rows).toBeLessThanOrEqual(q.limit);
    });

    it.runIf(engine.name === 'sqlite')(
      "reads each page's ranges from an index, never by scanning the project's objects",
      async () => {
        for (const q of QUERIES) {
          for (const viewer of [who.owner.id, null]) {
            const { sql, params } = objectPageSql(q, viewer);
            const range =
              viewer !== null
                ? 'canon_objects_holder (project=? AND holder=? AND status=?'
                : q.statuses !== undefined
                  ? 'canon_objects_status (project=? AND status=?'
                  : 'sqlite_autoindex_canon_objects_1 (project=?';
            await expectIndexedReads(
              e.runtime.store,
              'canon_objects',
              sql,
              [PROJECT, ...params],
              range,
            );
          }
        }
      },
    );

    it('the editor reads its own personal objects among the shared ones, a page at a time', async () => {
      for (const statuses of [undefined, ['provisional'] as ObjectStatus[]]) {
        const all: string[] = [];
        let after: string | undefined;
        for (let n = 0; n < 100; n++) {
          const { db, seen } = counting(e.runtime.store);
          const page = await e.runtime.canon.readerFor(who.editor, db).objectPage({
            limit: 7,
            ...(statuses === undefined ? {} : { statuses }),
            ...(after === undefined ? {} : { after }),
          });
          expect(seen.rows).toBeLessThanOrEqual(7);
          all.push(...page.map((o) => o.object_id));
          if (page.length < 7) break;
          after = page.at(-1)?.object_id;
        }
        const whole = { limit: made.length, ...(statuses === undefined ? {} : { statuses }) };
        expect(all).toEqual(expected(made, who.editor.id, whole));
        expect(new Set(all).size).toBe(all.length);
      }
    });

    it('a store whose objects had no holder gets one from its records when opened', async () => {
      const { again, holders } = await reopenedWithoutHolder(
        e,
        'canon_objects',
        'object_id',
        ['canon_objects_status', 'canon_objects_holder'],
        'canon-objects-holder',
      );
      expect(holders).toEqual(new Map(made.map((m) => [m.id, m.holder])));
      const page = await again.canon.readerFor(who.owner).objectPage({ limit: 5, after: 'c-x' });
      expect(page.map((o) => o.object_id)).toEqual(
        expected(made, who.owner.id, { limit: 5, after: 'c-x' }),
      );
    });
  });
}
