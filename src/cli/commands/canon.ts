import type { Command } from 'commander';
import {
  type ArtifactStatus,
  type CanonObject,
  type Claim,
  COMPARISON_CHECKS,
  type DependencyState,
  type EffectiveState,
  type IntakeResult,
  isConcern,
  type ProposalOutcome,
  type ProposalRecord,
  type Provenance,
  type UnclassifiedMessage,
  type WorkingSet,
} from '../../canon/index.js';
import { CanonryError } from '../../core/index.js';
import {
  authorizeToken,
  type Board,
  CANON_ROUTES,
  type ClassifierView,
  canonPrincipal,
  type ObjectView,
  type ProposalView,
  refuseReservedProject,
} from '../../server/index.js';
import { emit, readJson } from '../io.js';
import { DATA_FLAG, DB_FLAG, type RuntimeFlags, withRuntime } from '../runtime.js';

interface CanonFlags extends RuntimeFlags {
  token?: string;
  project?: string;
  json?: boolean;
}

/**
 * Runs one canon operation as the principal of `--token` (or CANONRY_TOKEN), through the same route
 * handler, checks and least role as the HTTP API. Authority comes from the token, never a flag.
 */
async function invoke(
  operationId: string,
  flags: CanonFlags,
  input: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown } = {},
): Promise<unknown> {
  const route = CANON_ROUTES.find((r) => r.operationId === operationId);
  if (!route) throw new CanonryError('INTERNAL', `no canon operation ${operationId}`);
  const token = flags.token ?? process.env.CANONRY_TOKEN;
  return withRuntime(flags, async (runtime) => {
    const auth = await authorizeToken(runtime.tokens, token ?? null, flags.project, route.minRole);
    const principal = canonPrincipal(auth);
    refuseReservedProject(principal.project);
    return route.handler({
      runtime,
      principal,
      project: principal.project,
      params: input.params ?? {},
      query: input.query ?? {},
      body: input.body,
    });
  });
}

/** The flags every `canon` subcommand takes. */
function common(command: Command): Command {
  return command
    .option('--token <token>', 'bearer token to act as (CANONRY_TOKEN)')
    .option('--project <name>', "the project (must be the token's; default: the token's)")
    .option(...DATA_FLAG)
    .option(...DB_FLAG)
    .option('--json', 'print JSON');
}

function outcomeLine(o: ProposalOutcome): string {
  const p = o.proposal;
  const needs = p.status === 'pending' ? ` (needs ${p.required_role} approval)` : '';
  const version = o.committed ? `, now version ${o.committed.version_id}` : '';
  return `${p.proposal_id} ${p.intent} ${p.object_id}: ${p.comparison.stakes} ${p.gate.label} → ${p.status}${needs}${version}`;
}

/** What the commit flagged downstream, one line each (the receipt's affected dependents). */
function affectedLines(o: ProposalOutcome): string[] {
  return o.receipt.affected_dependents.map((d) =>
    typeof d === 'string'
      ? `  stale: ${d}`
      : `  ${d.state} ${d.kind} ${d.id} (depth ${d.depth}): ${d.cause}`,
  );
}

function intakeLines(r: IntakeResult & { hint?: string }): string[] {
  const m = r.message;
  const out = [
    `archived ${m.message_id} (${m.role}, by ${m.actor}${m.visibility === 'personal' ? ', personal' : ''})`,
  ];
  if (r.classification) {
    const touched = r.classification.touched;
    out.push(
      `classified ${r.classification.outcome}${touched.length > 0 ? `, touching ${touched.join(', ')}` : ''}`,
    );
  }
  for (const p of r.proposals ?? []) {
    out.push(p.ok ? `  ${outcomeLine(p.outcome)}` : `  ${p.object_id}: ${p.code}: ${p.message}`);
  }
  if (r.hint) out.push(r.hint);
  return out;
}

