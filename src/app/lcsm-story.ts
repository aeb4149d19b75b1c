import {
  type ArtifactStatus,
  archiveMessage,
  artifactStatusPage,
  type CanonObject,
  intake,
  type Principal,
  type ProposalRecord,
  type Provenance,
  provenance,
  registerArtifact,
  reviewArtifact,
  ScriptedClassifier,
  type WorkingSet,
  workingSet,
} from '../canon/index.js';
import { contentHash } from '../core/index.js';
import type { Receipt } from '../journal/index.js';
import type { CanonryRuntime } from './create-canonry.js';

import { STORY_PROJECT } from './story-project.js';

export { STORY_PROJECT };

/** One event of the story and what canon did with it. */
export interface StoryStep {
  readonly n: number;
  readonly event: string;
  readonly outcome: string;
  readonly receipts: readonly Receipt[];
}

/** The story's result: its steps, the final board, a provenance walk and the new agent's working set. */
export interface StoryResult {
  /** The steps run now; empty when the project already held the story (the journal is append-only). */
  readonly steps: readonly StoryStep[];
  /** True when the story had run into this data directory before and was only read back. */
  readonly existing: boolean;
  readonly board: Readonly<Record<string, readonly CanonObject[]>>;
  /** Every proposal, including the rejected colour position. */
  readonly proposals: readonly ProposalRecord[];
  readonly artifacts: readonly ArtifactStatus[];
  readonly provenance: Provenance;
  readonly workingSet: WorkingSet;
}

const principal = (id: string, role: Principal['role']): Principal => ({
  id,
  role,
  project: STORY_PROJECT,
});
const ALICE = principal('alice', 'owner');
const ASSISTANT = principal('assistant', 'agent');
const CODER = principal('coding-agent', 'agent');
const BOB = principal('bob', 'editor');

/** The demo project's scripted classifier: it knows the interface colour as a subject. */
export const STORY_CLASSIFIER = new ScriptedClassifier({
  subjects: {
    'ui.colour': {
      title: 'Interface colour',
      object_type: 'preference',
      keywords: ['red', 'blue', 'colour', 'color', 'palette'],
    },
  },
});

/**
 * LCSM §1, end to end on a runtime: seven events, each through the governed loop (archive, classify,
 * compare, gate, commit), ending with what a new agent receives instead of the transcript.
 */
