// Evolution's lists keyed by text — an event's deliveries by target, a project's admissions by the
// project they name — in byte order on every engine, PostgreSQL with a linguistic default collation
// (ICU en-US) among them: as on SQLite, and as JavaScript's `<` sorts them.
import { describe, expect, it } from 'vitest';
import { compareCodeUnits } from '../../src/core/index.js';
import { admissionsOf, EVOLUTION_MIGRATIONS, EventStore } from '../../src/evolution/index.js';
import { migrate } from '../../src/store/index.js';
import { engineTitle, perTest, TEXT_ORDER_ENGINES } from '../helpers/stores.js';

/** Target names (printable ASCII) a linguistic collation orders unlike byte order. */
const TARGETS = ['audit', 'Audit', 'B-log', 'a-b', 'a_b', 'a.b', 'a1', 'ab', 'Z', 'audit:2'];
/** Project names ('_' and '-' are the punctuation they allow). */
const PROJECTS = ['a', 'a-b', 'a_b', 'a1', 'ab', '0z'];

const { fresh } = perTest();

for (const engine of TEXT_ORDER_ENGINES) {
  describe.skipIf(!engine.available)(`evolution's text keys on ${engineTitle(engine)}`, () => {
    it("lists an event's deliveries by target and a project's admissions in byte order", async () => {
      const { store } = await fresh(engine);
      await migrate(store, { evolution: EVOLUTION_MIGRATIONS });
      for (const [i, target] of TARGETS.entries()) {
        await store.run(
          `INSERT INTO evolution_deliveries (project, event_id, target, outcome, attempts, seq)
           VALUES ('p', 'e1', $1, 'delivered', 1, $2)`,
          [target, i + 1],
        );
      }
      const deliveries = await new EventStore(store).deliveries('p', 'e1');
      expect(deliveries.map((d) => d.target)).toEqual([...TARGETS].sort(compareCodeUnits));
      for (const [i, from] of PROJECTS.entries()) {
        await store.run(
          `INSERT INTO evolution_admissions (project, from_project, admitted, seq) VALUES ('p', $1, 1, $2)`,
          [from, i + 1],
        );
      }
      expect((await admissionsOf(store, 'p')).map((a) => a.from_project)).toEqual(
        [...PROJECTS].sort(compareCodeUnits),
      );
    });
  });
}