/**
 * One object; `effective` (board, object view) marks one out of its window as not current canon,
 * `dependency` one that rests on something that moved.
 */
function objectLine(
  o: CanonObject,
  effective?: EffectiveState,
  dependency?: DependencyState | null,
): string {
  const lapsed =
    effective === 'expired' ? '[expired] ' : effective === 'not_yet_effective' ? '[not yet] ' : '';
  const revise = dependency ? `[NEEDS REVISION: ${dependency.cause}] ` : '';
  return `${o.object_id.padEnd(24)} v${String(o.version_id).padEnd(3)} ${o.status.padEnd(11)} ${o.object_type.padEnd(12)} ${lapsed}${revise}${o.text}`;
}

function proposalLine(p: ProposalRecord): string {
  return `${p.proposal_id} ${p.status.padEnd(9)} ${p.intent.padEnd(9)} ${p.object_id.padEnd(20)} ${p.comparison.stakes} ${p.gate.label}${p.status === 'pending' ? ` needs ${p.required_role}${p.approval_requires_base ? ` with --base ${p.approval_requires_base}` : ''}` : ''}: ${p.candidate.text}`;
}

function artifactLine(a: ArtifactStatus): string {
  const m = a.manifest;
  return `${m.artifact_id} v${m.artifact_version}: ${a.state} (${m.acceptance_state})${a.reasons.length > 0 ? ` — ${a.reasons.join('; ')}` : ''}`;
}

function proposalViewLines(v: ProposalView): string[] {
  const flagged = COMPARISON_CHECKS.filter((name) => isConcern(name, v.checks[name].result)).map(
    (name) => `  ! ${name}: ${v.checks[name].detail}`,
  );
  const decided =
    v.status === 'pending'
      ? v.required_role
        ? `, needs ${v.required_role}`
        : ''
      : `${v.approval_role ? `, ${v.approval_role} approval was required` : ''}${v.approved_by ? `, approved by ${v.approved_by.id} (${v.approved_by.role})` : ''}${v.status === 'rejected' && v.reason ? `: ${v.reason}` : ''}`;
  const acknowledge =
    v.status === 'pending' && v.approval_requires_base && !v.stale
      ? [
          `canon moved and this was compared again: it would now overwrite the CURRENT below; approve with --base ${v.approval_requires_base}`,
        ]
      : [];
  return [
    `${v.proposal_id} ${v.intent} ${v.object_id}: ${v.status}${decided}${v.stale ? ' (STALE: canon moved; approval will re-compare)' : ''}`,
    ...acknowledge,
    `CURRENT   ${v.current.content ? `${v.current.content.text} [${v.current.content.confidence_state}]` : '(none)'}`,
    `CANDIDATE ${v.candidate.content?.text ?? ''} [${v.candidate.content?.confidence_state ?? ''}] by ${v.proposer.id} (${v.proposer.role})`,
    ...(v.claim
      ? [
          `CLAIM     ${v.claim.statement} [${v.claim.confidence_state}] (disputes the current statement)`,
        ]
      : []),
    ...(v.claim_id ? [`RESOLVES  ${v.claim_id} stands; why: ${v.rationale ?? ''}`] : []),
    `stakes ${v.stakes}, gate ${v.gate.label}, signed verdict ${v.gate.verification.ok ? 'verifies' : `does not verify (${v.gate.verification.issue})`}`,
    ...(flagged.length > 0 ? flagged : ['  no check raised']),
  ];
}

/** A dispute's claim: its state, statement, and who holds it on what source (LCSM §15). */
function claimLine(c: Claim): string {
  const held = c.holders
    .map(
      (h) =>
        `${h.principal.id} (${h.principal.role})${h.sources.map((s) => ` ${s.message_id}[${s.span[0]}:${s.span[1]}]`).join('')}`,
    )
    .join(', ');
  return `claim ${c.claim_id} ${c.state}: "${c.statement}" held by ${held}`;
}

