// @ts-check
/**
 * The words of the scenario families: item titles (no title is a substring of another, so a title
 * names one item), values (one per statement, never reused in a scenario), the people, and neutral
 * chatter that names no item.
 */

/** A person or machine of the families: principal id, token role, message role. @typedef {{ id: string, role: string, speaker: 'user' | 'assistant' | 'agent' | 'tool' }} Actor */

/** @type {Record<string, Actor>} */
export const ACTORS = {
  owner: { id: 'olivia', role: 'owner', speaker: 'user' },
  editor: { id: 'ravi', role: 'editor', speaker: 'user' },
  peer: { id: 'priya', role: 'editor', speaker: 'user' },
  assistant: { id: 'assistant', role: 'agent', speaker: 'assistant' },
  builder: { id: 'builder-bot', role: 'agent', speaker: 'agent' },
  tool: { id: 'probe-tool', role: 'tool', speaker: 'tool' },
};

/** Facts a person or a tool reports (cascade roots, tool results). */
export const FACT_TITLES = [
  'storage engine',
  'peak request rate',
  'median payload size',
  'region quota',
  'vendor price sheet',
  'license terms',
  'headcount forecast',
  'battery capacity',
  'sensor accuracy',
  'shipping lead time',
  'survey sample size',
  'venue capacity',
];

/** Decisions that rest on facts or other decisions. */
export const DECISION_TITLES = [
  'partitioning scheme',
  'replica count',
  'backup window',
  'failover plan',
  'cache policy',
  'index strategy',
  'migration order',
  'retention period',
  'connection pool size',
  'rollout cadence',
  'pricing tier',
  'staffing plan',
  'launch date',
  'test matrix',
  'seating layout',
  'catering order',
  'travel budget',
  'alerting threshold',
  'release branch',
  'support rota',
  'onboarding flow',
  'data residency',
  'encryption scheme',
  'vendor shortlist',
];

/** Artifacts built from decisions. */
export const ARTIFACT_TITLES = [
  'capacity report',
  'runbook',
  'board deck',
  'cost model',
  'rollout checklist',
  'design brief',
  'status email',
  'training slides',
];

/** Values: each statement takes one never used before in its scenario. */
export const VALUES = [
  'Amber',
  'Basalt',
  'Cedar',
  'Delta',
  'Ember',
  'Fjord',
  'Garnet',
  'Harbor',
  'Indigo',
  'Juniper',
  'Kestrel',
  'Lagoon',
  'Meadow',
  'Nimbus',
  'Orchid',
  'Pewter',
  'Quartz',
  'Raven',
  'Sierra',
  'Tundra',
  'Umber',
  'Velvet',
  'Willow',
  'Xenon',
  'Yarrow',
  'Zephyr',
].flatMap((w) => [2, 3, 5, 7].map((n) => `${w}-${n}`));

/** Reasons a statement gives (disputes, resolutions). */
export const REASONS = [
  'the load test last week showed it',
  'the contract renewal requires it',
  'finance signed off on that number',
  'the pilot customers asked for it',
  'the audit found a gap otherwise',
  'the vendor confirmed it in writing',
  'the on-call team measured it twice',
  'legal reviewed it on Monday',
];

/** Neutral chatter: names no item, states nothing. */
export const FILLER = [
  'Morning all, coffee machine on floor two is fixed.',
  'I will be out on Friday afternoon.',
  'The standup moves to half past nine tomorrow.',
  'Thanks, that helps.',
  'Can someone share the dial-in link again?',
  'Lunch order is in, should arrive around noon.',
  'Sorry, my connection dropped for a minute.',
  'Reminder that the office closes early on Thursday.',
  'Nice work on the demo yesterday.',
  'I pushed the notes to the shared folder.',
  'Let us pick this up after the break.',
  'Running five minutes late to the sync.',
  'Who has the whiteboard photo from the workshop?',
  'The wiki search is slow again today.',
  'Heads up: the printer on floor three is out of toner.',
  'Welcome to the team, Sam!',
  'I will write up the minutes tonight.',
  'Quick poll for the team lunch venue is in the channel.',
  'Calendar invites for next week are out.',
  'Back from leave, catching up on the thread now.',
];
