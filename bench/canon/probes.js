// @ts-check
/**
 * Probes: small, reproducible runs of the canonry runtime that show the causes behind the
 * evaluation's misses and the classifier hazards found while writing the corpus. Each probe states
 * what LCSM asks for and what canon did; none of them is a target. `node bench/canon/probes.js`.
 */
import { intake, ScriptedClassifier, workingSet } from 'canonry/canon';
import { progress } from '../lib/measure.js';
import { runIfMain, table } from '../lib/report.js';
import { openRuntime } from './lib/replay.js';

const SCOPE = 'canon/probes';
const P = 'probe';
/** @type {import('canonry/canon').Principal} */
const OWNER = { id: 'alice', project: P, role: 'owner' };
/** @type {import('canonry/canon').Principal} */
const ASSISTANT = { id: 'copilot', project: P, role: 'agent' };
const SUBJECTS = {
  'budget.cap': {
    title: 'Budget cap',
    object_type: /** @type {const} */ ('constraint'),
    keywords: ['budget cap'],
  },
  venue: { title: 'Venue', object_type: /** @type {const} */ ('decision'), keywords: ['venue'] },
  'rsvp.count': {
    title: 'RSVP count',
    object_type: /** @type {const} */ ('fact'),
    keywords: ['RSVP count'],
  },
};

/**
 * Runs `body` on a fresh runtime with the probe classifier.
 * @param {(canon: import('canonry/canon').Canon, say: (who: import('canonry/canon').Principal, text: string, role?: 'user' | 'assistant') => ReturnType<typeof intake>) => Promise<{ observed: string, ok: boolean }>} body
 */
async function probe(body) {
  const { runtime, close } = await openRuntime();
  const classifier = new ScriptedClassifier({ subjects: SUBJECTS });
  try {
    return await body(runtime.canon, (who, text, role) =>
      intake(runtime.canon, classifier, who, { text, ...(role ? { role } : {}) }),
    );
  } finally {
    await close();
  }
}

/** @param {Awaited<ReturnType<typeof intake>>} r */
const outcome = (r) =>
  r.proposals
    .map((p) =>
      p.ok
        ? `${p.outcome.proposal.object_id} ${p.outcome.proposal.intent} → ${p.outcome.proposal.status}`
        : `${p.object_id}: ${p.code}`,
    )
    .join('; ') || r.classification.outcome;

const PROBES = [
  {
    name: 'an ignored suggestion stays in the working set',
    expected:
      'a proposal whose base version moved is closed, or left out of (or marked stale in) the capsule',
    run: () =>
      probe(async (canon, say) => {
        await say(OWNER, 'The budget cap must be $48,000.');
        await say(ASSISTANT, 'I recommend $60,000 for the budget cap.', 'assistant');
        await say(OWNER, 'The budget cap must be $52,500.');
        const set = await workingSet(canon, P, { objective: 'budget cap' });
        const listed = set.capsule.includes('$60,000');
        const pending = (await canon.reader(P).proposals('pending')).length;
        return {
          ok: !listed,
          observed: `${pending} proposal still pending on a moved base; capsule lists it: ${
            listed
              ? `"${set.capsule
                  .split('\n')
                  .find((l) => l.includes('$60,000'))
                  ?.trim()}"`
              : 'no'
          }`,
        };
      }),
  },
  {
    name: 'a generic resume objective',
    expected: 'resuming with "Resume the project where we left off." shows the current notes',
    run: () =>
      probe(async (canon, say) => {
        await say(OWNER, 'We decided the venue is the Old Mint.');
        await say(OWNER, 'The budget cap must be $48,000.');
        const generic = await workingSet(canon, P, {
          objective: 'Resume the project where we left off.',
        });
        const none = await workingSet(canon, P, {});
        return {
          ok: generic.notes.length + generic.policies.length === 2,
          observed: `notes+policies with the generic objective: ${generic.notes.length + generic.policies.length} of 2 (venue ${generic.capsule.includes('Old Mint') ? 'shown' : 'missing'}); with no objective: ${none.notes.length + none.policies.length} of 2`,
        };
      }),
  },
  {
    name: 'a restore asked for in chat',
    expected: '"Roll back the budget cap to the $48,000 version." restores version 1',
    run: () =>
      probe(async (canon, say) => {
        await say(OWNER, 'The budget cap must be $48,000.');
        await say(OWNER, 'The budget cap must be $52,500.');
        const r = await say(OWNER, 'Roll back the budget cap to the $48,000 version.');
        const now = await canon.reader(P).object('budget.cap');
        return {
          ok: now?.text.includes('$48,000') === true,
          observed: `${r.classification.outcome}: ${outcome(r)}; budget.cap is v${now?.version_id}: "${now?.text}"`,
        };
      }),
  },
  {
    name: 'a question about an accepted constraint',
    expected:
      '"Can someone confirm the budget cap with finance?" leaves the accepted $48,000 in canon',
    run: () =>
      probe(async (canon, say) => {
        await say(OWNER, 'The budget cap must be $48,000.');
        const r = await say(OWNER, 'Can someone confirm the budget cap with finance?');
        const now = await canon.reader(P).object('budget.cap');
        return {
          ok: now?.text.includes('$48,000') === true,
          observed: `${outcome(r)}; budget.cap is now a ${now?.object_type}: "${now?.text}"`,
        };
      }),
  },
  {
    name: 'one sentence naming two subjects',
    expected:
      '"According to the venue contract, the RSVP count is 63 confirmed." updates the RSVP count only',
    run: () =>
      probe(async (canon, say) => {
        await say(OWNER, 'We decided the venue is the Old Mint.');
        const r = await say(
          OWNER,
          'According to the venue contract, the RSVP count is 63 confirmed.',
        );
        const venue = await canon.reader(P).object('venue');
        return {
          ok: venue?.text.includes('Old Mint') === true,
          observed: `${outcome(r)}; venue is now: "${venue?.text}"`,
        };
      }),
  },
  {
    name: 'a subject named only in a sentence without a cue',
    expected: 'no draft for the venue when only the budget-cap sentence carries a cue',
    run: () =>
      probe(async (_canon, say) => {
        await say(OWNER, 'We decided the venue is the Old Mint.');
        await say(OWNER, 'The budget cap must be $48,000.');
        const r = await say(
          ASSISTANT,
          'The venue team sent the floor plan. I recommend $52,500 for the budget cap.',
          'assistant',
        );
        const drafted = r.proposals.find((p) => p.ok && p.outcome.proposal.object_id === 'venue');
        return {
          ok: !drafted,
          observed: drafted?.ok
            ? `a venue proposal with the text "${drafted.outcome.proposal.candidate.text}" (${drafted.outcome.proposal.status})`
            : outcome(r),
        };
      }),
  },
];

async function main() {
  const rows = [];
  /** @type {Record<string, { expected: string, observed: string, ok: boolean }>} */
  const data = {};
  for (const p of PROBES) {
    const { ok, observed } = await p.run();
    progress(SCOPE, `${p.name}: ${ok ? 'as LCSM asks' : 'NOT as LCSM asks'} — ${observed}`);
    rows.push([p.name, p.expected, observed, ok ? 'as asked' : '**differs**']);
    data[p.name] = { expected: p.expected, observed, ok };
  }
  return {
    name: 'probes',
    title: 'Probes: the causes behind the misses, and classifier hazards',
    tables: [table(['probe', 'LCSM asks', 'canonry did', 'verdict'], rows)],
    data,
  };
}

runIfMain(import.meta.url, main);
