// @ts-check
/**
 * The multi-window relay corpus: seeded sessions of windows whose outputs establish facts and
 * decisions (with their rationale) and, in later windows, never restate earlier ones — the case a
 * text summary loses. Each recorded window holds what a model answered with the relay's structured
 * response (`output` text and the `contribution`), and the generator's ground truth of what that
 * window established (`truth`), which the bench compares against; nothing is read back from canonry
 * to decide what should exist.
 *
 * Also the text-summary baseline (a rolling, bounded summary) and how availability is judged.
 */
import { Rng } from '../../canon/lib/rng.js';

const SYSTEMS = [
  'the ledger',
  'the search index',
  'the api gateway',
  'the billing job',
  'the etcd cluster',
  'the cdn',
  'the auth service',
  'the event queue',
  'the batch importer',
  'the mobile backend',
  'the cache tier',
  'the reporting warehouse',
];
const FACT_SHAPES = [
  (/** @type {string} */ s, /** @type {number} */ n) => `${s} runs version ${n}.${n % 7}`,
  (/** @type {string} */ s, /** @type {number} */ n) => `${s} has a p99 latency of ${n * 3} ms`,
  (/** @type {string} */ s, /** @type {number} */ n) => `${s} is sharded into ${n} partitions`,
  (/** @type {string} */ s, /** @type {number} */ n) => `${s} retains data for ${n} days`,
  (/** @type {string} */ s, /** @type {number} */ n) =>
    `${s} is owned by team ${String.fromCharCode(65 + (n % 26))}${n}`,
  (/** @type {string} */ s, /** @type {number} */ n) =>
    `${s} costs about ${n * 40} dollars a month`,
];
const CHOICES = [
  'move {s} first',
  'freeze writes to {s} during the cutover',
  'keep {s} in the old region',
  'add a read replica for {s}',
  'rewrite the client of {s}',
  'drop the nightly export of {s}',
];
const REASONS = [
  'its p99 budget leaves no room for cross-region calls',
  'team ownership makes it the smallest change',
  'the data retention rule forbids a second copy',
  'the cost model favours it by a wide margin',
  'the version skew breaks the replication protocol',
  'the partition count doubles the cutover time',
];
const FILLER = [
  'We reviewed the dashboards and the runbooks.',
  'The team discussed the plan in the stand-up.',
  'Nothing unusual showed up in the logs today.',
  'The next step is to continue with the remaining items.',
  'We spent some time reading the old design notes.',
  'The migration checklist was updated accordingly.',
  'Several alerts fired but were unrelated noise.',
  'The staging environment behaved as expected.',
];

/**
 * @typedef {{ statement: string }} TruthFact
 * @typedef {{ choice: string, rationale: string }} TruthDecision
 * @typedef {{ session: string, window: number, output: string, contribution: Record<string, unknown>, truth: { facts: TruthFact[], decisions: TruthDecision[] } }} RecordedWindow
 */

/**
 * Generates `sessions` sessions of `windows` windows; each window establishes `facts` new facts and
 * `decisions` new decisions (each resting on facts of this or earlier windows, with a rationale
 * naming why), surrounded by `filler` sentences of narrative. Later windows never repeat earlier
 * facts or decisions, in the text or in the contribution.
 * @param {number} seed
 * @param {{ sessions: number, windows: number, facts: number, decisions: number, filler: number }} size
 * @returns {RecordedWindow[]}
 */
