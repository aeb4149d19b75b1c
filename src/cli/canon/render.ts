import type { TokenInfo } from '../../auth/index.js';
import {
  type ArchivedMessage,
  type ArtifactStatus,
  type CanonObject,
  type Claim,
  COMPARISON_CHECKS,
  type DependencyState,
  type EffectiveState,
  type GraphNode,
  type IntakeResult,
  isConcern,
  type NoteGraph,
  type ObjectStatus,
  type ProposalOutcome,
  type ProposalRecord,
  type Provenance,
  type UnclassifiedMessage,
  type WorkingSet,
} from '../../canon/index.js';
import type {
  Board,
  BoardCount,
  BoardObject,
  ClassifierView,
  ObjectView,
  ProposalView,
} from '../../operations/index.js';
import { PAGE } from '../../operations/index.js';

/** How `canonry canon …` prints an operation's answer without `--json`: lines, by operation. */

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

function messageLine(m: ArchivedMessage): string {
  return `${m.message_id} seq ${m.seq} ${(m.visibility ?? 'project').padEnd(8)} ${m.actor} (${m.role}) at ${m.captured_at}: ${m.text}`;
}

function artifactLine(a: ArtifactStatus): string {
  const m = a.manifest;
  return `${m.artifact_id} v${m.artifact_version}: ${a.state} (${m.acceptance_state})${a.reasons.length > 0 ? ` — ${a.reasons.join('; ')}` : ''}`;
}

function graphNodeLine(n: GraphNode): string {
  if (n.kind === 'artifact') return `artifact ${artifactLine(n.artifact)}`;
  if (n.kind === 'unknown') return `${n.object_id}: unknown (not readable here, or absent)`;
  const state = n.dependency_state ? `, needs revision: ${n.dependency_state.cause}` : '';
  return `${n.focus ? '* ' : ''}${n.object_id} (${n.object_type}, ${n.status}${state})`;
}

/** A note's graph: its nodes, then its edges (what moves → what rests on it). */
function graphLines(g: NoteGraph): string[] {
  const cut = g.truncated
    ? [`(cut at ${g.limit} nodes${g.omitted > 0 ? `: at least ${g.omitted} more, not drawn` : ''})`]
    : [];
  return [...g.nodes.map(graphNodeLine), ...g.edges.map((e) => `  ${e.from} → ${e.to}`), ...cut];
}

function gateWords(v: ProposalView['gate']['verification']): string {
  if (v.ok) return 'verifies';
  if (v.valid_at === undefined) return `does not verify (${v.issue})`;
  return `does not verify now (${v.issue}: its issuer's window ended after the proposal was recorded; it verifies with --at ${v.valid_at})`;
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
    `stakes ${v.stakes}, gate ${v.gate.label}, signed verdict ${gateWords(v.gate.verification)}`,
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
    `stale if changed: ${[...p.stale_if_changed.artifacts.map((a) => a.manifest.artifact_id), ...p.stale_if_changed.objects].join(', ') || 'nothing'}${p.stale_if_changed.cut ? ` and more (canonry canon graph ${p.object.object_id} reads on)` : ''}`,
    `restorable: ${p.restorable.map((r) => `v${r.version_id} ${r.version_hash}`).join(', ') || 'no earlier version'}${p.versions > p.history.length ? ` (the latest ${p.restorable.length} of ${p.versions - 1}; canonry canon versions ${p.object.object_id} --order newest --before ${p.history[0]?.version_id} for older)` : ''}`,
    ...(p.resolution
      ? [`resolved: ${p.resolution.claim_id} stands; why: ${p.resolution.rationale}`]
      : []),
    ...p.claims.map(claimLine),
  ];
}

/** A board group's heading: its total, and how many are shown when that is not all. */
function groupHeading(title: string, shown: number, count: BoardCount): string {
  return `## ${title} (${count.more ? `first ${shown} of ${count.total}` : count.total})`;
}

/** Where a board group reads on from: the paged list's command after the group's last row. */
function readOn(shown: number, count: BoardCount, command: string): string[] {
  return count.more ? [`… ${count.total - shown} more: canonry canon ${command}`] : [];
}

