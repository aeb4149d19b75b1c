// @ts-check
/**
 * Asks every strategy a family scenario's question: the three baseline contexts answer by the rules
 * of baselines.js, canonry from the runtime the scenario was replayed through (canonry.js).
 */
import { countTokens } from 'canonry/core';
import { fullTranscript, retrieval, retrievalStore, rollingSummary } from '../strategies.js';
import { cascadeAnswer, currentAnswer, decidedAnswer, disputeAnswer } from './baselines.js';
import { affected, FamilyReplay, hedgedFired, needsRevision, STALE_ARTIFACT } from './canonry.js';

/** @param {number} n @param {number} d */
export const share = (n, d) => (d === 0 ? null : n / d);

/** The three baseline contexts of a scenario. @param {any} s */
function contexts(s) {
  const units = s.events.map((/** @type {any} */ e) => ({
    id: e.id,
    project: s.project,
    actor: e.actor,
    speaker: e.speaker,
    text: e.text,
  }));
  return {
    transcript: fullTranscript(units, s.project),
    summary: rollingSummary(units, s.project),
    retrieval: retrieval(retrievalStore(units), s.question),
  };
}

/** Every node of a cascade scenario, by id and title. @param {any} s */
const nodesOf = (s) => {
  /** @type {Map<string, string>} */
  const titles = new Map();
  for (const e of s.events) {
    if (e.kind === 'note') titles.set(e.object_id, e.candidate.title);
    if (e.kind === 'artifact') titles.set(e.artifact_id, e.title);
  }
  return [...titles].map(([id, title]) => ({ id, title }));
};

/** Scores a flagged set against the truth. @param {Set<string>} flagged @param {any} truth */
function cascadeScore(flagged, truth) {
  const should = new Set(truth.needs_revision.map((/** @type {any} */ x) => x.id));
  const hit = [...should].filter((id) => flagged.has(id));
  // By distance from the fact that moved (the depth the moving commit's receipt must name).
  const level = new Map(truth.receipt.map((/** @type {any} */ x) => [x.id, x.depth]));
  const byDepth = /** @type {Record<string, [number, number]>} */ ({});
  for (const x of truth.needs_revision.map((/** @type {any} */ x) => ({
    ...x,
    depth: level.get(x.id),
  }))) {
    const d = byDepth[x.depth] ?? [0, 0];
    byDepth[x.depth] = d;
    d[1]++;
    if (flagged.has(x.id)) d[0]++;
  }
  return {
    should: should.size,
    found: hit.length,
    flagged: flagged.size,
    falseFlags: [...flagged].filter((id) => !should.has(id)),
    byDepth,
  };
}