function provenanceLines(p: Provenance): string[] {
  const by = p.authorized_by;
  return [
    `${p.object.object_id} v${p.object.version_id} (${p.object.status}, ${p.epistemic}${p.effective === 'in_effect' ? '' : `, ${p.effective.replaceAll('_', ' ')}`}): ${p.why.statement}`,
    ...(p.dependency_state
      ? [
          `NEEDS REVISION (depth ${p.dependency_state.depth}): ${p.dependency_state.cause}; path ${p.dependency_state.path.join(' → ')}`,
        ]
      : []),
    `why: ${p.why.confidence}${p.why.sources.map((s) => `; "${s.quote}" (${s.message_id}, said by ${s.actor} as ${s.speaker})`).join('')}`,
    `current since ${p.current_since.timestamp} (receipt ${p.current_since.receipt_ref})`,
    `authorized by ${by.proposer?.id ?? '?'} (${by.proposer?.role ?? '?'})${by.approver ? `, approved by ${by.approver.id} (${by.approver.role})` : ''}; ${by.stakes ?? '?'} ${by.gate ?? '?'}`,
    `replaced: ${p.replaced.previous_version ? `version ${p.replaced.previous_version.version_id}` : 'nothing'}${p.replaced.superseded_objects.length > 0 ? `; supersedes ${p.replaced.superseded_objects.map((o) => o.object_id).join(', ')}` : ''}`,
    `built from older versions: ${p.built_from_old.map((b) => `${b.artifact_id} (v${b.version_id})`).join(', ') || 'none'}`,
    `stale if changed: ${[...p.stale_if_changed.artifacts.map((a) => a.manifest.artifact_id), ...p.stale_if_changed.objects].join(', ') || 'nothing'}`,
    `restorable: ${p.restorable.map((r) => `v${r.version_id} ${r.version_hash}`).join(', ') || 'no earlier version'}`,
    ...(p.resolution
      ? [`resolved: ${p.resolution.claim_id} stands; why: ${p.resolution.rationale}`]
      : []),
    ...p.claims.map(claimLine),
  ];
}

function boardLines(b: Board): string[] {
  const out = [`board of ${b.project}`];
  for (const [status, objects] of Object.entries(b.objects)) {
    if (objects.length > 0)
      out.push(
        `## ${status}`,
        ...objects.map((o) => objectLine(o, o.effective, o.dependency_state)),
      );
  }
  if (b.pending.length > 0) out.push('## pending proposals', ...b.pending.map(proposalLine));
  if (b.artifacts.length > 0) out.push('## artifacts', ...b.artifacts.map(artifactLine));
  return out;
}

/** Runs an operation and prints its result as JSON or as the lines `render` makes. */
function run<T>(
  operationId: string,
  render: (result: T) => string[],
  input: (
    flags: CanonFlags & Record<string, unknown>,
    args: string[],
  ) => Parameters<typeof invoke>[2],
) {
  return async (...all: unknown[]) => {
    const command = all.at(-1) as Command;
    const flags = command.opts() as CanonFlags & Record<string, unknown>;
    const args = all.slice(0, -2) as string[];
    const result = (await invoke(operationId, flags, input(flags, args))) as T;
    emit(flags.json === true, result, () => render(result));
  };
}

/** The message text: the argument or `--text`, exactly one. */
function messageText(said: string | undefined, flag: unknown): string {
  if ((said === undefined) === (flag === undefined)) {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      'give the message as the argument or as --text (exactly one)',
    );
  }
  return (said ?? flag) as string;
}

/** A comma-separated flag as its trimmed, non-empty items. */
const list = (value: string): string[] =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');

function unclassifiedLine(u: UnclassifiedMessage): string {
  const m = u.message;
  const why = u.failure
    ? `${u.failure.code} x${u.failure.attempts}: ${u.failure.detail}`
    : 'not tried (archived only)';
  return `${m.message_id} (${m.role}, by ${m.actor}): ${why}`;
}

