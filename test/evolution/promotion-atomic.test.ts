// Starting a promotion and recording an observation are each all or nothing, on a real SQLite file
// and the real PostgreSQL: a CONFLICT between the steps (the journal refusing the append on every
// try; another writer's step of the same promotion) leaves nothing of the call in the journal or
// the projection, and the same call made again succeeds — a promotion made once, an observation
// counted once. Entries of the project that are not this promotion's refuse nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import type { Principal } from '../../src/canon/index.js';
import { CanonryError } from '../../src/core/index.js';
import { ADMISSION_ENTRY, PROMOTION_ENTRY, type PromotionStep } from '../../src/evolution/index.js';
import type { EntryInput } from '../../src/journal/index.js';
import { operationNamed, runOperation } from '../../src/operations/index.js';
import { replayableRuntime } from '../helpers/evolution.js';
import { tempDir } from '../helpers/runtime.js';
import { freshPostgresSchema, postgresAvailable } from '../helpers/stores.js';

const P = 'atomic';
const EDITOR: Principal = { id: 'editor-1', project: P, role: 'editor' };

let runtime: CanonryRuntime;
let close: () => Promise<void>;
/** Promotion steps whose append another writer races (and wins) while armed. */
const raced = new Set<PromotionStep['step']>();
let race: 'other' | 'refuse' = 'other';
let moves = 0;

async function open(engine: 'sqlite' | 'postgres'): Promise<void> {
  ({ runtime, close } = await replayableRuntime(engine));
  // Just before an armed promotion step is appended: another writer appends an entry of its own
  // (`other`), or the journal answers CONFLICT (`refuse`).
  const journal = runtime.journal;
  const appendAll = journal.appendAll.bind(journal);
  raced.clear();
  race = 'other';
  moves = 0;
  journal.appendAll = async (project: string, inputs: readonly EntryInput[], options = {}) => {
    const racedStep = inputs.some(
      (i) =>
        i.kind === PROMOTION_ENTRY.kind && raced.has((i.body as { step: PromotionStep }).step.step),
    );
    if (racedStep && project === P) {
      moves += 1;
      if (race === 'refuse') throw new CanonryError('CONFLICT', `the head of ${P} moved`);
      await appendAll(P, [other(inputs)]);
    }
    return appendAll(project, inputs, options);
  };
}

/**
 * The other writer's entry: an observation of the same promotion (the canary collector's, say)
 * when the raced call observes, else an entry of another kind.
 */
function other(inputs: readonly EntryInput[]): EntryInput {
  const { promotion_id, step } = inputs[0]!.body as { promotion_id: string; step: PromotionStep };
  return step.step === 'observe'
    ? PROMOTION_ENTRY.input(
        { promotion_id, step: { step: 'observe', arm: 'baseline', value: 0.9, samples: 1 } },
        { actor: 'evolution:canary', correlation_id: promotion_id },
      )
    : ADMISSION_ENTRY.input(
        { from_project: `elsewhere-${moves}`, admitted: true },
        { actor: 'another-writer' },
      );
}

const candidate = (id: string) => ({
  promotion_id: id,
  artifact_kind: 'air_settings',
  artifact: { mode: 'aggressive', iap_budget: 256 },
  baseline: null,
  canary: { share: 0, projects: [P] },
  metric: { name: 'session_iq', margin: 0.02, min_samples: 3 },
  replay_events: ['v1'],
});

const run = (operation: string, input: { params?: Record<string, string>; body?: unknown }) =>
  runOperation(runtime, operationNamed(operation), EDITOR, input) as Promise<{
    promotion: { stage: string; arms: Record<string, { observations: number }> };
  }>;

const start = (id: string) => run('startPromotion', { body: candidate(id) });
const observe = (id: string, arm: 'canary' | 'baseline', value: number) =>
  run('observePromotion', { params: { promotion: id }, body: { arm, value, samples: 1 } });

/** The steps the journal holds of one promotion, in order (of one actor's, given one). */
async function steps(id: string, actor?: string): Promise<string[]> {
  const entries = await runtime.journal.read(P, { limit: 1000 });
  return entries
    .filter((e) => PROMOTION_ENTRY.is(e) && PROMOTION_ENTRY.body(e).promotion_id === id)
    .filter((e) => actor === undefined || e.actor === actor)
    .map((e) => PROMOTION_ENTRY.body(e).step.step);
}

/** The projection's row of a promotion (what is in force reads it), or undefined. */
async function projected(id: string) {
  const rows = await runtime.journal.store.all<{ stage: string }>(
    'SELECT stage FROM evolution_promotions WHERE project = $1 AND promotion_id = $2',
    [P, id],
  );
  return rows[0];
}

const ENGINES = ['sqlite', ...(postgresAvailable ? ['postgres' as const] : [])] as const;

