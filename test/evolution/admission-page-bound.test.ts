// A page of a project's admissions is a range of the table's key by the project each names, in byte
// order on every engine (a linguistic PostgreSQL among them): other projects' admissions lying
// between are never read into the process, and paging to the end yields each admission once.
import { describe, expect, it } from 'vitest';
import { admissionPage, EVOLUTION_MIGRATIONS } from '../../src/evolution/index.js';
import { migrate } from '../../src/store/index.js';
import { counting } from '../helpers/page-bound.js';
import { engineTitle, perTest, TEXT_ORDER_ENGINES } from '../helpers/stores.js';

/** Project names a linguistic collation orders unlike byte order, and a few more. */
const FROM = ['a', 'a-b', 'a_b', 'a1', 'ab', '0z', 'b-', 'b_', 'zz', 'm0', 'm-1', 'm_1'];

const { fresh } = perTest();

for (const engine of TEXT_ORDER_ENGINES) {
  describe.skipIf(!engine.available)(`a page of admissions on ${engineTitle(engine)}`, () => {
    it('pages to the end in byte order, each once, reading at most a page', async () => {
      const { store } = await fresh(engine);
      await migrate(store, { evolution: EVOLUTION_MIGRATIONS });
      let seq = 0;
      for (const [i, from] of FROM.entries()) {
        await store.run(
          'INSERT INTO evolution_admissions (project, from_project, admitted, seq) VALUES ($1, $2, $3, $4)',
          ['p', from, i % 3 === 0 ? 0 : 1, ++seq],
        );
        // Other projects' admissions, named between and around this one's.
        for (const project of ['o', 'q', 'pa']) {
          await store.run(
            'INSERT INTO evolution_admissions (project, from_project, admitted, seq) VALUES ($1, $2, 1, $3)',
            [project, `${from}x`, ++seq],
          );
        }
      }
      const truth = FROM.map((from, i) => ({ from_project: from, admitted: i % 3 !== 0 })).sort(
        (a, b) => (a.from_project < b.from_project ? -1 : a.from_project > b.from_project ? 1 : 0),
      );
      for (const limit of [1, 2, 5, 12, 100]) {
        const all: { from_project: string; admitted: boolean }[] = [];
        let after: string | undefined;
        for (let n = 0; n < 50; n++) {
          const { db, seen } = counting(store);
          const page = await admissionPage(db, 'p', {
            limit,
            ...(after === undefined ? {} : { after }),
          });
          expect(seen.rows).toBeLessThanOrEqual(limit);
          all.push(...page.map((a) => ({ from_project: a.from_project, admitted: a.admitted })));
          if (page.length < limit) break;
          after = page.at(-1)?.from_project;
        }
        expect(all, `limit ${limit}`).toEqual(truth);
      }
      if (engine.name === 'sqlite') {
        const plan = await store.all<{ detail: string }>(
          `EXPLAIN QUERY PLAN SELECT from_project, admitted, seq FROM evolution_admissions
           WHERE project = $1 AND from_project > $3 ORDER BY from_project LIMIT $2`,
          ['p', 5, 'a'],
        );
        expect(plan.map((r) => r.detail).join('\n')).toMatch(
          /SEARCH evolution_admissions USING INDEX sqlite_autoindex_evolution_admissions_1 \(project=\? AND from_project>\?\)/,
        );
      }
    });
  });
}
