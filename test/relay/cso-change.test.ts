import { describe, expect, it } from 'vitest';
import { DEFAULT_AIR_POLICY, initialAirState } from '../../src/air/index.js';
import { canonicalize } from '../../src/core/index.js';
import type { JournalEntry } from '../../src/journal/index.js';
import { applyChange, csoChange } from '../../src/relay/cso-change.js';
import { checkReferencesAfter } from '../../src/relay/cso-check.js';
import { csoDigest } from '../../src/relay/cso-digest.js';
import { sealCso } from '../../src/relay/cso-seal.js';
import { RELAY_WINDOW, windowEntryOf } from '../../src/relay/entry-kinds.js';
import { DependencyIndex, normaliseEdges } from '../../src/relay/graph.js';
import { rememberStep, stepDelta, stepGraph } from '../../src/relay/graph-delta.js';
import { type MergeContext, mergeContribution } from '../../src/relay/merge.js';
import type {
  CognitiveStateObject,
  Contribution,
  DecisionContribution,
  EstablishedFact,
  FactContribution,
  ToolResult,
} from '../../src/relay/types.js';
import { verifyCso } from '../../src/relay/verify.js';
import { rng } from '../helpers/rng.js';
import { contribution, etcd, fact, GENESIS, GOAL, SESSION, seal } from './cso-fixtures.js';

const ctx = (window_number: number): MergeContext => ({
  session_id: SESSION.session_id,
  window_number,
  genesis: GENESIS,
  goal_state: GOAL,
});

/** A random window over `prior`: restates most facts, drops some, supersedes, invalidates, revises. */
function randomContribution(
  r: ReturnType<typeof rng>,
  prior: CognitiveStateObject | null,
  n: number,
): Contribution {
  const priorFacts = prior?.established_facts ?? [];
  const priorDecisions = prior?.decisions ?? [];
  const facts: FactContribution[] = priorFacts
    .filter(() => r.chance(0.8))
    .map((f) => ({ fact_id: f.fact_id, statement: f.statement, provenance: f.provenance }));
  const ids = priorFacts.map((f) => f.fact_id);
  for (let i = 0; i < r.int(1, 6); i++) {
    const derived = ids.length > 0 && r.chance(0.3);
    facts.push({
      fact_id: `w${n}f${i}`,
      statement: `observation ${n}.${i}: ${r.int(1, 1e6)}`,
      ...(derived ? { provenance: 'DERIVED' as const, provenance_ref: r.pick(ids) } : {}),
      ...(ids.length > 0 && r.chance(0.15) ? { supersedes: [r.pick(ids)] } : {}),
    });
  }
  const on = [...ids, ...priorDecisions.map((d) => d.decision_id)];
  const decisions: DecisionContribution[] = [];
  for (let i = 0; i < r.int(0, 3); i++) {
    decisions.push({
      decision_id: `w${n}d${i}`,
      choice: `choice ${n}.${i}`,
      rationale: 'because',
      depends_on: on.length > 0 ? [...new Set([r.pick(on), r.pick(on)])] : [],
    });
  }
  const flagged = priorDecisions.filter((d) => d.needs_revision && d.revisable);
  if (flagged.length > 0 && r.chance(0.5)) {
    const target = r.pick(flagged);
    decisions.push({
      decision_id: `w${n}rev`,
      choice: `${target.choice}, revised`,
      rationale: 'the premise changed',
      depends_on: ids.length > 0 ? [r.pick(ids)] : [],
      revises: target.decision_id,
    });
  }
  return {
    facts,
    decisions,
    open_questions: r.chance(0.3) ? [`question ${n}`] : [],
    resolved_questions: [],
    constraints: [],
    completed: [],
    invalidates: ids.length > 0 && r.chance(0.2) ? [r.pick(ids)] : [],
    tool_results: toolResults(r, priorFacts, n),
  };
}