function boardLines(b: Board): string[] {
  const out = [`board of ${b.project}`];
  for (const [status, objects] of Object.entries(b.objects) as [ObjectStatus, BoardObject[]][]) {
    const count = b.counts.objects[status];
    if (objects.length > 0)
      out.push(
        groupHeading(status, objects.length, count),
        ...objects.map((o) => objectLine(o, o.effective, o.dependency_state)),
        ...readOn(
          objects.length,
          count,
          `objects --status ${status} --after ${objects.at(-1)?.object_id}`,
        ),
      );
  }
  if (b.pending.length > 0)
    out.push(
      groupHeading('pending proposals', b.pending.length, b.counts.pending),
      ...b.pending.map(proposalLine),
      ...readOn(
        b.pending.length,
        b.counts.pending,
        `proposals --status pending --after ${b.pending.at(-1)?.seq}`,
      ),
    );
  if (b.artifacts.length > 0)
    out.push(
      groupHeading('artifacts', b.artifacts.length, b.counts.artifacts),
      ...b.artifacts.map(artifactLine),
      ...readOn(
        b.artifacts.length,
        b.counts.artifacts,
        `artifacts --after ${b.artifacts.at(-1)?.manifest.artifact_id}`,
      ),
    );
  return out;
}

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

function tokenLine(t: TokenInfo): string {
  return `${t.token_id}  ${t.role.padEnd(6)}  ${t.principal.padEnd(20)}  created ${t.created_at}${t.revoked_at ? `  REVOKED ${t.revoked_at}` : ''}`;
}

/** One admission as `listAdmissions` answers it. */
interface AdmissionLine {
  readonly from_project: string;
  readonly admitted: boolean;
  readonly seq: number;
}

// biome-ignore lint/suspicious/noExplicitAny: each renderer takes its own operation's answer.
type Render = (result: any) => string[];

const withAffected = (o: ProposalOutcome) => [outcomeLine(o), ...affectedLines(o)];

/** The renderers, by operationId; an operation without one prints its JSON. */
export const RENDER: Readonly<Record<string, Render>> = {
  postMessage: intakeLines,
  classifyMessage: intakeLines,
  listUnclassified: (r: { messages: UnclassifiedMessage[] }) =>
    r.messages.length > 0
      ? r.messages.map(unclassifiedLine)
      : ['every archived message is classified'],
  listMessages: (r: { messages: ArchivedMessage[] }) =>
    r.messages.length > 0 ? r.messages.map(messageLine) : ['no messages'],
  getClassifier: classifierLines,
  putSubjects: classifierLines,
  removeSubject: classifierLines,
  postProposal: withAffected,
  approveProposal: (o: ProposalOutcome) => [`approved: ${outcomeLine(o)}`, ...affectedLines(o)],
  rejectProposal: (r: { proposal: ProposalRecord }) => [
    `rejected ${r.proposal.proposal_id}: ${r.proposal.reason}`,
  ],
  restoreObject: withAffected,
  resolveObject: withAffected,
  listObjects: (r: { objects: CanonObject[] }) =>
    r.objects.length > 0 ? r.objects.map((o) => objectLine(o)) : ['no objects'],
  getObject: (v: ObjectView) => [
    objectLine(v.object, v.effective, v.dependency_state),
    `current ${v.current.version_hash} by ${v.current.actor} at ${v.current.timestamp} (${v.versions} version(s))`,
    ...v.object.source_refs.map((s) => `source "${s.quote}" (${s.message_id})`),
    ...v.claims.map(claimLine),
  ],
  getProvenance: provenanceLines,
  getObjectGraph: graphLines,
  listProposals: (r: { proposals: ProposalRecord[] }) =>
    r.proposals.length > 0 ? r.proposals.map(proposalLine) : ['no proposals'],
  getProposal: proposalViewLines,
  getBoard: boardLines,
  compileWorkingSet: (w: WorkingSet) => [
    w.capsule,
    '',
    `(${w.tokens} tokens, ${w.excluded} superseded or retired left out${w.expired + w.not_yet_effective > 0 ? `, ${w.expired} expired and ${w.not_yet_effective} not yet in effect left out` : ''})`,
  ],
  listArtifacts: (r: { artifacts: ArtifactStatus[] }) =>
    r.artifacts.length > 0 ? r.artifacts.map(artifactLine) : ['no artifacts'],
  registerArtifact: (a: ArtifactStatus) => [`registered ${artifactLine(a)}`],
  reviewArtifact: (a: ArtifactStatus) => [`reviewed ${artifactLine(a)}`],
  getArtifact: (a: ArtifactStatus) => [artifactLine(a)],
  listAdmissions: (r: { admissions: AdmissionLine[] }) =>
    r.admissions.length > 0
      ? r.admissions.map(
          (a) => `${a.from_project} ${a.admitted ? 'admitted' : 'withdrawn'} (seq ${a.seq})`,
        )
      : ['no admissions'],
  listTokens: (r: { tokens: TokenInfo[] }) =>
    r.tokens.length > 0 ? r.tokens.map(tokenLine) : ['no tokens'],
  // The token alone on stdout (`T=$(canonry canon token create …)`); what it is goes to NOTES.
  createToken: (r: { token: string }) => [r.token],
  revokeToken: (r: { token_id: string }) => [`revoked ${r.token_id}`],
  verifyEvent: (r: {
    verified: boolean;
    label?: string;
    issuer?: string;
    error?: { code: string; message: string };
  }) =>
    r.verified
      ? [`VERIFIED ${r.label} (issuer ${r.issuer})`]
      : [`NOT VERIFIED ${r.error?.code}: ${r.error?.message}`],
};

