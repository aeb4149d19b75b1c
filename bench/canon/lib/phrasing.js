// @ts-check
/**
 * Sentence templates by classifier tier. `{n}` is the subject's noun, `{v}` the value, `{src}` a
 * source, `{reason}` a neutral clause. Each template hits exactly the tier named (see
 * src/canon/classify/README.md), which the generator checks against the real classifier.
 */

/** Human statements, by the form (tier) they take. */
export const FORMS = {
  /** tier 4a: `must`, `mandatory` → constraint */
  constraint: [
    'The {n} must be {v}.',
    'The {n} must stay at {v} for this phase.',
    'For this phase the {n} is {v}, and that is mandatory.',
  ],
  /** tier 3: `we decided`, `let's go with`, … → decision */
  decision: [
    'We decided the {n} is {v}.',
    "Let's go with {v} for the {n}.",
    'We agreed on {v} for the {n}.',
    'Decision: the {n} is {v}.',
    'We chose {v} for the {n}.',
  ],
  /** tier 2: `from now on`, `we now use` → an update of the existing object, as a decision */
  supersede: [
    'From now on the {n} is {v}.',
    'We now use {v} for the {n}.',
    'The {n} is {v} from now on.',
  ],
  /** tier 5: `prefer`, `i'd like`, `would rather` → preference */
  preference: [
    "I'd like the {n} to be {v}.",
    'I prefer {v} for the {n}.',
    'I would rather have {v} as the {n}.',
  ],
  /** tier 4b: `always`, `make sure`, `remember to` → instruction */
  instruction: [
    'Always use {v} for the {n}.',
    'Make sure the {n} follows {v}.',
    'Remember to use {v} for the {n}.',
  ],
  /** tier 6: `according to` → fact (sourced) */
  fact: ['According to the {src}, the {n} is {v}.'],
};

/** Which forms a subject kind's first statement and later changes use. */
export const KIND_FORMS = {
  constraint: { first: ['constraint'], change: ['constraint', 'constraint', 'supersede'] },
  decision: { first: ['decision'], change: ['decision', 'decision', 'supersede'] },
  preference: { first: ['preference'], change: ['preference', 'preference', 'decision'] },
  instruction: { first: ['instruction'], change: ['instruction'] },
  fact: { first: ['fact'], change: ['fact'] },
};

/** Assistant suggestions (the machine modality tier). */
export const SUGGESTIONS = [
  'I recommend {v} for the {n}.',
  'One option is {v} for the {n}.',
  'You could set the {n} to {v}.',
  'Consider {v} for the {n}.',
  'A suggestion: {v} for the {n}.',
];

/** An assistant phrasing a decision it was never given (tier 3 from a machine: still a proposal). */
export const CLAIMS = ['We agreed the {n} is {v}.', 'Decision: the {n} is {v}.'];

/** Tool results: the fact sentence is the second line. */
export const TOOL_FACTS = [
  '{tool} run {k} finished.\nMeasured {n} at {v} across {m} samples.\nEnvironment: staging, build {b}.\nRaw output is attached to run {k}.',
  '{tool} run {k} finished.\nAccording to run {k}, the {n} is {v}.\nSamples: {m}. Build: {b}.\nThe full log is attached.',
];

/** Tier 8: a person disputing the current value. */
export const DISPUTES = [
  'The {n} of {v} is wrong, {reason}.',
  'I disagree with {v} for the {n}, {reason}.',
  'Setting the {n} to {v} is not correct, {reason}.',
];

export const REASONS = [
  'the finance team flagged a gap',
  'the partner team raised a conflict',
  'the latest figures point elsewhere',
  'the customer interviews say otherwise',
  'it clashes with the plan we shared last week',
  'the pilot results point elsewhere',
];

/** A dispute settled: tier 3, needs confirmation because it collapses the dispute. */
export const RESOLUTIONS = [
  'We agreed on {v} for the {n} after the follow-up.',
  'Decision: the {n} is {v} after the follow-up.',
  "Let's go with {v} for the {n}, settled after the follow-up.",
];

/** A viewer stating a decision (canon refuses: viewers cannot propose). */
export const SPOOFS = ['We decided the {n} is {v}.', 'Decision: the {n} is {v}.'];

/** Board-action comments (archived, not classified). */
export const CONFIRMS = [
  'Confirmed.',
  'Approved.',
  'Yes, approved.',
  'Confirmed, go ahead.',
  'Confirmed: the {n} is {v}.',
  'Approved: {v} for the {n}.',
];
export const REJECTS = [
  'Rejected.',
  'No, keep the current {n}.',
  'Not approved, the {n} stays as it is.',
  'Rejected, that does not fit the plan.',
];
export const RESTORES = [
  'Roll back the {n} to the {v} version.',
  'Restore the earlier {n}: {v}.',
  'Bring back {v} for the {n}, the earlier version.',
];

/** Neutral prefaces for user statements (no cue, no keyword). */
export const PREFACES = [
  'Quick update after the sync.',
  "Following up on yesterday's thread.",
  'Small change after the call with the team.',
  'After looking at the numbers again.',
  'One more thing from this morning.',
  'Update for the {client} account.',
];

/** Tool and agent chatter with no effect. */
export const TOOL_LOGS = [
  'Build {k} finished in {m}m{s}s.\nUploaded {x} files to the staging bucket.\nLint: 0 warnings.',
  'Sync job {k} completed.\nProcessed {x} records in {m} minutes.\nNext run scheduled for 02:00 UTC.',
  'Export {k} is ready.\n{x} rows written to the shared folder.\nChecksum recorded in the run log.',
];
export const AGENT_STATUS = [
  'Started work on the {title}.',
  'Pushed the latest changes for the {title}.',
  'The {title} build is queued behind two other jobs.',
];

/**
 * Fills a template.
 * @param {string} template @param {Record<string, string | number>} slots
 */
export function fill(template, slots) {
  return template.replace(/\{(\w+)\}/g, (_, name) => {
    const value = slots[name];
    if (value === undefined) throw new Error(`template slot {${name}} has no value: ${template}`);
    return String(value);
  });
}