/** New tool results, and now and then a prior one refreshed with another value (§8.3). */
function toolResults(
  r: ReturnType<typeof rng>,
  priorFacts: readonly { provenance: string; provenance_ref: string }[],
  n: number,
): ToolResult[] {
  const out: ToolResult[] = [];
  if (r.chance(0.3)) {
    out.push({
      scratch_id: `scratch-${n}`,
      tool: 'probe',
      result_hash: `sha256:${'a'.repeat(63)}${n % 10}`,
      summary: `probe reading ${n}: ${r.int(1, 1e6)}`,
    });
  }
  const tools = priorFacts.filter((f) => f.provenance === 'TOOL');
  if (tools.length > 0 && r.chance(0.3)) {
    out.push({
      scratch_id: r.pick(tools).provenance_ref,
      tool: 'probe',
      result_hash: `sha256:${'b'.repeat(63)}${n % 10}`,
      summary: `probe reading refreshed in window ${n}`,
    });
  }
  return out;
}

describe('a window journals its change; folding the changes gives every CSO back', () => {
  it('fold(change) = the sealed state, and the incremental steps equal a build from scratch', () => {
    // What the windows went through, so the test is known to reach the paths it means to.
    const seen = { toolFacts: 0, refreshed: 0, repaired: 0, flagged: 0 };
    for (let seed = 1; seed <= 12; seed++) {
      const r = rng(seed);
      let prior: CognitiveStateObject | null = null;
      let folded: CognitiveStateObject | null = null;
      for (let n = 1; n <= 12; n++) {
        const merged = mergeContribution(prior, randomContribution(r, prior, n), ctx(n));
        // The draft's graph, stepped from the prior's with what the merge knows it changed.
        expect(canonicalize(merged.draft.dependency_graph)).toBe(
          canonicalize(normaliseEdges(merged.draft, [])),
        );
        const uncapturedClaims = r.chance(0.3) ? [`claim ${n}`] : [];
        const { cso, verification } = verifyCso(prior, merged.draft, {
          uncapturedClaims,
          retired: merged.retired,
        });
        // The same verification from a draft verifyCso cannot recognise (a copy): from scratch.
        const slow = verifyCso(
          prior,
          { ...merged.draft },
          {
            uncapturedClaims,
            retired: merged.retired,
          },
        );
        expect(canonicalize(slow)).toBe(canonicalize({ cso, verification }));
        if (!verification.verified) break;
        expect(canonicalize(cso.dependency_graph)).toBe(
          canonicalize(normaliseEdges(cso, cso.dependency_graph)),
        );
        const sealed = sealCso(cso, seal);
        expect(DependencyIndex.of(sealed).depth()).toBe(
          DependencyIndex.fromEdges(sealed.dependency_graph).depth(),
        );
        const change = csoChange(prior, sealed);
        // Through JSON, as the journal holds it.
        folded = applyChange(folded, JSON.parse(canonicalize(change)));
        expect(canonicalize(folded)).toBe(canonicalize(sealed));
        expect(Buffer.from(csoDigest(folded)).equals(Buffer.from(csoDigest(sealed)))).toBe(true);
        if (prior) {
          // A change is what changed: never more items than the window put in or took out.
          const carried = sealed.established_facts.filter((f) =>
            prior!.established_facts.includes(f),
          ).length;
          expect(change.established_facts.put.length).toBe(
            sealed.established_facts.length - carried,
          );
          expect(change.base).toBe('prior');
        }
        seen.toolFacts += sealed.established_facts.filter((f) => f.provenance === 'TOOL').length;
        seen.refreshed += merged.invalidated.filter((id) => id.startsWith('scratch-')).length;
        seen.repaired += verification.repaired.length;
        seen.flagged += merged.flagged.length;
        prior = sealed;
      }
    }
    expect(seen.toolFacts).toBeGreaterThan(10);
    expect(seen.refreshed).toBeGreaterThan(2);
    expect(seen.repaired).toBeGreaterThan(10);
    expect(seen.flagged).toBeGreaterThan(2);
  });

  it('journals a list that lost its order whole (base empty), and folds it back', () => {
    const r = rng(99);
    let prior: CognitiveStateObject | null = null;
    for (let n = 1; n <= 3; n++) {
      const merged = mergeContribution(prior, randomContribution(r, prior, n), ctx(n));
      prior = sealCso(
        verifyCso(prior, merged.draft, { uncapturedClaims: [], retired: merged.retired }).cso,
        seal,
      );
    }
    const reordered = { ...prior!, established_facts: [...prior!.established_facts].reverse() };
    const change = csoChange(prior, reordered);
    expect(change.base).toBe('empty');
    expect(canonicalize(applyChange(prior, change))).toBe(canonicalize(reordered));
  });
});