/**
 * What a command tells the operator on stderr beside its rendered answer, by operationId (never
 * with `--json`, whose answer holds it): kept out of {@link RENDER} so stdout stays the one value a
 * script captures.
 */
export const NOTES: Readonly<Record<string, Note>> = {
  createToken: (r: { info: TokenInfo }) => [
    `${r.info.token_id}: ${r.info.principal} is ${r.info.role} of ${r.info.project}`,
  ],
  listProposals: nextPageNote('proposals'),
  listMessages: nextPageNote('messages'),
  listUnclassified: nextIdNote('messages', (u: UnclassifiedMessage) => String(u.message.seq)),
  listObjects: nextIdNote('objects', (o: CanonObject) => o.object_id),
  listArtifacts: nextIdNote('artifacts', (a: ArtifactStatus) => a.manifest.artifact_id),
  listTokens: nextIdNote('tokens', (t: TokenInfo) => t.token_id),
  listAdmissions: nextIdNote('admissions', (a: AdmissionLine) => a.from_project),
};

/** A note, from the answer and the query that asked for it; no lines, no note. */
// biome-ignore lint/suspicious/noExplicitAny: each note takes its own operation's answer.
type Note = (result: any, query: Readonly<Record<string, string>>) => string[];

/** A full page may not be the last: say how to ask for the next one. */
function nextPageNote(list: 'proposals' | 'messages'): Note {
  return fullPageNote(list, (last: { seq: number }, query) =>
    query.order === 'newest' ? `--before ${last.seq}` : `--after ${last.seq}`,
  );
}

/** {@link nextPageNote} of a list whose cursor is the last row's id (in the list's own order). */
function nextIdNote<Row>(list: string, idOf: (row: Row) => string): Note {
  return fullPageNote(list, (last: Row) => `--after ${idOf(last)}`);
}

function fullPageNote<Row>(
  list: string,
  cursor: (last: Row, query: Readonly<Record<string, string>>) => string,
): Note {
  return (r: Record<string, Row[]>, query) => {
    const page = r[list] ?? [];
    const limit = query.limit === undefined ? PAGE.default : Number(query.limit);
    const last = page.at(-1);
    if (last === undefined || page.length < limit) return [];
    return [`${page.length} shown, a full page: the next with ${cursor(last, query)}`];
  };
}