/** Asks every strategy the scenario's question. @param {any} s @param {FamilyReplay} replay */
export async function evaluate(s, replay) {
  const ctx = contexts(s);
  const t = s.truth;
  /** @type {Record<string, any>} */
  const answers = {};
  const view = await replay.view();
  const tokens = Object.fromEntries([
    ...Object.entries(ctx).map(([k, c]) => [k, countTokens(c.text)]),
    ['canonry', countTokens(view.capsule)],
  ]);
  // A refused approval is the answer the approval family asks for, not a failure of the replay.
  const answered = new Set(
    s.events
      .filter((/** @type {any} */ e) => e.kind === 'approve' && e.attempt !== 'acknowledged')
      .map((/** @type {any} */ e) => e.id),
  );
  const errors = [...replay.outcomes]
    .filter(([id, o]) => o.error && !answered.has(id))
    .map(([id, o]) => `${id} ${o.error}`);
  const current = (/** @type {string} */ id) => view.objects.find((o) => o.object_id === id);
  switch (s.family) {
    case 'cascade': {
      const all = nodesOf(s);
      const asked = t.items.map((/** @type {any} */ x) => x.id);
      for (const [k, c] of Object.entries(ctx))
        answers[k] = cascadeScore(cascadeAnswer(c, all, asked), t);
      const flagged = new Set([
        ...view.objects.filter(needsRevision).map((o) => o.object_id),
        ...view.states
          .filter((x) => x.kind === 'note' && x.state === 'needs_revision')
          .map((x) => x.id),
        ...view.artifacts
          .filter((a) => STALE_ARTIFACT.has(a.state))
          .map((a) => a.manifest.artifact_id),
      ]);
      const receipt = affected(replay.outcomes.get(t.move_event)?.receipt);
      const want = new Map(t.receipt.map((/** @type {any} */ x) => [x.id, x.depth]));
      const receiptExact =
        receipt.length === want.size &&
        receipt.every((/** @type {any} */ r) => want.get(r.id) === r.depth);
      // The capsule must show every dependent that needs revision under a warning, never as plain
      // canon: a note's line or its section says it needs revision, an artifact's line names a stale state.
      const lines = view.capsule.split('\n');
      const warns = (/** @type {{ id: string, kind: string }} */ x) => {
        let section = '';
        return lines.some((l) => {
          if (l.startsWith('## ')) section = l;
          if (x.kind === 'artifact')
            return (
              l.startsWith(`- ${x.id}:`) && [...STALE_ARTIFACT].some((state) => l.includes(state))
            );
          return l.startsWith(`- ${x.id} `) && /needs.revision/i.test(`${section} ${l}`);
        });
      };
      const shown = t.needs_revision.filter(warns);
      const falselyShown = t.unaffected.filter(warns).map((/** @type {any} */ x) => x.id);
      // The state canon keeps for each flagged dependent names its distance to what moved.
      const depthOf = new Map(view.states.map((x) => [`${x.kind}:${x.id}`, x.depth]));
      const depthRight = t.needs_revision.filter(
        (/** @type {any} */ x) => depthOf.get(`${x.kind}:${x.id}`) === x.depth,
      ).length;
      answers.canonry = {
        ...cascadeScore(flagged, t),
        receiptExact,
        receipt,
        capsuleWarned: shown.length,
        capsuleShould: t.needs_revision.length,
        capsuleFalse: falselyShown,
        depthRight,
      };
      break;
    }
    case 'dispute': {
      for (const [k, c] of Object.entries(ctx)) answers[k] = disputeAnswer(c, t);
      const cap = view.capsule;
      // Resolved: the current version records the standing claim and why (what provenance and the
      // object read answer); whether the working set also carries the reason is reported apart.
      const version = JSON.stringify(await replay.canon.reader(s.project).current(t.object_id));
      const retained = t.resolution
        ? version.includes(t.resolution.value) && version.includes(t.resolution.why)
        : t.claims.every(
            (/** @type {any} */ c) =>
              cap.includes(c.value) && (cap.includes(c.actor) || cap.includes(c.source)),
          );
      answers.canonry = {
        retained,
        losingShown: t.resolution ? cap.includes(t.resolution.losing) : null,
        whyInCapsule: t.resolution
          ? cap.includes(t.resolution.value) && cap.includes(t.resolution.why)
          : null,
        measured: !errors.some((e) => e.includes('NO_RESOLVE_IN_THIS_BUILD')),
      };
      break;
    }
    case 'hedged': {
      for (const [k, c] of Object.entries(ctx)) answers[k] = { decided: decidedAnswer(c, t.title) };
      const o = replay.outcomes.get(t.proposal);
      answers.canonry = {
        fired: hedgedFired(o?.proposal),
        status: o?.status ?? o?.error,
        decided: current(t.object_id) ? 'decided' : 'not decided',
      };
      break;
    }
    case 'tool': {
      for (const [k, c] of Object.entries(ctx)) answers[k] = { value: currentAnswer(c, t.title) };
      const o = replay.outcomes.get(t.correction);
      const text = current(t.object_id)?.text ?? '';
      answers.canonry = {
        routed: o?.error ? `error ${o.error}` : o?.status,
        value: text.includes(t.current)
          ? t.current
          : (text.match(/\b[A-Z][a-z]+-\d\b/)?.[0] ?? null),
        measured: !o?.error && !errors.some((e) => e.includes('probe-tool')),
      };
      break;
    }
    case 'approval': {
      for (const [k, c] of Object.entries(ctx)) answers[k] = { value: currentAnswer(c, t.title) };
      const first = replay.outcomes.get(t.first);
      const retry = replay.outcomes.get(t.retry);
      const ack = t.acknowledged ? replay.outcomes.get(t.acknowledged) : null;
      const text = current(t.object_id)?.text ?? '';
      answers.canonry = {
        stale: first?.error === 'STALE_APPROVAL',
        retry: retry?.error ?? (retry?.committed ? 'committed' : retry?.status),
        retryCommitted: retry?.committed === true,
        ack: ack ? (ack.error ?? (ack.committed ? 'committed' : ack.status)) : null,
        value: text.match(/\b[A-Z][a-z]+-\d\b/)?.[0] ?? null,
      };
      break;
    }
    default:
      throw new Error(`unknown family ${s.family}`);
  }
  return {
    id: s.id,
    family: s.family,
    events: s.events.length,
    tokens,
    answers,
    errors,
    confirmations: replay.confirmations,
  };
}

/** Whether this build flags notes at all: a fact, a decision on it, the fact moves. @param {import('canonry/app').CanonryRuntime} runtime */
export async function probeCascade(runtime) {
  const note = (
    /** @type {string} */ id,
    /** @type {string} */ text,
    /** @type {string[]} */ deps,
    /** @type {'create' | 'update'} */ intent,
  ) =>
    /** @type {any} */ ({
      id: `${id}-${intent}`,
      actor: 'olivia',
      role: 'owner',
      speaker: 'user',
      kind: 'note',
      beat: 'establish-decision',
      object_id: id,
      intent,
      candidate: { object_type: 'decision', title: id, text },
      depends_on: deps,
      text,
    });
  const events = [
    note('probe-root', 'The root is A.', [], 'create'),
    note('probe-leaf', 'The leaf rests on the root.', ['probe-root'], 'create'),
    note('probe-root', 'The root is B.', [], 'update'),
  ];
  const replay = new FamilyReplay(runtime, 'fam-probe', events);
  for (const e of events) await replay.apply(e);
  const view = await replay.view();
  const leaf = view.objects.find((o) => o.object_id === 'probe-leaf');
  const state = view.states.find((x) => x.kind === 'note' && x.id === 'probe-leaf');
  const errors = [...replay.outcomes.values()].map((o) => o.error).filter(Boolean);
  return {
    flags: (leaf !== undefined && needsRevision(leaf)) || state?.state === 'needs_revision',
    errors,
  };
}