function classifierLines(v: ClassifierView): string[] {
  const out = [
    `classifier: ${v.kind}${v.model ? ` (${v.model})` : ''}; ${v.subjects} subject(s) (${v.source}${v.seq === null ? '' : `, journal seq ${v.seq}`})`,
  ];
  for (const [id, s] of Object.entries(v.config.subjects)) {
    out.push(`  ${id.padEnd(24)} ${s.object_type.padEnd(12)} ${s.title}: ${s.keywords.join(', ')}`);
  }
  if (v.subjects === 0 && v.config.derive_ids !== false) {
    out.push(
      '  (no subjects: decisions, instructions and preferences get ids derived from their sentence)',
    );
  }
  return out;
}

const defined = (values: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(values).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );

/**
 * `canonry canon …`: the LCSM loop from the command line, acting as the principal of a bearer token
 * (from `canonry tokens create`), with the same checks and roles as the HTTP API.
 */
export function canonCommand(program: Command): void {
  // `canon restore … --version <hash>` must reach the subcommand: the root's own `--version` is only
  // recognised before a subcommand name (as `canonry --version` is used anyway).
  program.enablePositionalOptions();
  const canon = program
    .command('canon')
    .description('the governed canon of a project, as the principal of --token (or CANONRY_TOKEN)');

  common(
    canon
      .command('message [text]')
      .description('archive a message and classify it into proposals')
      .option('--text <text>', 'the message, exactly as said (or give it as the argument)')
      .option('--role <role>', 'who spoke: user, assistant, agent, tool (not authority)')
      .option('--id <message_id>', 'a message id of your own (retries are idempotent)')
      .option(
        '--personal',
        'a personal message: only you read or cite it, and its notes stay yours',
      )
      .option('--no-classify', 'archive only'),
  ).action(
    run<IntakeResult>('postMessage', intakeLines, (f, [said]) => ({
      query: defined({ classify: f.classify === false ? 'false' : undefined }),
      body: {
        text: messageText(said, f.text),
        ...defined({
          role: f.role,
          message_id: f.id,
          visibility: f.personal === true ? 'personal' : undefined,
        }),
      },
    })),
  );

  common(
    canon
      .command('unclassified')
      .description('archived messages never classified (model down, output refused), with why'),
  ).action(
    run<{ messages: UnclassifiedMessage[] }>(
      'listUnclassified',
      (r) =>
        r.messages.length > 0
          ? r.messages.map(unclassifiedLine)
          : ['every archived message is classified'],
      () => ({}),
    ),
  );

  common(
    canon
      .command('classify <message_id>')
      .description('classify an archived message again (its speaker only)'),
  ).action(
    run<IntakeResult>('classifyMessage', intakeLines, (_f, [id]) => ({ params: { id: id! } })),
  );

  common(
    canon.command('subjects').description("the classifier's subjects (editors and owners)"),
  ).action(run<ClassifierView>('getClassifier', classifierLines, () => ({})));

  const subject = canon
    .command('subject')
    .description("add, replace or remove a subject of the project's classifier (journaled)");
  common(
    subject
      .command('set <object_id>')
      .description('add or replace a subject: messages naming a keyword draft notes of this id')
      .requiredOption('--title <title>', 'the title its notes get')
      .requiredOption('--type <object_type>', 'decision, fact, preference, constraint, …')
      .requiredOption('--keywords <list>', 'comma-separated words or phrases that name it')
      .option('--tags <list>', 'comma-separated tags (identity, publication, budget, …)'),
  ).action(
    run<ClassifierView>('putSubjects', classifierLines, (f, [id]) => ({
      body: {
        subjects: {
          [id!]: {
            title: f.title,
            object_type: f.type,
            keywords: list(f.keywords as string),
            ...(f.tags === undefined ? {} : { tags: list(f.tags as string) }),
          },
        },
      },
    })),
  );
  common(subject.command('remove <object_id>').description('remove a subject')).action(
    run<ClassifierView>('removeSubject', classifierLines, (_f, [id]) => ({ params: { id: id! } })),
  );

  common(
    canon
      .command('propose')
      .description(
        'propose a mutation from a JSON file (a ProposalInput); candidate.dependency_refs lists ids (pinned to their current version) or { object_id, version_hash }',
      )
      .requiredOption('--file <proposal.json>', 'the proposal'),
  ).action(
    run<ProposalOutcome>(
      'postProposal',
      (o) => [outcomeLine(o), ...affectedLines(o)],
      (f) => ({ body: readJson(f.file as string, '--file') }),
    ),
  );

  common(
    canon
      .command('approve <proposal_id>')
      .description('approve a pending proposal')
      .option(
        '--base <hash>',
        'the version you saw as current (sha256:…); required after canon moved and the proposal was compared again (`canon proposal` shows it)',
      ),
  ).action(
    run<ProposalOutcome>(
      'approveProposal',
      (o) => [`approved: ${outcomeLine(o)}`, ...affectedLines(o)],
      (f, [id]) => ({
        params: { id: id! },
        body: typeof f.base === 'string' ? { base_version: f.base } : {},
      }),
    ),
  );

  common(
    canon
      .command('reject <proposal_id>')
      .description('reject (or, as its proposer, withdraw) a pending proposal')
      .requiredOption('--reason <reason>', 'why'),
  ).action(
    run<{ proposal: ProposalRecord }>(
      'rejectProposal',
      (r) => [`rejected ${r.proposal.proposal_id}: ${r.proposal.reason}`],
      (f, [id]) => ({ params: { id: id! }, body: { reason: f.reason } }),
    ),
  );

  common(
    canon
      .command('restore <object_id>')
      .description('restore an earlier version (appends a new version; history is kept)')
      .requiredOption(
        '--version <n|hash>',
        'the version to bring back: its number (3) or its hash (sha256:…)',
      )
      .option('--rationale <text>', 'why'),
  ).action(
    run<ProposalOutcome>(
      'restoreObject',
      (o) => [outcomeLine(o), ...affectedLines(o)],
      (f, [id]) => {
        const version = f.version as string;
        return {
          params: { id: id! },
          body: {
            // A number is a version number (the server refuses 0); anything else a hash.
            ...(/^\d{1,15}$/.test(version)
              ? { version: Number(version) }
              : { version_hash: version }),
            ...defined({ rationale: f.rationale }),
          },
        };
      },
    ),
  );

  common(
    canon
      .command('resolve <object_id>')
      .description(
        'resolve a dispute: the open claim that stands, and why (gated; the other claims stay in history)',
      )
      .requiredOption('--claim <claim_id>', 'the claim that stands (claim_…, see `canon object`)')
      .requiredOption('--rationale <text>', 'why it stands'),
  ).action(
    run<ProposalOutcome>(
      'resolveObject',
      (o) => [outcomeLine(o), ...affectedLines(o)],
      (f, [id]) => ({
        params: { id: id! },
        body: { claim_id: f.claim, rationale: f.rationale },
      }),
    ),
  );

  common(
    canon
      .command('objects')
      .description('list canonical objects')
      .option(
        '--status <list>',
        'comma-separated: active, provisional, disputed, superseded, retired',
      ),
  ).action(
    run<{ objects: CanonObject[] }>(
      'listObjects',
      (r) => (r.objects.length > 0 ? r.objects.map((o) => objectLine(o)) : ['no objects']),
      (f) => ({ query: defined({ status: f.status }) }),
    ),
  );

  common(
    canon.command('object <object_id>').description('an object and its current version'),
  ).action(
    run<ObjectView>(
      'getObject',
      (v) => [
        objectLine(v.object, v.effective, v.dependency_state),
        `current ${v.current.version_hash} by ${v.current.actor} at ${v.current.timestamp} (${v.versions} version(s))`,
        ...v.object.source_refs.map((s) => `source "${s.quote}" (${s.message_id})`),
        ...v.claims.map(claimLine),
      ],
      (_f, [id]) => ({ params: { id: id! } }),
    ),
  );

  common(
    canon.command('provenance <object_id>').description('why an object is current (LCSM §8)'),
  ).action(
    run<Provenance>('getProvenance', provenanceLines, (_f, [id]) => ({ params: { id: id! } })),
  );

  common(
    canon
      .command('proposals')
      .description('list proposals')
      .option('--status <status>', 'pending, committed or rejected'),
  ).action(
    run<{ proposals: ProposalRecord[] }>(
      'listProposals',
      (r) => (r.proposals.length > 0 ? r.proposals.map(proposalLine) : ['no proposals']),
      (f) => ({ query: defined({ status: f.status }) }),
    ),
  );

  common(
    canon.command('proposal <proposal_id>').description('the two-note view of a proposal'),
  ).action(
    run<ProposalView>('getProposal', proposalViewLines, (_f, [id]) => ({ params: { id: id! } })),
  );

  common(
    canon.command('board').description('objects by status, pending proposals, artifacts'),
  ).action(run<Board>('getBoard', boardLines, () => ({})));

  common(
    canon
      .command('working-set')
      .description('the working set a model reads instead of the transcript (prints its capsule)')
      .option('--objective <text>', 'the task')
      .option('--object <object_id>', 'one object, with its dependencies and dependents')
      .option('--limit <n>', 'most objects chosen by relevance (1–100)'),
  ).action(
    run<WorkingSet>(
      'compileWorkingSet',
      (w) => [
        w.capsule,
        '',
        `(${w.tokens} tokens, ${w.excluded} superseded or retired left out${w.expired + w.not_yet_effective > 0 ? `, ${w.expired} expired and ${w.not_yet_effective} not yet in effect left out` : ''})`,
      ],
      (f) => {
        const limit = f.limit as string | undefined;
        if (limit !== undefined && !/^\d{1,3}$/.test(limit)) {
          throw new CanonryError('INVALID_ARGUMENT', '--limit must be an integer 1–100');
        }
        return {
          body: {
            ...defined({ objective: f.objective, object_id: f.object }),
            ...(limit !== undefined ? { limit: Number(limit) } : {}),
          },
        };
      },
    ),
  );

  common(canon.command('artifacts').description('artifacts with their §10 states')).action(
    run<{ artifacts: ArtifactStatus[] }>(
      'listArtifacts',
      (r) => (r.artifacts.length > 0 ? r.artifacts.map(artifactLine) : ['no artifacts']),
      () => ({}),
    ),
  );

  const artifact = canon.command('artifact').description('register, review or show an artifact');
  common(
    artifact
      .command('register')
      .description('register an artifact manifest from a JSON file')
      .requiredOption('--file <manifest.json>', 'the manifest'),
  ).action(
    run<ArtifactStatus>(
      'registerArtifact',
      (a) => [`registered ${artifactLine(a)}`],
      (f) => ({ body: readJson(f.file as string, '--file') }),
    ),
  );
  common(
    artifact
      .command('review <artifact_id>')
      .description('record a review (owners and editors)')
      .requiredOption('--acceptance <state>', 'accepted | rejected | proposed'),
  ).action(
    run<ArtifactStatus>(
      'reviewArtifact',
      (a) => [`reviewed ${artifactLine(a)}`],
      (f, [id]) => ({ params: { id: id! }, body: { acceptance_state: f.acceptance } }),
    ),
  );
  common(artifact.command('show <artifact_id>').description('one artifact and its state')).action(
    run<ArtifactStatus>(
      'getArtifact',
      (a) => [artifactLine(a)],
      (_f, [id]) => ({
        params: { id: id! },
      }),
    ),
  );
}