describe.each(ENGINES)('a database from before step_seq, on %s', (engine) => {
  it('is migrated and its promotions rebuilt with their latest step, so steps still conflict as they should', async () => {
    const { dir, cleanup } = tempDir();
    const pg = engine === 'postgres' ? await freshPostgresSchema() : undefined;
    const openAt = () =>
      createCanonry({ dataDir: dir, ...(pg ? { db: pg.url } : {}), logLevel: 'silent' });
    try {
      const first = await openAt();
      const runner = first.promotions;
      await runner.start(P, { actor: 'e', role: 'owner' }, candidate('old'), { advance: false });
      // What the build before left: the column not yet there, projection version 3.
      await first.store.exec('ALTER TABLE evolution_promotions DROP COLUMN step_seq');
      await first.store.run('DELETE FROM canonry_migrations WHERE name = $1', [
        'evolution-promotion-step-seq',
      ]);
      await first.store.run(
        "UPDATE journal_projection_versions SET version = 3 WHERE name = 'evolution'",
      );
      const head = (await first.journal.head(P))!.seq;
      await first.close();

      const second = await openAt();
      try {
        const [row] = await second.store.all<{ step_seq: number | string }>(
          'SELECT step_seq FROM evolution_promotions WHERE project = $1 AND promotion_id = $2',
          [P, 'old'],
        );
        expect(Number(row?.step_seq)).toBe(head);
      } finally {
        await second.close();
      }
    } finally {
      await pg?.drop();
      cleanup();
    }
  });
});

describe.each(ENGINES)('promotion writes are all or nothing, on %s', (engine) => {
  beforeEach(() => open(engine));
  afterEach(() => close());

  it('a start refused with CONFLICT between proposal and validation leaves no promotion; started again, it is made once', async () => {
    raced.add('validate');
    race = 'refuse';
    await expect(start('air-1')).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(moves).toBe(3);
    expect(await steps('air-1')).toEqual([]);
    expect(await projected('air-1')).toBeUndefined();
    await expect(run('getPromotion', { params: { promotion: 'air-1' } })).rejects.toMatchObject({
      code: 'UNKNOWN_PROMOTION',
    });

    raced.clear();
    const again = await start('air-1');
    expect(again.promotion.stage).toBe('canary');
    expect(await steps('air-1')).toEqual(['propose', 'validate', 'check', 'publish', 'canary']);
    expect((await projected('air-1'))?.stage).toBe('canary');
  });

  it("another writer's entries of the project between the steps refuse nothing: the start is made whole, once", async () => {
    raced.add('validate');
    const made = await start('air-0');
    expect(moves).toBe(1);
    expect(made.promotion.stage).toBe('canary');
    expect(await steps('air-0')).toEqual(['propose', 'validate', 'check', 'publish', 'canary']);
  });

  it('an observation whose decision loses to another step of the promotion is not recorded; made again, it counts once and decides', async () => {
    await start('air-2');
    for (let i = 0; i < 3; i++) await observe('air-2', 'baseline', 0.9);
    await observe('air-2', 'canary', 0.2);
    await observe('air-2', 'canary', 0.2);
    const before = await steps('air-2', EDITOR.id);
    // The third canary observation completes the sample: the collector's observation of the
    // same promotion lands first, on every try.
    raced.add('roll_back');
    await expect(observe('air-2', 'canary', 0.2)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(moves).toBe(3);
    expect(await steps('air-2', EDITOR.id)).toEqual(before);
    expect(await steps('air-2', 'evolution:canary')).toEqual(['observe', 'observe', 'observe']);
    expect((await projected('air-2'))?.stage).toBe('canary');

    raced.clear();
    const again = await observe('air-2', 'canary', 0.2);
    expect(again.promotion.stage).toBe('rolled_back');
    expect(again.promotion.arms.canary!.observations).toBe(3);
    expect(await steps('air-2', EDITOR.id)).toEqual([...before, 'observe']);
    expect((await steps('air-2')).at(-1)).toBe('roll_back');
  });

  it('steps are taken while other writers append to the project all the time', async () => {
    await start('air-3');
    let stop = false;
    let n = 0;
    const writers = Array.from({ length: 4 }, async () => {
      while (!stop) {
        n += 1;
        await runtime.journal.append(
          P,
          ADMISSION_ENTRY.input({ from_project: `busy-${n}`, admitted: true }, { actor: 'w' }),
        );
      }
    });
    try {
      // Three reports an arm: the last one promotes it.
      for (let i = 0; i < 6; i++) {
        const arm = i % 2 === 0 ? 'baseline' : 'canary';
        await observe('air-3', arm, 0.9);
      }
    } finally {
      stop = true;
      await Promise.all(writers);
    }
    const state = await run('getPromotion', { params: { promotion: 'air-3' } });
    expect(state.promotion.stage).toBe('promoted');
    expect(n).toBeGreaterThan(6);
  });
});