export function generateCorpus(seed, size) {
  const rng = new Rng(seed);
  /** @type {RecordedWindow[]} */
  const out = [];
  for (let s = 0; s < size.sessions; s++) {
    const session = `s${String(s + 1).padStart(2, '0')}`;
    /** @type {string[]} */
    const known = [];
    let counter = 0;
    for (let w = 1; w <= size.windows; w++) {
      /** @type {TruthFact[]} */
      const facts = [];
      /** @type {{ id: string, statement: string }[]} */
      const ids = [];
      for (let i = 0; i < size.facts; i++) {
        const statement = rng.pick(FACT_SHAPES)(
          rng.pick(SYSTEMS),
          ++counter + rng.int(2, 60) * 100,
        );
        facts.push({ statement });
        ids.push({ id: `${session}.w${w}.f${i}`, statement });
      }
      /** @type {TruthDecision[]} */
      const decisions = [];
      const contributionDecisions = [];
      for (let i = 0; i < size.decisions; i++) {
        const system = rng.pick(SYSTEMS);
        const choice = `${rng.pick(CHOICES).replace('{s}', system)} (plan ${session}-${w}-${i})`;
        const premise = rng.pick(ids);
        const rationale = `${rng.pick(REASONS)}, given that ${premise.statement}`;
        decisions.push({ choice, rationale });
        const older = known.length > 0 && rng.chance(0.5) ? [rng.pick(known)] : [];
        contributionDecisions.push({
          decision_id: `${session}.w${w}.d${i}`,
          choice,
          rationale,
          alternatives: ['do nothing this window'],
          depends_on: [premise.id, ...older],
        });
      }
      known.push(...ids.map((x) => x.id));
      const sentences = [
        ...facts.map((f) => `We confirmed that ${f.statement}.`),
        ...decisions.map((d) => `We decided to ${d.choice} because ${d.rationale}.`),
        ...[...Array(size.filler).keys()].map(() => rng.pick(FILLER)),
      ];
      out.push({
        session,
        window: w,
        output: rng.shuffle(sentences).join(' '),
        contribution: {
          facts: ids.map((x) => ({
            fact_id: x.id,
            statement: x.statement,
            provenance: 'CONVERSATION',
          })),
          decisions: contributionDecisions,
          completed: [],
        },
        truth: { facts, decisions },
      });
    }
  }
  return out;
}

/** Lower case, collapsed spaces, no final full stop: how availability compares text. */
export const norm = (/** @type {string} */ text) =>
  text.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').replace(/\.$/, '').trim();

/**
 * The text-summary baseline: a rolling summary of at most `budget` tokens, as conversation-summary
 * memory keeps one. The summariser is extractive and generous: after each window it keeps every
 * informative sentence verbatim (a sentence of narrative filler — one with no digit and no
 * "decided" — is dropped), deduplicated, and when the summary is over its budget it drops the
 * oldest sentences first, so the newest state always fits. It never rewrites or shortens a
 * sentence, so anything it keeps is kept word for word (an abstractive summariser would also
 * paraphrase and cut rationales; this one is an upper bound for its budget).
 */
export class RollingSummary {
  /** @param {number} budget tokens @param {(text: string) => number} count */
  constructor(budget, count) {
    this.budget = budget;
    this.count = count;
    /** @type {string[]} */
    this.sentences = [];
  }

  /** Folds one window's output into the summary. @param {string} output */
  add(output) {
    const seen = new Set(this.sentences.map(norm));
    for (const sentence of output.split(/(?<=\.)\s+/)) {
      const informative = /\d/.test(sentence) || /\bdecided\b/i.test(sentence);
      if (!informative || seen.has(norm(sentence))) continue;
      seen.add(norm(sentence));
      this.sentences.push(sentence);
    }
    while (this.sentences.length > 1 && this.count(this.text()) > this.budget)
      this.sentences.shift();
  }

  text() {
    return this.sentences.join(' ');
  }
}

/**
 * How many of the ground truth's facts and decision rationales a relayed state still carries.
 * A fact is available when its statement is in `factTexts`; a decision when both its choice and its
 * rationale are (in the CSO: one decision with that choice and that rationale; in a summary: both
 * texts within it).
 * @param {{ facts: TruthFact[], decisions: TruthDecision[] }} truth
 * @param {(statement: string) => boolean} hasFact
 * @param {(d: TruthDecision) => boolean} hasDecision
 */
export function availability(truth, hasFact, hasDecision) {
  const facts = truth.facts.filter((f) => hasFact(f.statement)).length;
  const decisions = truth.decisions.filter(hasDecision).length;
  return { facts, factTotal: truth.facts.length, decisions, decisionTotal: truth.decisions.length };
}
