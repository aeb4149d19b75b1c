// Promoted and canary artifacts take effect, and canary metrics are collected by the runtime on
// its own: AIR settings for new relay sessions (a scripted model that heeds AIR's packet when its
// prompt carries one), the stakes gate per project. On the embedded SQLite file and on the real
// PostgreSQL; nobody posts an observation.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CanonryRuntime, relayWindowSamples } from '../../src/app/index.js';
import { DEFAULT_GATE_PROTOCOL, type Principal } from '../../src/canon/index.js';
import { contentHash, type JsonObject } from '../../src/core/index.js';
import {
  type ActivePromotion,
  CANARY_ACTOR,
  CanaryCollector,
  inCanary,
  PROMOTION_ENTRY,
  type PromotionStep,
  placeProject,
  placeSession,
  reachedProjects,
  reaches,
} from '../../src/evolution/index.js';
import { rebuildProject, verifyProjections } from '../../src/journal/index.js';
import { EMPTY_METADATA_HASH, protocolHash } from '../../src/kernel/index.js';
import { type ModelRequest, ScriptedModel } from '../../src/models/index.js';
import { RELAY_SESSION } from '../../src/relay/index.js';
import { note } from '../helpers/canon.js';
import { replayableRuntime } from '../helpers/evolution.js';
import { readRepoJson } from '../helpers/runtime.js';
import { postgresAvailable } from '../helpers/stores.js';

const HOME = 'air-home';
const PILOT = 'air-pilot';
const OWNER = {
  actor: 'owner-1',
  authority: { principal: 'owner-1', role: 'owner' },
  role: 'owner',
} as const;
const agent = (project: string): Principal => ({ id: 'agent-1', project, role: 'agent' });
const DEFAULT_AIR = { mode: 'adaptive', iap_budget: 512 };

let runtime: CanonryRuntime;
let close: () => Promise<void>;

async function open(engine: 'sqlite' | 'postgres'): Promise<void> {
  // One recorded, signed, replayable verdict: what a candidate's replay validation re-executes.
  ({ runtime, close } = await replayableRuntime(engine));
  // The pilot's owner admits the home project's promotions (a canary naming it reaches it).
  await runtime.promotions.admit(PILOT, OWNER, HOME, true);
}

const SECTIONS = ['Install', 'Operate', 'Scale'];

/**
 * A model that keeps the state when AIR's quality packet reminds it to (the prompt carries the
 * packet under adaptive or aggressive AIR) and forgets earlier facts when nothing does.
 */
function heedfulModel(): ScriptedModel {
  let n = 0;
  const fact = (i: number) => ({
    fact_id: `f_${i}`,
    statement: `section ${i} listens on port 80${i}`,
    provenance: 'CONVERSATION',
    provenance_ref: null,
    confidence: 0.9,
    supersedes: [],
  });
  return new ScriptedModel([
    {
      match: () => true,
      respond: (request: ModelRequest) => {
        n += 1;
        const reminded = request.messages.some((m) => m.content.includes('AIR QUALITY PACKET'));
        const facts = reminded ? Array.from({ length: n }, (_, i) => fact(i + 1)) : [fact(n)];
        return JSON.stringify({
          output: `${SECTIONS[n - 1]}: section ${n} listens on port 80${n}.`,
          facts,
          decisions: [],
          open_questions: [],
          resolved_questions: [],
          constraints: [],
          completed: [SECTIONS[n - 1]],
          invalidates: [],
          tool_results: [],
        });
      },
    },
  ]);
}

/** A DOCUMENT session of three windows in `project`, run to the end; its record as started. */
async function session(project: string, input: Record<string, unknown> = {}) {
  const who = agent(project);
  const { session } = await runtime.relay.start(who, {
    mode: 'DOCUMENT',
    objective: 'A runbook',
    remaining: SECTIONS,
    ...input,
  });
  await runtime.relay.run(who, session.session_id, heedfulModel(), { maxWindows: 3 });
  return session;
}

