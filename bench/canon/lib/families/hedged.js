// @ts-check
/**
 * Hedged-suggestion scenarios: a speaker hedges ("maybe we could…", a question, an option), and
 * later a proposal cites that message as the source of a decision. Controls: the speaker states the
 * decision firmly and the same proposal cites it. The truth is the source's own phrasing: the
 * suggestion-to-directive check must fire on every hedged source and on no firm one; a hedge an
 * agent turns into a decision is not a decision anyone made (an editor recording it makes it one).
 */
import { slug } from './cascade.js';
import { Script } from './script.js';
import { DECISION_TITLES } from './vocab.js';

export const HEDGES = /** @type {const} */ (['maybe', 'question', 'option', 'firm']);

/** @param {import('../rng.js').Rng} rng @param {(typeof HEDGES)[number]} form */
export function hedged(rng, form) {
  const s = new Script(rng);
  const title = rng.pick(DECISION_TITLES);
  const id = slug(title);
  const value = s.value();
  const sentence = {
    maybe: `Maybe we could set the ${title} to ${value}?`,
    question: `Should the ${title} be ${value}?`,
    option: `One option would be ${value} for the ${title}, if people agree.`,
    firm: `We decided: the ${title} is ${value}.`,
  }[form];
  s.chatter(10);
  const speaker =
    form === 'firm' ? 'owner' : rng.pick(/** @type {const} */ (['assistant', 'editor', 'peer']));
  const source = s.add(speaker, {
    kind: 'say',
    beat: form === 'firm' ? 'firm-statement' : 'hedge',
    text: sentence,
  });
  s.chatter(10);
  const text = `Recording the decision on the ${title}: ${value}.`;
  const proposal = s.add(rng.chance(0.7) ? 'builder' : 'editor', {
    kind: 'note',
    beat: 'cite-as-decision',
    object_id: id,
    intent: 'create',
    candidate: { object_type: 'decision', title, text: `Decision — ${title}: ${value}.` },
    depends_on: [],
    cites: source.id,
    quote: sentence,
    text,
  });
  s.chatter(6);
  return {
    events: s.events,
    truth: {
      object_id: id,
      title,
      value,
      hedged: form !== 'firm',
      form,
      source: source.id,
      source_speaker: source.speaker,
      proposal: proposal.id,
      proposer_role: proposal.role,
      /** A person who records the decision makes it; an agent citing a hedge makes nothing a decision. */
      decided: proposal.speaker === 'user',
    },
    question: `Has the ${title} been decided, and if so, to what?`,
  };
}
