// @ts-check
/**
 * Tool-correction scenarios. A tool principal reports a measured fact and later corrects its own
 * reading (must commit, like an agent's first fact); or a tool reports a value that contradicts a
 * user's decision or a fact a user stated (must be held at the gate: a tool result does not become
 * canon because it arrived, §6). The truth is who authored the object the correction touches.
 */
import { slug } from './cascade.js';
import { Script } from './script.js';
import { DECISION_TITLES, FACT_TITLES } from './vocab.js';

export const TOOL_CASES = /** @type {const} */ (['own-fact', 'user-decision', 'user-fact']);

/** @param {import('../rng.js').Rng} rng @param {(typeof TOOL_CASES)[number]} kind */
export function toolCorrection(rng, kind) {
  const s = new Script(rng);
  const decision = kind === 'user-decision';
  const title = rng.pick(decision ? DECISION_TITLES : FACT_TITLES);
  const id = slug(title);
  const type = decision ? 'decision' : 'fact';
  const first = s.value();
  s.chatter(8);
  const firstText =
    kind === 'own-fact'
      ? `Measured — ${title}: ${first}.`
      : decision
        ? `Decision — ${title}: ${first}.`
        : `Fact — ${title}: ${first}. Checked by hand.`;
  s.add(kind === 'own-fact' ? 'tool' : decision ? 'owner' : 'editor', {
    kind: 'note',
    beat: kind === 'own-fact' ? 'tool-fact' : decision ? 'establish-decision' : 'establish-fact',
    object_id: id,
    intent: 'create',
    candidate: { object_type: type, title, text: firstText },
    depends_on: [],
    text: firstText,
  });
  s.chatter(10);
  const second = s.value();
  const text = `Re-measured — ${title}: ${second}, the earlier reading is superseded.`;
  const correction = s.add('tool', {
    kind: 'note',
    beat: 'tool-correction',
    object_id: id,
    intent: 'update',
    candidate: { object_type: type, title, text },
    depends_on: [],
    text,
  });
  s.chatter(6);
  const commits = kind === 'own-fact';
  return {
    events: s.events,
    truth: {
      object_id: id,
      title,
      case: kind,
      correction: correction.id,
      /** committed when the tool corrects its own fact; held at the gate otherwise */
      routed: commits ? 'committed' : 'pending',
      current: commits ? second : first,
    },
    question: `What is the current ${title}?`,
  };
}
