import { runLcsmStory, STORY_PROJECT, type StoryStep } from '../../app/index.js';
import type { Receipt } from '../../journal/index.js';
import { emit } from '../io.js';
import { withRuntime } from '../runtime.js';

function receiptLines(receipt: Receipt): string[] {
  const flagged = receipt.checks.filter((c) => c.result !== 'pass').map((c) => c.name);
  const gate = receipt.checks.find((c) => c.name === 'stakes_gate');
  return [
    `     receipt ${receipt.receipt_id} ${receipt.acceptance_state}: ${receipt.prior_state_ref.seq} → ${receipt.result_state_ref.seq}`,
    ...(gate ? [`       gate: ${gate.detail}`] : []),
    ...(flagged.length > 0 ? [`       flagged: ${flagged.join(', ')}`] : []),
    ...(receipt.affected_dependents.length > 0
      ? [
          `       stale: ${receipt.affected_dependents.map((d) => (typeof d === 'string' ? d : `${d.id} ${d.state}`)).join(', ')}`,
        ]
      : []),
  ];
}

function countBy(items: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts.size === 0
    ? ['  none']
    : [...counts].map(([item, n]) => `  ${String(n).padStart(3)} ${item}`);
}

function printStep(step: StoryStep): void {
  process.stdout.write(
    `${[step.event, `   → ${step.outcome}`, ...step.receipts.flatMap(receiptLines)].join('\n')}\n`,
  );
}

/**
 * The LCSM §1 story into the project `demo`: every receipt as it is written, then the final board,
 * the artifacts, a provenance walk and what a new agent receives instead of the transcript.
 */
export async function lcsmDemo(opts: {
  data?: string;
  db?: string;
  json?: boolean;
}): Promise<void> {
  await withRuntime(
    opts,
    async (runtime) => {
      const json = opts.json === true;
      const story = await runLcsmStory(runtime, json ? undefined : printStep);
      // The story's completed work becomes signed, governed events (GCS): wait until it has.
      await runtime.evolution?.idle();
      const events = runtime.evolution
        ? await runtime.evolution.events.list(STORY_PROJECT, { limit: 1000 })
        : [];
      const p = story.provenance;
      // A token to open the story in the workbench with: the story's owner, a person.
      const { token } = await runtime.tokens.create(STORY_PROJECT, 'alice', 'owner');
      const { host, port, dataDir } = runtime.config;
      const workbench = {
        serve: `canonry serve --data ${dataDir}`,
        url: `http://${host}:${port}/?project=${STORY_PROJECT}`,
        project: STORY_PROJECT,
        principal: 'alice',
        role: 'owner',
        token,
      };
      const result = { ...story, events, workbench };
      emit(json, result, () => [
        ...(result.existing
          ? [
              `Project ${STORY_PROJECT} in ${runtime.config.dataDir} already holds the story; the journal is append-only, so here is its state (use --data <new dir> to run it again).`,
            ]
          : []),
        '',
        `Board of project ${STORY_PROJECT}:`,
        ...Object.entries(result.board).flatMap(([status, objects]) =>
          objects.map(
            (o) =>
              `  ${status.padEnd(11)} ${o.object_id.padEnd(16)} v${o.version_id} ${o.text}${o.superseded_by ? ` (superseded by ${o.superseded_by})` : ''}`,
          ),
        ),
        ...result.proposals
          .filter((q) => q.status !== 'committed')
          .map(
            (q) =>
              `  ${`${q.status} proposal`.padEnd(11)} ${q.object_id.padEnd(16)} by ${q.proposer.id}: ${q.candidate.text}`,
          ),
        ...result.artifacts.map(
          (a) =>
            `  artifact    ${a.manifest.artifact_id}: ${a.manifest.acceptance_state}, ${a.state} — ${a.reasons.join('; ')}`,
        ),
        '',
        `Provenance of ${p.object.object_id}:`,
        `  what it says       ${p.why.statement} (${p.epistemic}, ${p.why.confidence})`,
        `  source             ${p.why.sources.map((s) => `"${s.quote}" (${s.message_id}, ${s.speaker} ${s.actor})`).join('; ')}`,
        `  current since      v${p.current_since.version_id} at ${p.current_since.timestamp} (${p.current_since.receipt_ref})`,
        `  authorized by      ${p.authorized_by.proposer?.id} proposing, ${p.authorized_by.approver?.id ?? 'no one'} approving; ${p.authorized_by.stakes} ${p.authorized_by.gate}, signed ${p.authorized_by.gate_event}`,
        `  replaced           ${p.replaced.superseded_objects.map((o) => `${o.object_id} ("${o.text}")`).join(', ') || 'nothing'}`,
        `  built on old       ${p.built_from_old.map((a) => a.artifact_id).join(', ') || 'nothing'}`,
        `  stale if changed   ${[...p.stale_if_changed.artifacts.map((a) => a.manifest.artifact_id), ...p.stale_if_changed.objects].join(', ') || 'nothing'}`,
        `  restorable to      ${p.restorable.map((r) => `v${r.version_id}`).join(', ') || 'no earlier version'}`,
        '',
        `What a new agent receives (${result.workingSet.tokens} tokens):`,
        result.workingSet.capsule,
        '',
        `Qualified cognitive events of ${STORY_PROJECT} (signed, governed; \`canonry events list --project ${STORY_PROJECT}\`, \`canonry events verify --project ${STORY_PROJECT}\`):`,
        ...countBy(events.map((e) => `${e.event_type} from ${e.class}`)),
        '',
        'Open it in the workbench:',
        `  ${workbench.serve}    (in this checkout: npm run canonry -- serve --data ${dataDir})`,
        `  then ${workbench.url} and paste alice's owner token (kept in that tab only):`,
        `  ${token}`,
      ]);
    },
    { evolution: true },
  );
}
