// A dead letter is retried once across processes. Two runtimes on one PostgreSQL database (two
// `canonry serve`), both with evolution on and the same target, race to retry every dead letter at
// once: the target receives each event exactly once (counted by the target itself, across both),
// one retry of each pair answers the delivery and the other is refused (CONFLICT while the winner
// runs, UNKNOWN_DEAD_LETTER once it journaled), and each event's journal says dead_letter then
// delivered, once. On SQLite, the same race between the runtime's coordinator and a second one on
// its journal (a second coordinator in the process) ends the same way.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import type { Principal } from '../../src/canon/index.js';
import {
  EvolutionCoordinator,
  type EvolutionTarget,
  projectGovernance,
} from '../../src/evolution/index.js';
import { note } from '../helpers/canon.js';
import { tempDir } from '../helpers/runtime.js';
import { freshPostgresSchema, postgresAvailable } from '../helpers/stores.js';

const PROJECT = 'dead';
const OWNER: Principal = { id: 'alice', project: PROJECT, role: 'owner' };
const EVENTS = 4;

/**
 * A target that fails (a transient failure: dead-lettered at once) until `open`, then holds each
 * delivery until `release` and counts, per event id, every delivery it receives.
 */
function flaky() {
  const received = new Map<string, number>();
  let open = false;
  let arrivals = 0;
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const target: EvolutionTarget = {
    name: 'flaky',
    path: { name: 'flaky', enforces: ['project'] },
    // The commits' events alone (the gate's verdicts make events of their own, in `evolution`).
    accepts: (event) => (event as { event_type: string }).event_type === 'arbitration',
    receive: async ({ event }) => {
      if (!open) {
        return { ok: false, issue: { code: 'TARGET_UNAVAILABLE', message: 'down' }, retry: true };
      }
      const id = (event as { event_id: string }).event_id;
      arrivals++;
      await gate;
      received.set(id, (received.get(id) ?? 0) + 1);
      return { ok: true, record: null };
    },
  };
  return {
    target,
    received,
    arrivals: () => arrivals,
    open: () => {
      open = true;
    },
    release: () => release(),
  };
}

async function until(what: string, ok: () => Promise<boolean> | boolean, ms = 60_000) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const commit = async (rt: CanonryRuntime, id: string) => {
  const outcome = await rt.canon.propose(OWNER, {
    object_id: id,
    intent: 'create',
    base_version: null,
    candidate: note({ title: id, text: `The ${id} is settled.` }),
    rationale: 'dead-letter claims',
  });
  expect(outcome.proposal.status).toBe('committed');
};

type Retrier = Pick<EvolutionCoordinator, 'retryDeadLetter'>;

/**
 * Makes the dead letters, then races `a` and `b` on each: every pair started at once, the target
 * holding the deliveries that reach it until each pair has either reached it or been refused.
 */
async function race(rt: CanonryRuntime, hook: ReturnType<typeof flaky>, a: Retrier, b: Retrier) {
  for (let i = 0; i < EVENTS; i++) await commit(rt, `fact-${i}`);
  const dead = async () => rt.evolution!.events.deadLetters(PROJECT);
  await until('every event dead-lettered', async () => (await dead()).length === EVENTS);
  const letters = await dead();
  hook.open();
  let refused = 0;
  const settle = (p: Promise<unknown>) =>
    p.then(
      (value) => ({ ok: true as const, value }),
      (err: { code?: string }) => {
        refused++;
        return { ok: false as const, code: err.code };
      },
    );
  const answers = letters.flatMap((d) => [
    settle(a.retryDeadLetter(PROJECT, d.event_id, 'flaky')),
    settle(b.retryDeadLetter(PROJECT, d.event_id, 'flaky')),
  ]);
  await until('each retry delivering or refused', () => hook.arrivals() + refused >= 2 * EVENTS);
  hook.release();
  const settled = await Promise.all(answers);

  // The scenario's own count: each dead letter once, by the target's tally across both.
  expect(hook.received.size).toBe(EVENTS);
  for (const d of letters) expect(hook.received.get(d.event_id), d.event_id).toBe(1);
  for (let i = 0; i < EVENTS; i++) {
    const pair = settled.slice(2 * i, 2 * i + 2);
    expect(pair.filter((r) => r.ok)).toHaveLength(1);
    expect(pair.filter((r) => r.ok).map((r) => (r.value as { outcome: string }).outcome)).toEqual([
      'delivered',
    ]);
    const no = pair.find((r) => !r.ok)!;
    expect(['CONFLICT', 'UNKNOWN_DEAD_LETTER']).toContain(no.ok ? null : no.code);
  }
  const entries = await rt.journal.read(PROJECT, { after: 0, limit: 1_000 });
  for (const d of letters) {
    const outcomes = entries
      .filter((e) => e.kind === 'evolution.delivery')
      .map((e) => e.body as { event_id: string; target: string; outcome: string })
      .filter((x) => x.event_id === d.event_id && x.target === 'flaky')
      .map((x) => x.outcome);
    expect(outcomes).toEqual(['dead_letter', 'delivered']);
  }
  expect(await dead()).toEqual([]);
}

const closers: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const options = (hook: ReturnType<typeof flaky>) => ({
  evolution: {
    targets: [hook.target],
    retry: { maxAttempts: 1, backoffMs: 1 },
    sleep: async () => undefined,
  },
});

describe('a dead letter is retried once across processes', () => {
  it('on SQLite: the runtime and a second coordinator on its journal race; each is delivered once', async () => {
    const { dir, cleanup } = tempDir('canonry-claims-');
    closers.push(cleanup);
    const hook = flaky();
    const rt = await createCanonry(
      { dataDir: dir, evolution: 'on', logLevel: 'silent' },
      options(hook),
    );
    closers.push(() => rt.close());
    const second = new EvolutionCoordinator({
      journal: rt.journal,
      signer: () => rt.keyring.signer(),
      sources: [],
      targets: [hook.target],
      projects: async () => [],
      governanceFor: projectGovernance,
      sourceNode: 'second',
      name: 'second',
    });
    await race(rt, hook, rt.evolution!, second);
  });

  it.skipIf(!postgresAvailable)(
    'on PostgreSQL: two runtimes on one database race; each is delivered once',
    async () => {
      const { dir, cleanup } = tempDir('canonry-claims-');
      closers.push(cleanup);
      const schema = await freshPostgresSchema();
      closers.push(schema.drop);
      const hook = flaky();
      const open = () =>
        createCanonry(
          { dataDir: join(dir, 'data'), db: schema.url, evolution: 'on', logLevel: 'silent' },
          options(hook),
        );
      const a = await open();
      closers.push(() => a.close());
      const b = await open();
      closers.push(() => b.close());
      await race(a, hook, a.evolution!, b.evolution!);
    },
    120_000,
  );
});