describe('a list is journaled as a change exactly when it keeps the prior order', () => {
  /** The oracle: the prior's items still listed come in the prior's order, before any new one. */
  const keepsOrder = (
    prior: readonly { fact_id: string }[],
    next: readonly { fact_id: string }[],
  ) => {
    const at = new Map(prior.map((f, i) => [f.fact_id, i]));
    let last = -1;
    let fresh = false;
    for (const f of next) {
      const i = at.get(f.fact_id);
      if (i === undefined) fresh = true;
      else if (fresh || i < last) return false;
      else last = i;
    }
    return true;
  };

  it('moves, insertions, removals and replacements anywhere: base prior iff the order holds, and the fold is the list', () => {
    const r = rng(7);
    let prior: CognitiveStateObject | null = null;
    for (let n = 1; n <= 4; n++) {
      const merged = mergeContribution(prior, randomContribution(r, prior, n), ctx(n));
      prior = sealCso(
        verifyCso(prior, merged.draft, { uncapturedClaims: [], retired: merged.retired }).cso,
        seal,
      );
    }
    const base = prior!;
    let asChanges = 0;
    for (let run = 0; run < 400; run++) {
      const facts = [...base.established_facts];
      for (let k = r.int(0, 3); k > 0; k--) {
        const op = r.int(0, 4);
        const i = r.int(0, Math.max(0, facts.length - 1));
        if (op === 0 && facts.length > 0) facts.splice(i, 1);
        else if (op === 1)
          facts.splice(r.int(0, facts.length), 0, fact(`new-${run}-${k}`, `new ${k}`));
        else if (op === 2 && facts.length > 0)
          facts.splice(i, 1, { ...facts[i]!, confidence: 0.5 });
        else if (op === 3 && facts.length > 1) {
          const [moved] = facts.splice(i, 1);
          facts.splice(r.int(0, facts.length), 0, moved!);
        } else facts.push(fact(`tail-${run}-${k}`, `tail ${k}`));
      }
      const next = { ...base, established_facts: facts };
      const change = csoChange(base, next);
      const holds = keepsOrder(base.established_facts, facts);
      expect(change.base).toBe(holds ? 'prior' : 'empty');
      if (holds) asChanges++;
      const folded = applyChange(base, JSON.parse(canonicalize(change)));
      expect(canonicalize(folded.established_facts)).toBe(canonicalize(facts));
      if (holds) {
        // Only what is not the prior's object is put; only what left is removed.
        expect(change.established_facts.put).toEqual(
          facts.filter((f) => !base.established_facts.includes(f)),
        );
        const ids = new Set(facts.map((f) => f.fact_id));
        expect(change.established_facts.removed).toEqual(
          base.established_facts.filter((f) => !ids.has(f.fact_id)).map((f) => f.fact_id),
        );
      }
    }
    // Both outcomes were exercised.
    expect(asChanges).toBeGreaterThan(50);
    expect(asChanges).toBeLessThan(350);
  });
});

describe('relay.window version 1 entries (the whole CSO) still read', () => {
  it('as a change from nothing, sealed over canonical bytes', () => {
    const cso = etcd();
    const window = {
      session_id: SESSION.session_id,
      window_number: 1,
      kind: 'work',
      revision_target: null,
      cso,
      remaining: [],
      verification: {
        preservation: 1,
        repaired: [],
        broken_dependencies: {},
        uncaptured: [],
        verified: true,
      },
      invalidations: [],
      revisions: [],
      output: { text: '', hash: 'sha256:0', model: null },
      signals: { window_number: 1, claims: [], quality: 1 },
      quality: {
        policy: DEFAULT_AIR_POLICY,
        judge: 'deterministic',
        state: initialAirState(),
        packet: null,
        injection: null,
        tokens: 0,
      },
      headers: {},
    };
    expect(RELAY_WINDOW.kind).toBe('relay.window.v2');
    const entry = { kind: 'relay.window', seq: 7, body: { window } } as unknown as JournalEntry;
    const read = windowEntryOf(entry)!;
    expect(read.sealed_over).toBe('bytes');
    expect(read.state.base).toBe('empty');
    expect(read.status).toBe('complete');
    expect(canonicalize(applyChange(null, read.state))).toBe(canonicalize(cso));
    expect(windowEntryOf({ ...entry, kind: 'relay.halt' } as JournalEntry)).toBeNull();
  });
});

