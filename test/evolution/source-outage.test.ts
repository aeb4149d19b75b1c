// An asset source that fails because the store is unreachable for now does not cost the entry its
// events: the coordinator stops short of that entry and, followed again from its cursor, makes them
// once the store answers. A source that fails for a reason of the entry's own is reported and
// skipped, as before, so one bad entry never holds the project's events back.
import { afterAll, describe, expect, it } from 'vitest';
import { createCanonry } from '../../src/app/index.js';
import { CanonryError } from '../../src/core/index.js';
import {
  type AssetSource,
  EVOLUTION_FEEDBACK,
  EventStore,
  FEEDBACK_SOURCE,
} from '../../src/evolution/index.js';
import { tempDir } from '../helpers/runtime.js';

const P = 'source-outage';
const { dir, cleanup } = tempDir();
afterAll(() => cleanup());

/** The feedback source under another name, failing with `code` on its first `failures` reads. */
function failing(name: string, code: 'STORE_UNAVAILABLE' | 'INVALID_ARGUMENT', failures: number) {
  const state = { reads: 0 };
  const source: AssetSource = {
    name,
    kinds: FEEDBACK_SOURCE.kinds,
    read(entry, context) {
      state.reads++;
      if (state.reads <= failures) throw new CanonryError(code, `${name} failed`);
      return FEEDBACK_SOURCE.read(entry, context);
    },
  };
  return { source, state };
}

describe('an asset source whose read fails', () => {
  it('makes the events of an entry read while the store was unreachable, once it answers', async () => {
    const outage = failing('feedback-after-outage', 'STORE_UNAVAILABLE', 1);
    const broken = failing('feedback-broken', 'INVALID_ARGUMENT', 1_000);
    const rt = await createCanonry(
      { dataDir: dir, evolution: 'on', logLevel: 'silent' },
      {
        evolution: { sources: [outage.source, broken.source], targets: [] },
      },
    );
    try {
      for (const id of ['fb-1', 'fb-2']) {
        await rt.journal.append(
          P,
          EVOLUTION_FEEDBACK.input(
            {
              feedback_id: id,
              subject: `work-${id}`,
              score: 0.5,
              principal: 'ada',
              remember: null,
            },
            { actor: 'ada' },
          ),
        );
      }
      // Each idle follows what it finds; the second finds the project to follow again.
      for (let i = 0; i < 5; i++) await rt.evolution!.idle();
      const events = await new EventStore(rt.store).list(P);
      // Each entry: one event from the built-in feedback source and one from the source that met
      // the outage; none from the broken source, whose every read failed.
      expect(events).toHaveLength(4);
      expect(outage.state.reads).toBe(3);
      expect(broken.state.reads).toBeGreaterThanOrEqual(2);
    } finally {
      await rt.close();
    }
  });
});
