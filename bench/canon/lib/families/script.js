// @ts-check
/**
 * The event list of one family scenario, written in story order, and the small model of the truth
 * each family keeps while writing it (which value each item holds, at which version).
 */
import { ACTORS, FILLER, VALUES } from './vocab.js';

/**
 * One event of a family scenario (see bench/canon/README.md, "Scenario families").
 * @typedef {object} FamilyEvent
 * @property {string} id `e001`…, also the archived message id
 * @property {string} actor principal id
 * @property {string} role the principal's token role
 * @property {'user' | 'assistant' | 'agent' | 'tool'} speaker
 * @property {'say' | 'note' | 'artifact' | 'dispute' | 'resolve' | 'restore' | 'approve'} kind
 * @property {string} text what was said (archived under `id`)
 * @property {string} beat what the event is in the story (no strategy reads it)
 * @property {string} [object_id] note, dispute, resolve, restore: the object
 * @property {'create' | 'update' | 'supersede'} [intent] note
 * @property {string[]} [supersedes] note with intent supersede: the objects it replaces
 * @property {number} [version] restore: the version_id whose content comes back
 * @property {{ object_type: string, title: string, text: string, tags?: string[] }} [candidate] note, dispute: the statement
 * @property {string[]} [depends_on] note, artifact: the objects it is made against (their versions at that moment)
 * @property {string} [cites] note: the event whose message is the source (default: this event)
 * @property {string} [quote] note, dispute, resolve: the sentence of the cited message quoted as source
 * @property {string} [artifact_id] artifact
 * @property {string} [title] artifact
 * @property {string} [standing] resolve: the event whose claim stands
 * @property {string} [reason] resolve: why it stands
 * @property {string} [ref] approve: the event whose proposal is approved
 * @property {'first' | 'blind-retry' | 'acknowledged'} [attempt] approve: a first approval, the same
 *   request repeated after STALE_APPROVAL, or one that acknowledges the current head as its base
 */

/** Builds one scenario's events. */
export class Script {
  /** @param {import('../rng.js').Rng} rng */
  constructor(rng) {
    this.rng = rng;
    /** @type {FamilyEvent[]} */
    this.events = [];
    this.values = rng.shuffle(VALUES);
    this.fillers = 0;
    /** How talkative the team is: chatter(max) writes up to max × scale lines. */
    this.scale = rng.int(3, 8);
  }

  /** A value never used before in this scenario. */
  value() {
    const v = this.values.pop();
    if (!v) throw new Error('out of values');
    return v;
  }

  /**
   * Appends an event. @param {keyof typeof ACTORS} who
   * @param {Omit<FamilyEvent, 'id' | 'actor' | 'role' | 'speaker'>} fields @returns {FamilyEvent}
   */
  add(who, fields) {
    const a = ACTORS[who];
    if (!a) throw new Error(`unknown actor ${who}`);
    const e = {
      id: `e${String(this.events.length + 1).padStart(3, '0')}`,
      actor: a.id,
      role: a.role,
      speaker: a.speaker,
      ...fields,
    };
    this.events.push(e);
    return e;
  }

  /** Up to `max` × `scale` lines of neutral chatter by people. @param {number} max */
  chatter(max) {
    const n = this.rng.int(0, max * this.scale);
    for (let i = 0; i < n; i++) {
      this.fillers++;
      this.add(this.rng.pick(['owner', 'editor', 'peer']), {
        kind: 'say',
        beat: 'filler',
        text: this.rng.pick(FILLER),
      });
    }
  }
}

/** The first sentence of a statement (what a note quotes as its source). @param {string} text */
export const firstSentence = (text) => /^.*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text;