describe('the references of a CSO stepped from a checked one', () => {
  it('are checked for what is new, and for carried facts whose premise left', () => {
    const prior = etcd();
    const next = (more: Partial<CognitiveStateObject>) => ({ ...prior, window_number: 2, ...more });
    expect(() => checkReferencesAfter(prior, next({}))).not.toThrow();
    expect(() =>
      checkReferencesAfter(
        prior,
        next({
          established_facts: [
            ...prior.established_facts,
            fact('B', 'a fact under a decision id', { window_origin: 2 }),
          ],
        }),
      ),
    ).toThrow(/duplicate id B/);
    expect(() =>
      checkReferencesAfter(
        prior,
        next({
          established_facts: [
            ...prior.established_facts,
            fact('N', 'from the future', { window_origin: 3 }),
          ],
        }),
      ),
    ).toThrow(/\/established_facts\/1\/window_origin/);
    const derived = fact('D', 'derived from A', { provenance: 'DERIVED', provenance_ref: 'A' });
    const withDerived = sealCso(
      {
        ...prior,
        established_facts: [...prior.established_facts, derived],
        dependency_graph: normaliseEdges({
          ...prior,
          established_facts: [...prior.established_facts, derived],
        }),
      },
      seal,
    );
    // A is gone, D (carried, the same object) still rests on it.
    expect(() =>
      checkReferencesAfter(withDerived, {
        ...withDerived,
        window_number: 2,
        established_facts: [derived],
      }),
    ).toThrow(/names no fact: A/);
  });
});

describe('the references of a CSO through the delta of the step that made it', () => {
  it('give the verdicts of the whole check, looking only at what changed', () => {
    const etcdState = etcd();
    const derived = fact('D', 'derived from A', { provenance: 'DERIVED', provenance_ref: 'A' });
    const tool = fact('T', 'a tool reading', { provenance: 'TOOL', provenance_ref: 'scratch-1' });
    const withBoth = {
      ...etcdState,
      established_facts: [...etcdState.established_facts, derived, tool],
    };
    const prior = sealCso({ ...withBoth, dependency_graph: normaliseEdges(withBoth) }, seal);
    const stepped = (established_facts: EstablishedFact[], decisions = prior.decisions) => {
      const items = { established_facts, decisions };
      const step = stepGraph(prior, items, []);
      if (!step) throw new Error('the prior is in normal form');
      const next = { ...prior, window_number: 2, ...items, dependency_graph: step.graph };
      rememberStep(next, step, prior);
      const delta = stepDelta(next);
      expect(delta?.items).toBeTruthy();
      return () => checkReferencesAfter(prior, next, delta);
    };
    const [a, d, t] = prior.established_facts as [
      EstablishedFact,
      EstablishedFact,
      EstablishedFact,
    ];
    const later = { window_origin: 2 };
    expect(stepped([a, d, t, fact('N', 'a new fact', later)])).not.toThrow();
    // A left; D, carried (the same object), still rests on it.
    expect(stepped([d, t])).toThrow(/names no fact: A/);
    // A's id is now a decision's.
    const aDecision = {
      ...prior.decisions[0]!,
      decision_id: 'A',
      depends_on: [],
      window_origin: 2,
    };
    expect(stepped([d, t], [...prior.decisions, aDecision])).toThrow(/names no fact: A|duplicate/);
    // A new item under the scratch id a carried TOOL fact rests on, and a new TOOL fact on an item id.
    expect(stepped([a, d, t, fact('scratch-1', 'a clash', later)])).toThrow(
      /scratch id scratch-1 is also a fact id/,
    );
    expect(
      stepped([
        a,
        d,
        t,
        fact('U', 'a reading', { ...later, provenance: 'TOOL', provenance_ref: 'B' }),
      ]),
    ).toThrow(/scratch id B is also a decision id/);
    // A new DERIVED fact on a decision, and one from a later window.
    expect(
      stepped([
        a,
        d,
        t,
        fact('E', 'derived', { ...later, provenance: 'DERIVED', provenance_ref: 'B' }),
      ]),
    ).toThrow(/names no fact: B/);
    expect(stepped([a, d, t, fact('F', 'from the future', { window_origin: 3 })])).toThrow(
      /window_origin/,
    );
  });
});