const airCandidate = (id: string, artifact: JsonObject, minSamples: number) => ({
  promotion_id: id,
  artifact_kind: 'air_settings',
  artifact,
  baseline: null,
  canary: { share: 0, projects: [PILOT] },
  metric: { name: 'preservation', margin: 0.05, min_samples: minSamples },
  replay_events: ['v1'],
});

async function steps(project: string, id: string) {
  const entries = await runtime.journal.read(project, { limit: 1000 });
  return entries.filter(
    (e) => PROMOTION_ENTRY.is(e) && (e.body as { promotion_id: string }).promotion_id === id,
  );
}

const ENGINES = ['sqlite', ...(postgresAvailable ? ['postgres' as const] : [])] as const;

describe.each(ENGINES)('promoted and canary artifacts in force, on %s', (engine) => {
  beforeEach(() => open(engine));
  afterEach(() => close());

  it('a worse AIR candidate rolls back on its own from the windows its sessions complete; new sessions leave it', async () => {
    const runner = runtime.promotions;
    const c = airCandidate('air-off', { mode: 'off', iap_budget: 512 }, 6);
    await runner.propose(HOME, OWNER, c);
    expect((await runner.advance(HOME, OWNER, c.promotion_id)).stage).toBe('canary');

    // The named project's sessions run the candidate; the promotion's own, the baseline.
    const canary = [await session(PILOT), await session(PILOT)];
    const baseline = [await session(HOME), await session(HOME)];
    const address = contentHash(c.artifact);
    for (const s of canary) {
      expect(s.air).toEqual(c.artifact);
      expect(s.promotion).toEqual({
        promotion_id: 'air-off',
        project: HOME,
        arm: 'canary',
        address,
      });
    }
    for (const s of baseline) {
      expect(s.air).toEqual(DEFAULT_AIR);
      expect(s.promotion).toMatchObject({ arm: 'baseline', address: contentHash(DEFAULT_AIR) });
    }
    // A request that sets AIR itself runs what it set, in no arm.
    const own = await session(PILOT, { air_mode: 'passive' });
    expect(own.air).toEqual({ mode: 'passive', iap_budget: 512 });
    expect(own.promotion).toBeUndefined();

    await runtime.canaries.idle();
    const done = await runner.get(HOME, c.promotion_id);
    expect(done.stage).toBe('rolled_back');
    expect(done.reason).toMatch(/^preservation .* below the baseline/);
    expect(done.arms.canary.samples).toBe(6);
    expect(done.arms.baseline.samples).toBe(6);
    // A forgetful session's window 1 keeps all there was (nothing); windows 2 and 3 none of it.
    expect(done.arms.canary.sum / 6).toBeCloseTo(1 / 3, 9);
    expect(done.arms.baseline.sum / 6).toBe(1);
    const entries = await steps(HOME, c.promotion_id);
    const observed = entries.filter(
      (e) => (e.body as { step: PromotionStep }).step.step === 'observe',
    );
    expect(observed).toHaveLength(12);
    expect(observed.every((e) => e.actor === CANARY_ACTOR)).toBe(true);
    expect(observed[0]!.idempotency_key).toMatch(
      /^canary:air-off:air-(home|pilot):rs-[0-9a-f]{16}:[1-3]$/,
    );
    expect(entries.at(-1)!.actor).toBe(CANARY_ACTOR);
    expect((entries.at(-1)!.body as { step: PromotionStep }).step).toMatchObject({
      step: 'roll_back',
      automatic: true,
    });

    // Rolled back: a new session of the named project runs the defaults, under no promotion, and
    // its windows are no sample.
    const after = await session(PILOT);
    expect(after.air).toEqual(DEFAULT_AIR);
    expect(after.promotion).toBeUndefined();
    await runtime.canaries.idle();
    expect(await steps(HOME, c.promotion_id)).toHaveLength(entries.length);

    // Rebuilt from the journal, the sessions say the same, and the promotion's stage is the same.
    await rebuildProject(runtime.journal, PILOT);
    const row = await runtime.relay.reader(PILOT).session(canary[0]!.session_id);
    expect(row?.session.promotion).toEqual(canary[0]!.promotion);
    const view = await runtime.relay.state(agent(PILOT), canary[0]!.session_id);
    expect(view.session.promotion?.arm).toBe('canary');
  });

  it('a good candidate is promoted on its own and new sessions use it; a restart neither loses nor recounts a sample', async () => {
    const runner = runtime.promotions;
    const good = { mode: 'aggressive', iap_budget: 1024 };
    const c = airCandidate('air-aggressive', good, 6);
    await runner.propose(HOME, OWNER, c);
    await runner.advance(HOME, OWNER, c.promotion_id);

    // The collector is down while the canary's windows complete (a crash, a restart).
    await runtime.canaries.stop();
    await session(HOME);
    await session(HOME);
    await session(PILOT);
    expect((await runner.get(HOME, c.promotion_id)).arms.canary.samples).toBe(0);
    // Back up, from its saved cursor: nothing lost.
    const again = new CanaryCollector({
      journal: runtime.journal,
      runner,
      readers: [relayWindowSamples(runtime.relay)],
    });
    await again.start();
    await again.idle();
    await again.stop();
    const midway = await runner.get(HOME, c.promotion_id);
    expect(midway.stage).toBe('canary'); // 3 canary samples of 6
    expect(midway.arms).toEqual({
      canary: { samples: 3, sum: 3, observations: 3 },
      baseline: { samples: 6, sum: 6, observations: 6 },
    });
    // A collector that reads every entry again (no cursor) counts nothing twice.
    const recount = new CanaryCollector({
      journal: runtime.journal,
      runner,
      readers: [relayWindowSamples(runtime.relay)],
      name: 'canary-recount',
    });
    await recount.start();
    await recount.idle();
    await recount.stop();
    expect((await runner.get(HOME, c.promotion_id)).arms).toEqual(midway.arms);

    await session(PILOT);
    await recount.start();
    await recount.idle();
    await recount.stop();
    const done = await runner.get(HOME, c.promotion_id);
    expect(done.stage).toBe('promoted');
    expect(done.reason).toMatch(/holds against the baseline/);

    // Promoted: every new session it reaches runs it, in no arm but under the promotion.
    for (const project of [HOME, PILOT]) {
      const s = await session(project);
      expect(s.air).toEqual(good);
      expect(s.promotion).toEqual({
        promotion_id: 'air-aggressive',
        project: HOME,
        arm: 'promoted',
        address: contentHash(good),
      });
    }
    // A project it does not reach keeps the defaults.
    expect((await session('air-elsewhere')).promotion).toBeUndefined();
    // Rolled back by hand: the defaults again.
    await runner.rollBack(HOME, OWNER, c.promotion_id, 'an incident');
    const back = await session(HOME);
    expect(back.air).toEqual(DEFAULT_AIR);
    expect(back.promotion).toBeUndefined();
  });

  it('a relay.session entry of version 1 (before promotions) still reads, as a session under none', async () => {
    const started = await session(HOME, { air_mode: 'adaptive' });
    const { promotion: _none, ...record } = started;
    const v1 = RELAY_SESSION.previous[0]!;
    const older = { ...record, session_id: 'rs-00000000000000aa' };
    await runtime.journal.append(HOME, v1.input({ session: older }, { actor: 'agent-1' }));
    const row = await runtime.relay.reader(HOME).session(older.session_id);
    expect(row?.session).toEqual(older);
    await rebuildProject(runtime.journal, HOME);
    const rebuilt = await runtime.relay.reader(HOME).session(older.session_id);
    expect(rebuilt?.session).toEqual(older);
    expect(rebuilt?.session.promotion).toBeUndefined();
  });

  it('an AIR candidate judged by a metric no window measures is refused by the checks', async () => {
    const c = {
      ...airCandidate('air-iq', DEFAULT_AIR, 5),
      metric: { name: 'latency', margin: 0.1, min_samples: 5 },
    };
    await runtime.promotions.propose(HOME, OWNER, c);
    const state = await runtime.promotions.advance(HOME, OWNER, c.promotion_id);
    expect(state).toMatchObject({ stage: 'rejected', rejected_at: 'policy' });
    expect(state.reason).toMatch(
      /measured by preservation, quality, verified, session_iq, not latency/,
    );
  });

  it('a gate policy in its canary judges the named project; promoted, every project it reaches; rolled back, none', async () => {
    // A stricter gate: an agent's new note waits for a person.
    const strict = {
      ...DEFAULT_GATE_PROTOCOL,
      version: '9.0',
      rules: [
        { label: 'REQUIRE_CONFIRMATION', condition: { '==': [{ var: 'role' }, 'agent'] } },
        ...DEFAULT_GATE_PROTOCOL.rules,
      ],
    } as unknown as JsonObject;
    const c = {
      promotion_id: 'gate-strict',
      artifact_kind: 'gate_policy',
      artifact: strict,
      baseline: protocolHash(DEFAULT_GATE_PROTOCOL),
      canary: { share: 0, projects: [PILOT] },
      metric: { name: 'upheld', margin: 0.05, min_samples: 5 },
      replay_events: ['v1'],
    };
    const runner = runtime.promotions;
    await runner.propose(HOME, OWNER, c);
    expect((await runner.advance(HOME, OWNER, c.promotion_id)).stage).toBe('canary');
    let n = 0;
    const propose = async (project: string) => {
      n += 1;
      const outcome = await runtime.canon.propose(agent(project), {
        object_id: `note.${n}`,
        intent: 'create',
        base_version: null,
        candidate: note({ title: `note ${n}`, text: `Fact number ${n}.` }),
      });
      return outcome.proposal.gate;
    };
    const strictHash = protocolHash(strict as never);
    const inPilot = await propose(PILOT);
    expect(inPilot).toMatchObject({ label: 'REQUIRE_CONFIRMATION', protocol_hash: strictHash });
    const inHome = await propose(HOME);
    expect(inHome).toMatchObject({
      label: 'AUTO_COMMIT',
      protocol_hash: protocolHash(DEFAULT_GATE_PROTOCOL),
    });
    // The verdict resolves from the registry (its protocol was registered when first used).
    expect((await runtime.kernel.registry.get(strictHash)).hash).toBe(strictHash);

    await runner.promote(HOME, OWNER, c.promotion_id, 'the pilot team signed off');
    expect((await propose(HOME)).protocol_hash).toBe(strictHash);
    expect((await propose(PILOT)).protocol_hash).toBe(strictHash);
    expect((await propose('gate-elsewhere')).label).toBe('AUTO_COMMIT');

    await runner.rollBack(HOME, OWNER, c.promotion_id, 'too many holds');
    expect(await propose(PILOT)).toMatchObject({
      label: 'AUTO_COMMIT',
      protocol_hash: protocolHash(DEFAULT_GATE_PROTOCOL),
    });
  });

  it('a protocol version that drifts where its baseline decides rolls back on its own, measured from the verdicts', async () => {
    const refund = readRepoJson('examples/refund/protocol.json') as Record<string, unknown>;
    const rules = refund.rules as JsonObject[];
    // Drops the middle rule and narrows the catch-all: 80 now matches nothing (drift); 20 is unchanged.
    const drifting = {
      ...refund,
      version: '2.0',
      rules: [rules[0], { label: 'BLOCK', condition: { '>': [{ var: 'amount' }, 1000] } }],
    } as JsonObject;
    const slug = refund.slug as string;
    const c = {
      promotion_id: 'proto-drift',
      artifact_kind: 'agentic_protocol',
      artifact: drifting,
      baseline: protocolHash(refund as never),
      canary: { share: 0, projects: [PILOT] },
      metric: { name: 'drift_free', margin: 0.05, min_samples: 3 },
      replay_events: ['v1'],
    };
    const runner = runtime.promotions;
    await runner.propose(HOME, OWNER, c);
    expect((await runner.advance(HOME, OWNER, c.promotion_id)).stage).toBe('canary');
    const validateIn = async (project: string, amount: number) => {
      const protocol = await runtime.protocolInForce(project, slug);
      if (protocol === null) return null;
      return runtime.kernel.evaluate({ amount }, protocol, EMPTY_METADATA_HASH).verdict.class;
    };
    // The pilot runs the candidate and drifts at 80; the home project runs the baseline and decides.
    for (let i = 0; i < 3; i++) {
      expect(await validateIn(PILOT, 80)).toBe('INTERPRETATION_DRIFT');
      expect(await validateIn(HOME, 80)).toBe('CONFORMANT');
    }
    await runtime.kernel.flushAudit();
    await runtime.canaries.idle();

    const state = await runner.get(HOME, c.promotion_id);
    expect(state.stage).toBe('rolled_back');
    expect(state.arms).toEqual({
      canary: { samples: 3, sum: 0, observations: 3 },
      baseline: { samples: 3, sum: 3, observations: 3 },
    });
    const entries = (await runtime.journal.read(HOME, { limit: 1000 })).filter(
      (e) =>
        PROMOTION_ENTRY.is(e) &&
        (e.body as { promotion_id: string }).promotion_id === c.promotion_id,
    );
    const observed = entries.filter(
      (e) => (e.body as { step: PromotionStep }).step.step === 'observe',
    );
    expect(observed).toHaveLength(6);
    expect(observed.every((e) => e.actor === CANARY_ACTOR)).toBe(true);
    expect(observed[0]!.idempotency_key).toMatch(/^canary:proto-drift:kernel:\d+:\d+$/);
    // Rolled back: nothing of that slug is in force for the pilot any more.
    expect(await runtime.protocolInForce(PILOT, slug)).toBeNull();
  });

  it('another project is reached only while its owner admits the promoting project: sessions, proposals, withdrawal, rebuild', async () => {
    const OTHER = 'air-other';
    const otherOwner = { ...OWNER, actor: 'other-owner' };
    const runner = runtime.promotions;
    const air = { ...airCandidate('air-q', { mode: 'passive', iap_budget: 64 }, 1000) };
    const named = { ...air, canary: { share: 0, projects: [OTHER] } };

    // Not admitted: refused at start, nothing journaled.
    const head = async () =>
      (await runtime.journal.projects()).find((h) => h.project === HOME)?.seq ?? 0;
    const before = await head();
    await expect(runner.propose(HOME, OWNER, named)).rejects.toMatchObject({
      code: 'FORBIDDEN',
      details: { projects: [OTHER] },
    });
    expect(await head()).toBe(before);
    // Only the other project's owner admits: its editor may not.
    await expect(
      runner.admit(OTHER, { actor: 'other-editor', role: 'editor' }, HOME, true),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await runner.admit(OTHER, otherOwner, HOME, true);
    await runner.propose(HOME, OWNER, named);
    expect((await runner.advance(HOME, OWNER, named.promotion_id)).stage).toBe('canary');

    // A gate canary naming the same project, by HOME's owner.
    const strict = {
      ...DEFAULT_GATE_PROTOCOL,
      version: '9.2',
      rules: [
        { label: 'REQUIRE_CONFIRMATION', condition: { '==': [{ var: 'role' }, 'agent'] } },
        ...DEFAULT_GATE_PROTOCOL.rules,
      ],
    } as unknown as JsonObject;
    const gate = {
      promotion_id: 'gate-q',
      artifact_kind: 'gate_policy',
      artifact: strict,
      baseline: protocolHash(DEFAULT_GATE_PROTOCOL),
      canary: { share: 0, projects: [OTHER] },
      metric: { name: 'upheld', margin: 0.05, min_samples: 5 },
      replay_events: ['v1'],
    };
    await runner.propose(HOME, OWNER, gate);
    expect((await runner.advance(HOME, OWNER, gate.promotion_id)).stage).toBe('canary');
    let n = 0;
    const propose = async () => {
      n += 1;
      const outcome = await runtime.canon.propose(agent(OTHER), {
        object_id: `note.q${n}`,
        intent: 'create',
        base_version: null,
        candidate: note({ title: `note ${n}`, text: `Fact number ${n}.` }),
      });
      return outcome.proposal.gate;
    };
    const start = async () =>
      (
        await runtime.relay.start(agent(OTHER), {
          mode: 'DOCUMENT',
          objective: 'A runbook',
          remaining: SECTIONS,
        })
      ).session;

    // Admitted: the other project's new sessions and proposals are reached.
    const admittedSession = await start();
    expect(admittedSession.air).toEqual(named.artifact);
    expect(admittedSession.promotion).toMatchObject({ promotion_id: 'air-q', arm: 'canary' });
    expect((await propose()).protocol_hash).toBe(protocolHash(strict as never));

    // Withdrawn: at once, new sessions and proposals are not reached; a session already started
    // keeps the arm it recorded.
    await runner.admit(OTHER, otherOwner, HOME, false);
    const after = await start();
    expect(after.air).toEqual(DEFAULT_AIR);
    expect(after.promotion).toBeUndefined();
    expect(await propose()).toMatchObject({
      label: 'AUTO_COMMIT',
      protocol_hash: protocolHash(DEFAULT_GATE_PROTOCOL),
    });
    const kept = await runtime.relay.reader(OTHER).session(admittedSession.session_id);
    expect(kept?.session.promotion).toEqual(admittedSession.promotion);
    // HOME is still reached by its own promotion (its own project, in the baseline arm).
    const home = await runtime.relay.start(agent(HOME), {
      mode: 'DOCUMENT',
      objective: 'A runbook',
      remaining: SECTIONS,
    });
    expect(home.session.promotion).toMatchObject({ promotion_id: 'air-q', arm: 'baseline' });

    // Promoted while not admitted: still not reached; admitted again: reached.
    await runner.promote(HOME, OWNER, gate.promotion_id, 'signed off');
    expect((await propose()).label).toBe('AUTO_COMMIT');
    await runner.admit(OTHER, otherOwner, HOME, true);
    expect((await propose()).protocol_hash).toBe(protocolHash(strict as never));
    expect((await start()).promotion).toMatchObject({ promotion_id: 'air-q', arm: 'canary' });

    // Rebuilt from the other project's journal, its admissions are what they were.
    const standing = await runner.admissions(OTHER);
    expect(standing).toEqual([{ from_project: HOME, admitted: true, seq: expect.any(Number) }]);
    await runtime.store.run('DELETE FROM evolution_admissions WHERE project = $1', [OTHER]);
    expect(await runner.admissions(OTHER)).toEqual([]);
    await rebuildProject(runtime.journal, OTHER);
    expect(await runner.admissions(OTHER)).toEqual(standing);
    expect(await verifyProjections(runtime.journal, OTHER)).toMatchObject({ mismatch: null });
  });

  it('a gate canary drawn by share is refused: a gate has no sessions to draw from', async () => {
    const c = {
      promotion_id: 'gate-share',
      artifact_kind: 'gate_policy',
      artifact: DEFAULT_GATE_PROTOCOL as unknown as JsonObject,
      baseline: null,
      canary: { share: 0.1, projects: [] },
      metric: { name: 'upheld', margin: 0.05, min_samples: 5 },
      replay_events: ['v1'],
    };
    await runtime.promotions.propose(HOME, OWNER, c);
    const state = await runtime.promotions.advance(HOME, OWNER, c.promotion_id);
    expect(state).toMatchObject({ stage: 'rejected', rejected_at: 'policy' });
    expect(state.reason).toMatch(/a gate canary names its projects/);
  });
});

describe('placing a session among active promotions (pure)', () => {
  const active = (
    id: string,
    stage: 'canary' | 'promoted',
    since: string,
    artifact: JsonObject,
    canary = { share: 0.5, projects: [] as string[] },
  ): ActivePromotion => ({
    project: HOME,
    promotion_id: id,
    stage,
    address: contentHash(artifact),
    since,
    admitted: [],
    candidate: {
      promotion_id: id,
      artifact_kind: 'air_settings',
      artifact,
      baseline: null,
      canary,
      metric: { name: 'quality', margin: 0.05, min_samples: 5 },
      replay_events: ['v1'],
    },
  });
  const promoted = active('p', 'promoted', '2025-01-01T00:00:00.000Z', {
    mode: 'passive',
    iap_budget: 128,
  });
  const canary = active('c', 'canary', '2025-02-01T00:00:00.000Z', { mode: 'off', iap_budget: 0 });

  it('a share splits the own project by session id; the baseline arm runs what is promoted', () => {
    const ids = Array.from({ length: 400 }, (_, i) => `rs-${i.toString(16).padStart(16, '0')}`);
    const placed = ids.map((id) =>
      placeSession([promoted, canary], { project: HOME, session_id: id }),
    );
    const inside = placed.filter((p) => p?.arm === 'canary');
    expect(inside.length / ids.length).toBeGreaterThan(0.4);
    expect(inside.length / ids.length).toBeLessThan(0.6);
    for (const [i, p] of placed.entries()) {
      const expected = inCanary(canary.candidate.canary, 'c', {
        project: HOME,
        session_id: ids[i]!,
      });
      expect(p).toMatchObject(
        expected
          ? { arm: 'canary', artifact: canary.candidate.artifact, promotion: { promotion_id: 'c' } }
          : {
              arm: 'baseline',
              artifact: promoted.candidate.artifact,
              promotion: { promotion_id: 'c' },
            },
      );
    }
    // Another project is reached by neither; without the canary, the promoted one is in force.
    expect(placeSession([promoted, canary], { project: 'other', session_id: ids[0]! })).toBeNull();
    expect(placeSession([promoted], { project: HOME, session_id: ids[0]! })).toMatchObject({
      arm: 'promoted',
      address: promoted.address,
    });
  });

  it('of two promoted artifacts, the newer is in force', () => {
    const newer = active('n', 'promoted', '2025-03-01T00:00:00.000Z', {
      mode: 'aggressive',
      iap_budget: 64,
    });
    expect(
      placeSession([promoted, newer], { project: HOME, session_id: 'rs-1' })?.promotion
        .promotion_id,
    ).toBe('n');
    expect(
      placeSession([newer, promoted], { project: HOME, session_id: 'rs-1' })?.promotion
        .promotion_id,
    ).toBe('n');
  });

  it('a named project is reached only when it admits the promotion: sessions, proposals, the collector', () => {
    const named = { share: 0, projects: ['q'] };
    const unadmitted = active('u', 'canary', '2025-02-01T00:00:00.000Z', DEFAULT_AIR, named);
    const admitted = { ...unadmitted, admitted: ['q'] };
    expect(reaches(unadmitted, 'q')).toBe(false);
    expect(reaches(unadmitted, HOME)).toBe(true);
    expect(reachedProjects(unadmitted)).toEqual([HOME]);
    expect(placeSession([unadmitted], { project: 'q', session_id: 'rs-1' })).toBeNull();
    expect(placeProject([unadmitted], 'q')).toBeNull();
    expect(reaches(admitted, 'q')).toBe(true);
    expect(reachedProjects(admitted)).toEqual([HOME, 'q']);
    expect(placeSession([admitted], { project: 'q', session_id: 'rs-1' })).toMatchObject({
      arm: 'canary',
    });
    expect(placeProject([admitted], 'q')).toMatchObject({ arm: 'canary' });
    // Promoted, the same: an unadmitted project keeps its own.
    const promotedU = { ...unadmitted, stage: 'promoted' as const };
    expect(placeProject([promotedU], 'q')).toBeNull();
    expect(placeProject([{ ...promotedU, admitted: ['q'] }], 'q')).toMatchObject({
      arm: 'promoted',
    });
  });
});
