// A memory event delivered again answers the proposal it already made. A dispatch that a stop (or a
// lease change) cut short after canon took the proposal but before the delivery was journaled is
// dispatched again on the next start; proposed a second time, canon refused the create (CONFLICT:
// the object id is the event's), and the delivery was retried and dead-lettered although the memory
// had been proposed — and every retry of that dead letter failed the same way. Real SQLite files,
// the runtime started again on the same data directory.
import { afterAll, describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import { EVOLUTION_FEEDBACK, EventStore } from '../../src/evolution/index.js';
import { tempDir } from '../helpers/runtime.js';

const P = 'memory-again';
const { dir, cleanup } = tempDir();
afterAll(() => cleanup());

const start = () =>
  createCanonry(
    { dataDir: dir, evolution: 'on', logLevel: 'silent' },
    { evolution: { sleep: async () => undefined } },
  );

const memoryDelivery = async (rt: CanonryRuntime, eventId: string) =>
  (await new EventStore(rt.store).get(P, eventId)).deliveries.find((d) => d.target === 'memory');

describe('a memory event delivered again', () => {
  it('is delivered with the proposal it made, not dead-lettered', async () => {
    let rt = await start();
    let eventId: string;
    let first: Awaited<ReturnType<typeof memoryDelivery>>;
    try {
      await rt.journal.append(
        P,
        EVOLUTION_FEEDBACK.input(
          {
            feedback_id: 'fb-1',
            subject: 'work-1',
            score: 0.9,
            principal: 'ada',
            remember: { title: 'Tone', text: 'Keep answers short.' },
          },
          { actor: 'ada' },
        ),
      );
      await rt.evolution!.idle();
      [{ event_id: eventId }] = await new EventStore(rt.store).list(P);
      first = await memoryDelivery(rt, eventId);
      expect(first).toMatchObject({ outcome: 'delivered', attempts: 1 });
      // As if the process had stopped after canon took the proposal, before the delivery was
      // journaled: the event is pending its memory delivery again.
      await rt.store.run(
        "DELETE FROM evolution_deliveries WHERE project = $1 AND event_id = $2 AND target = 'memory'",
        [P, eventId],
      );
      await rt.store.run(
        'UPDATE evolution_events SET pending = 1 WHERE project = $1 AND event_id = $2',
        [P, eventId],
      );
    } finally {
      await rt.close();
    }
    rt = await start();
    try {
      await rt.evolution!.idle();
      const again = await memoryDelivery(rt, eventId);
      expect(again).toMatchObject({
        outcome: 'delivered',
        attempts: 1,
        code: null,
        record: first!.record,
      });
      expect((first!.record as { proposal_id: string }).proposal_id).toMatch(/^prop_/);
      expect(await new EventStore(rt.store).deadLetters(P)).toEqual([]);
    } finally {
      await rt.close();
    }
  });
});
