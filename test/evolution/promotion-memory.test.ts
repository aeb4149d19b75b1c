// What the promotion runner holds in memory, on a real SQLite file and the real PostgreSQL: its live
// promotions only. Finished ones (rejected, rolled back: no step may follow) are stored and read
// back, so the states held do not grow with the promotions a project has finished — counted as
// entries, before and after forty more finish, and again in a runner that folds the journal anew.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import { PromotionRunner } from '../../src/evolution/index.js';
import { runtimeOn } from '../helpers/engine-runtime.js';
import { postgresAvailable } from '../helpers/stores.js';

const P = 'memory';
const EDITOR = { actor: 'editor-1', role: 'editor' } as const;

let runtime: CanonryRuntime;
let close: () => Promise<void>;

async function open(engine: 'sqlite' | 'postgres'): Promise<void> {
  ({ runtime, close } = await runtimeOn(engine));
}

/** A runner whose validation fails a candidate naming the event `bad`. */
const runner = () =>
  new PromotionRunner(runtime.journal, {
    signer: () => runtime.keyring.signer(),
    anchor: () => ({ root: runtime.keyring.rootCertificatePem }),
    validator: async (c) =>
      c.replay_events.includes('bad')
        ? { replayed: 1, failures: [{ event_id: 'bad', reason: '/label' }] }
        : { replayed: 1, failures: [] },
  });

const candidate = (id: string, replay = 'good') => ({
  promotion_id: id,
  artifact_kind: 'air_settings',
  artifact: { mode: 'aggressive', iap_budget: 256, note: id },
  baseline: null,
  canary: { share: 0, projects: [P] },
  metric: { name: 'session_iq', margin: 0.02, min_samples: 3 },
  replay_events: [replay],
});

const ENGINES = ['sqlite', ...(postgresAvailable ? ['postgres' as const] : [])] as const;

describe.each(ENGINES)('the promotion runner holds its live promotions only, on %s', (engine) => {
  beforeEach(() => open(engine));
  afterEach(() => close());

  it('forty finished promotions add nothing to what it holds; each still reads whole', async () => {
    const r = runner();
    await r.start(P, EDITOR, candidate('live-1'));
    await r.start(P, EDITOR, candidate('live-2'));
    expect(r.held()).toBe(2);

    for (let i = 0; i < 20; i++) {
      expect((await r.start(P, EDITOR, candidate(`rejected-${i}`, 'bad'))).stage).toBe('rejected');
      await r.start(P, EDITOR, candidate(`rolled-${i}`));
      expect((await r.rollBack(P, EDITOR, `rolled-${i}`, 'an incident')).stage).toBe('rolled_back');
    }
    expect(r.held()).toBe(2);

    // A runner that folds the journal from the start (a restart) holds the same two.
    const fresh = runner();
    const all = await fresh.list(P);
    expect(fresh.held()).toBe(2);
    expect(all).toHaveLength(42);
    expect(all.map((s) => s.promotion_id).slice(0, 4)).toEqual([
      'live-1',
      'live-2',
      'rejected-0',
      'rolled-0',
    ]);
    // What is read back is what the journal folds to.
    const rebuilt = await fresh.rebuild(P);
    expect(all).toEqual([...rebuilt.values()]);
    expect(await fresh.get(P, 'rolled-7')).toEqual(rebuilt.get('rolled-7'));
    expect((await r.get(P, 'rejected-3')).reason).toMatch(/replay validation failed: bad/);
    expect(fresh.held()).toBe(2);

    // A page of the list, and a finished id that cannot be proposed again.
    const page = await r.list(P, { after: all[9]!.history[0]!.seq!, limit: 3 });
    expect(page.map((s) => s.promotion_id)).toEqual(all.slice(10, 13).map((s) => s.promotion_id));
    await expect(r.start(P, EDITOR, candidate('rolled-3'))).rejects.toMatchObject({
      code: 'PROMOTION_ILLEGAL_TRANSITION',
      details: { stage: 'rolled_back', step: 'propose' },
    });
    await expect(r.promote(P, EDITOR, 'rejected-1', 'anyway')).rejects.toMatchObject({
      code: 'PROMOTION_ILLEGAL_TRANSITION',
      details: { stage: 'rejected' },
    });
    expect(r.held()).toBe(2);
  });
});
