// The projects a database holds journals for are listed in byte order on every engine, PostgreSQL
// with a linguistic default collation (ICU en-US: '_' < '-' < digits < letters, case folded
// first) among them — as on SQLite, and as JavaScript's `<` sorts them.
import { describe, expect, it } from 'vitest';
import { compareCodeUnits } from '../../src/core/index.js';
import { Journal } from '../../src/journal/index.js';
import { engineTitle, perTest, TEXT_ORDER_ENGINES } from '../helpers/stores.js';

const PROJECTS = ['a', 'a-b', 'a_b', 'a1', 'ab', 'b', '0z', 'a--b'];

const { fresh, defer } = perTest();

for (const engine of TEXT_ORDER_ENGINES) {
  describe.skipIf(!engine.available)(`Journal.projects on ${engineTitle(engine)}`, () => {
    it('lists projects in byte order', async () => {
      const { store } = await fresh(engine);
      const journal = new Journal(store);
      defer(() => journal.close());
      for (const project of PROJECTS) {
        await journal.append(project, { kind: 'test.note', body: {}, actor: 'test' });
      }
      expect((await journal.projects()).map((p) => p.project)).toEqual(
        [...PROJECTS].sort(compareCodeUnits),
      );
    });
  });
}