export async function runLcsmStory(
  runtime: CanonryRuntime,
  onStep?: (step: StoryStep) => void,
): Promise<StoryResult> {
  const { canon } = runtime;
  const steps: StoryStep[] = [];
  const existing = (await runtime.journal.head(STORY_PROJECT)).seq > 0;
  if (existing) return summarize(runtime, steps, true);
  const record = (event: string, outcome: string, receipts: Receipt[]) => {
    const step = { n: steps.length + 1, event, outcome, receipts };
    steps.push(step);
    onStep?.(step);
  };
  const describe = (r: Awaited<ReturnType<typeof intake>>) =>
    r.proposals
      .map((p) =>
        p.ok
          ? `${p.outcome.proposal.object_id}: ${p.outcome.proposal.gate.label} → ${p.outcome.proposal.status}`
          : `${p.object_id}: ${p.code}`,
      )
      .join('; ') || r.classification.outcome;
  const receiptsOf = (r: Awaited<ReturnType<typeof intake>>) =>
    r.proposals.flatMap((p) => (p.ok ? [p.outcome.receipt] : []));

  const one = await intake(canon, STORY_CLASSIFIER, ALICE, {
    text: 'I would like a red interface for the app.',
  });
  record('1. The user suggests a red interface.', describe(one), receiptsOf(one));

  const two = await intake(canon, STORY_CLASSIFIER, ASSISTANT, {
    text: 'I propose blue instead of red for accessibility.',
    role: 'assistant',
  });
  const suggested = two.proposals.find((p) => p.ok);
  const blue = suggested?.ok ? suggested.outcome.proposal.proposal_id : null;
  record('2. The assistant proposes blue for accessibility.', describe(two), receiptsOf(two));

  const three = await intake(canon, STORY_CLASSIFIER, ALICE, { text: 'Red is still preferred.' });
  const rejected = blue ? await canon.reject(ALICE, blue, 'the user still prefers red') : null;
  record(
    '3. The user says red is still preferred.',
    `${describe(three)}${rejected ? `; blue proposal ${rejected.status}` : ''}`,
    receiptsOf(three),
  );

  const spec = await archiveMessage(canon, ALICE, {
    text: 'Design spec v2: the product adopts a dark ink and violet identity.',
    message_id: 'spec-v2',
  });
  const quote = 'the product adopts a dark ink and violet identity';
  const start = spec.text.indexOf(quote);
  const colour = await canon.reader(STORY_PROJECT).object('ui.colour');
  const identity = await canon.propose(ALICE, {
    object_id: 'design.identity',
    intent: 'supersede',
    base_version: null,
    supersedes: colour ? ['ui.colour'] : [],
    message_id: spec.message_id,
    candidate: {
      object_type: 'decision',
      title: 'Visual identity',
      text: 'The product uses a dark ink and violet identity.',
      shape: { palette: ['dark ink', 'violet'] },
      confidence_state: 'sourced',
      status: 'active',
      visibility: 'project',
      sources: [{ message_id: spec.message_id, span: [start, start + quote.length], quote }],
      dependency_refs: [],
      effective_from: null,
      effective_until: null,
      tags: ['identity'],
    },
  });
  const approved =
    identity.proposal.status === 'pending'
      ? await canon.approve(ALICE, identity.proposal.proposal_id)
      : identity;
  record(
    '4. A later specification adopts a dark ink and violet identity.',
    `design.identity: ${identity.proposal.comparison.stakes} ${identity.proposal.gate.label} → approved by the owner → ${approved.proposal.status}; ui.colour superseded`,
    [identity.receipt, approved.receipt],
  );

  const stale = colour ? await canon.reader(STORY_PROJECT).versions('ui.colour') : [];
  await archiveMessage(canon, CODER, {
    text: 'Generated the settings screen with a blue button component.',
    role: 'agent',
  });
  const component = await registerArtifact(canon, CODER, {
    artifact_id: 'settings-blue-button',
    title: 'Settings screen, blue button component',
    input_refs: blue ? [blue] : [],
    canonical_note_versions:
      stale.length > 0
        ? [{ object_id: 'ui.colour', version_hash: stale.at(-1)!.version_hash }]
        : [],
    tool_or_model_refs: ['coding-agent'],
    output_digest: contentHash({ component: 'SettingsButton', colour: 'blue' }),
  });
  record(
    '5. A coding agent generates a blue component.',
    `artifact ${component.artifact_id} registered from ui.colour (already superseded)`,
    [],
  );

  await archiveMessage(canon, BOB, {
    text: 'Design review: the blue button is rejected; it does not follow the violet identity.',
  });
  const reviewed = await reviewArtifact(canon, BOB, 'settings-blue-button', 'rejected');
  record(
    '6. A design review rejects it.',
    `artifact ${reviewed.artifact_id} ${reviewed.acceptance_state}`,
    [],
  );

  const set = await workingSet(canon, STORY_PROJECT, { objective: OBJECTIVE });
  record(
    '7. A new agent resumes the project.',
    `working set: ${set.notes.length} current note(s), ${set.excluded} superseded left out, ${set.tokens} tokens`,
    [],
  );
  return summarize(runtime, steps, false);
}

/** What the new agent of event 7 is asked to do. */
const OBJECTIVE = 'Build the settings page in the current visual identity and interface colour';

async function summarize(
  runtime: CanonryRuntime,
  steps: StoryStep[],
  existing: boolean,
): Promise<StoryResult> {
  const { canon } = runtime;
  const reader = canon.reader(STORY_PROJECT);
  const board: Record<string, CanonObject[]> = {};
  for (const o of await reader.objects()) {
    board[o.status] = [...(board[o.status] ?? []), o];
  }
  return {
    steps,
    existing,
    board,
    proposals: await reader.proposals(),
    artifacts: await artifactStatusPage(canon.readerAs(STORY_PROJECT), { limit: 1000 }),
    provenance: await provenance(canon, STORY_PROJECT, 'design.identity'),
    workingSet: await workingSet(canon, STORY_PROJECT, { objective: OBJECTIVE }),
  };
}
