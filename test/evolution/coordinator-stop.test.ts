// A stop does not wait out a failing target's retries. The delivery loop went on through every
// remaining attempt and pause after the coordinator was asked to stop (with the default policy
// about a minute of a serve's shutdown, with a long policy as long as the policy), and journaled a
// dead letter for a target that may have come back by the next start. Now a delivery between
// attempts when the stop comes is left pending, unjournaled, and made again at the next start.
// Real SQLite files, the runtime started again on the same data directory.
import { afterAll, describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import { EVOLUTION_FEEDBACK, EventStore, type EvolutionTarget } from '../../src/evolution/index.js';
import { tempDir } from '../helpers/runtime.js';

const P = 'stop-mid-retry';
const { dir, cleanup } = tempDir();
afterAll(() => cleanup());

/** A target that answers "try again" until `up` is set, counting its attempts. */
function flaky() {
  const state = { attempts: 0, up: false };
  const target: EvolutionTarget = {
    name: 'flaky',
    path: { name: 'flaky', enforces: ['project'] },
    accepts: (event) => event.event_type === 'memory',
    receive: async () => {
      state.attempts++;
      return state.up
        ? { ok: true, record: { took: true } }
        : { ok: false, retry: true, issue: { code: 'TARGET_UNAVAILABLE', message: 'down' } };
    },
  };
  return { target, state };
}

describe('a coordinator stopped while a target is retried', () => {
  it('leaves the delivery pending, unjournaled, and makes it at the next start', async () => {
    const first = flaky();
    let rt: CanonryRuntime | undefined;
    let closing: Promise<void> | undefined;
    rt = await createCanonry(
      { dataDir: dir, evolution: 'on', logLevel: 'silent' },
      {
        evolution: {
          targets: [first.target],
          retry: { maxAttempts: 1_000, backoffMs: 1 },
          // The first pause is when the process is asked to stop.
          sleep: async () => {
            closing ??= rt!.close();
          },
        },
      },
    );
    await rt.journal.append(
      P,
      EVOLUTION_FEEDBACK.input(
        { feedback_id: 'fb-1', subject: 'work-1', score: 0.5, principal: 'ada', remember: null },
        { actor: 'ada' },
      ),
    );
    await rt.evolution!.idle();
    await closing;
    expect(first.state.attempts).toBeGreaterThanOrEqual(1);
    expect(first.state.attempts).toBeLessThan(1_000);

    const second = flaky();
    second.state.up = true;
    rt = await createCanonry(
      { dataDir: dir, evolution: 'on', logLevel: 'silent' },
      { evolution: { targets: [second.target], sleep: async () => undefined } },
    );
    try {
      await rt.evolution!.idle();
      const events = new EventStore(rt.store);
      const [row] = await events.list(P);
      const stored = await events.get(P, row!.event_id);
      expect(stored.deliveries.find((d) => d.target === 'flaky')).toMatchObject({
        outcome: 'delivered',
        attempts: 1,
        record: { took: true },
      });
      // The journal holds that delivery alone for it: nothing was journaled on the way down.
      const flakyDeliveries = (await rt.journal.read(P, { after: 0, limit: 100 })).filter(
        (e) =>
          e.kind.startsWith('evolution.delivery') &&
          (e.body as { target?: unknown }).target === 'flaky',
      );
      expect(flakyDeliveries.map((e) => (e.body as { outcome: string }).outcome)).toEqual([
        'delivered',
      ]);
      expect(await events.deadLetters(P)).toEqual([]);
    } finally {
      await rt.close();
    }
  });

  it('ends the pause it is in: a stop does not wait for the backoff to run out', async () => {
    const { dir: own, cleanup: done } = tempDir();
    const target = flaky();
    let rt: CanonryRuntime | undefined;
    let closing: Promise<void> | undefined;
    try {
      rt = await createCanonry(
        { dataDir: own, evolution: 'on', logLevel: 'silent' },
        {
          evolution: {
            targets: [target.target],
            retry: { maxAttempts: 5, backoffMs: 30_000 },
            // A pause that does not end on its own (standing in for the 30 s cap); the stop
            // comes during it.
            sleep: () => {
              closing ??= rt!.close();
              return new Promise<void>(() => undefined);
            },
          },
        },
      );
      await rt.journal.append(
        P,
        EVOLUTION_FEEDBACK.input(
          { feedback_id: 'fb-2', subject: 'work-2', score: 0.5, principal: 'ada', remember: null },
          { actor: 'ada' },
        ),
      );
      await rt.evolution!.idle();
      await closing;
      expect(target.state.attempts).toBe(1);
    } finally {
      done();
    }
  });
});