describe('a graph step told what changed', () => {
  it('equals the step that looks at every item, and makes no id map of items that repeat an id', () => {
    const prior = etcd();
    const [a] = prior.established_facts as [EstablishedFact];
    const added = fact('N', 'a new fact', { window_origin: 2 });
    const items = { established_facts: [a, added], decisions: prior.decisions };
    const known = { fresh: { facts: [added], decisions: [] }, gone: [], byId: true };
    const told = stepGraph(prior, items, [], { known });
    const walked = stepGraph(prior, items, []);
    expect(told && canonicalize([told.graph, told.added, told.removed, told.gone])).toBe(
      walked && canonicalize([walked.graph, walked.added, walked.removed, walked.gone]),
    );
    expect([...(told?.byId?.keys() ?? [])]).toEqual([...(walked?.byId?.keys() ?? [])]);
    // A decision again under its id beside the prior's: the caller's word does not make an id map.
    const again = { ...prior.decisions[0]!, choice: 'the same id again' };
    const twice = { established_facts: [a], decisions: [...prior.decisions, again] };
    const fresh = { facts: [], decisions: [again] };
    expect(
      stepGraph(prior, twice, [], { known: { fresh, gone: [], byId: true } })?.byId,
    ).toBeNull();
    expect(stepGraph(prior, twice, [])?.byId).toBeNull();
  });
});

describe('sealing a state stepped from a sealed one checks what is new, with the same verdicts', () => {
  const stepped = () => {
    const r = rng(7);
    let prior: CognitiveStateObject | null = null;
    for (let n = 1; n <= 3; n++) {
      const merged = mergeContribution(prior, randomContribution(r, prior, n), ctx(n));
      const { cso } = verifyCso(prior, merged.draft, {
        uncapturedClaims: [],
        retired: merged.retired,
      });
      prior = sealCso(cso, seal);
    }
    const merged = mergeContribution(
      prior,
      contribution({ facts: [{ fact_id: 'fresh-1', statement: 'a new observation' }] }),
      ctx(4),
    );
    const { cso } = verifyCso(prior, merged.draft, {
      uncapturedClaims: [],
      retired: merged.retired,
    });
    const at = cso.established_facts.findIndex((f) => f.fact_id === 'fresh-1');
    expect(at).toBeGreaterThanOrEqual(0);
    return { cso, at, fresh: cso.established_facts[at] as unknown as Record<string, unknown> };
  };

  it('seals it, and refuses a new item that breaks the schema or a reference, naming its path', () => {
    expect(sealCso(stepped().cso, seal).window_number).toBe(4);
    const empty = stepped();
    empty.fresh.statement = ''; // changed in place: the step's record of it is the same object
    expect(() => sealCso(empty.cso, seal)).toThrow(
      expect.objectContaining({ details: { path: `/established_facts/${empty.at}/statement` } }),
    );
    const future = stepped();
    future.fresh.window_origin = 9;
    expect(() => sealCso(future.cso, seal)).toThrow(
      expect.objectContaining({
        details: { path: `/established_facts/${future.at}/window_origin` },
      }),
    );
    const hashed = stepped();
    hashed.fresh.result_hash = `sha256:${'0'.repeat(64)}`;
    expect(() => sealCso(hashed.cso, seal)).toThrow(/only a TOOL fact states a tool result/);
  });
});
