// @ts-check
/**
 * Dispute scenarios: a person states a decision with its reason, another person disputes it with a
 * competing claim and reason; half the time the owner later settles which claim stands and why.
 * The truth is the story itself: while unresolved both claims (value, who, source message) must be
 * kept; once resolved, the standing claim and the reason it stands.
 */
import { slug } from './cascade.js';
import { Script } from './script.js';
import { DECISION_TITLES, REASONS } from './vocab.js';

/** @param {import('../rng.js').Rng} rng @param {boolean} resolved */
export function dispute(rng, resolved) {
  const s = new Script(rng);
  const title = rng.pick(DECISION_TITLES);
  const id = slug(title);
  const reasons = rng.shuffle(REASONS);
  s.chatter(8);
  const first = s.value();
  const firstText = `Decision — ${title}: ${first}, because ${reasons[0]}.`;
  const establish = s.add(rng.chance(0.5) ? 'owner' : 'editor', {
    kind: 'note',
    beat: 'establish-decision',
    object_id: id,
    intent: 'create',
    candidate: { object_type: 'decision', title, text: firstText },
    depends_on: [],
    text: firstText,
  });
  s.chatter(10);
  const second = s.value();
  const claimText = `I dispute the ${title}: it should be ${second}, because ${reasons[1]}.`;
  const challenge = s.add('peer', {
    kind: 'dispute',
    beat: 'dispute',
    object_id: id,
    candidate: { object_type: 'decision', title, text: claimText },
    text: claimText,
  });
  s.chatter(10);
  const claims = [
    { value: first, actor: establish.actor, source: establish.id },
    { value: second, actor: challenge.actor, source: challenge.id },
  ];
  /** @type {{ value: string, actor: string, source: string, why: string, losing: string } | null} */
  let resolution = null;
  if (resolved) {
    const stands = rng.chance(0.5) ? 0 : 1;
    const winner = /** @type {(typeof claims)[number]} */ (claims[stands]);
    const why = /** @type {string} */ (reasons[2]);
    const text = `Settled — ${title}: ${winner.value} stands, because ${why}.`;
    s.add('owner', {
      kind: 'resolve',
      beat: 'resolution',
      object_id: id,
      standing: winner.source,
      reason: why,
      text,
    });
    resolution = {
      ...winner,
      why,
      losing: /** @type {(typeof claims)[number]} */ (claims[1 - stands]).value,
    };
    s.chatter(8);
  }
  return {
    events: s.events,
    truth: { object_id: id, title, claims, resolution },
    question: `What is the state of the ${title}, and who holds which position?`,
  };
}
