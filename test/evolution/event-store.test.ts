// The event store's class filter: a kind's name finds its events whatever version of the kind
// journaled them (`relay.window` is stored as `relay.window.v2`), and nothing of another kind that
// merely starts the same way; on each storage engine.
import { describe, expect, it } from 'vitest';
import { EVOLUTION_MIGRATIONS, EventStore } from '../../src/evolution/index.js';
import { migrate } from '../../src/store/index.js';
import { ENGINES, perTest } from '../helpers/stores.js';

const CLASSES = [
  'relay.window',
  'relay.window.v2',
  'relay.window.v3',
  'relay.windows',
  'relay.window_v2',
  'canon.commit',
];

const { fresh } = perTest();

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`EventStore.list by class on ${engine.name}`, () => {
    it('takes a kind by name, every version of it and nothing else', async () => {
      const { store } = await fresh(engine);
      await migrate(store, { evolution: EVOLUTION_MIGRATIONS });
      for (const [i, cls] of CLASSES.entries()) {
        await store.run(
          `INSERT INTO evolution_events (project, event_id, seq, event_type, class, schema_version, created_at, pending, record)
         VALUES ($1, $2, $3, 'memory', $4, '1', 0, 0, '{}')`,
          ['p', `e${i}`, i + 1, cls],
        );
      }
      const events = new EventStore(store);
      const classes = async (cls: string) =>
        (await events.list('p', { class: cls })).map((e) => e.class).sort();
      expect(await classes('relay.window')).toEqual([
        'relay.window',
        'relay.window.v2',
        'relay.window.v3',
      ]);
      expect(await classes('relay.window.v2')).toEqual(['relay.window.v2']);
      expect(await classes('canon.commit')).toEqual(['canon.commit']);
      expect(await classes('relay')).toEqual([]);
      expect(await classes('relay.window_')).toEqual([]);
    });
  });
}
