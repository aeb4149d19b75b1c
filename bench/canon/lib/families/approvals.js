// @ts-check
/**
 * Approvals retried after canon moved. An agent proposes a change the gate holds; before anyone
 * approves, the owner commits a different value; the editor's approval is then stale
 * (STALE_APPROVAL), and repeating the same request must not commit. Half the scenarios end there;
 * in the other half the editor then approves acknowledging the current head as the base, which
 * commits. The truth is the order of the story.
 */
import { slug } from './cascade.js';
import { Script } from './script.js';
import { DECISION_TITLES } from './vocab.js';

/** @param {import('../rng.js').Rng} rng @param {boolean} acknowledge */
export function staleApproval(rng, acknowledge) {
  const s = new Script(rng);
  const title = rng.pick(DECISION_TITLES);
  const id = slug(title);
  const [v1, v2, v3] = [s.value(), s.value(), s.value()];
  const note = (
    /** @type {'owner' | 'assistant'} */ who,
    /** @type {string} */ beat,
    /** @type {'create' | 'update'} */ intent,
    /** @type {string} */ text,
  ) =>
    s.add(who, {
      kind: 'note',
      beat,
      object_id: id,
      intent,
      candidate: { object_type: 'decision', title, text },
      depends_on: [],
      text,
    });
  s.chatter(6);
  note('owner', 'establish-decision', 'create', `Decision — ${title}: ${v1}.`);
  s.chatter(8);
  const held = note('assistant', 'agent-proposal', 'update', `Proposal — ${title}: ${v2}.`);
  s.chatter(6);
  note('owner', 'owner-moves', 'update', `Decision — ${title}: ${v3} instead.`);
  s.chatter(4);
  const approve = (
    /** @type {'first' | 'blind-retry' | 'acknowledged'} */ attempt,
    /** @type {string} */ text,
  ) =>
    s.add('editor', {
      kind: 'approve',
      beat: `approve-${attempt}`,
      ref: held.id,
      object_id: id,
      attempt,
      text,
    });
  const first = approve('first', `Approving the ${title} change to ${v2}.`);
  const retry = approve('blind-retry', `Approving the ${title} change to ${v2}.`);
  const ack = acknowledge
    ? approve(
        'acknowledged',
        `Approving ${v2} for the ${title} over the newer ${v3}, having read both.`,
      )
    : null;
  s.chatter(6);
  return {
    events: s.events,
    truth: {
      object_id: id,
      title,
      proposal: held.id,
      first: first.id,
      retry: retry.id,
      acknowledged: ack?.id ?? null,
      current: acknowledge ? v2 : v3,
    },
    question: `What is the current ${title}?`,
  };
}
