import type { AirPolicy } from '../air/index.js';
import type { Principal } from '../canon/index.js';
import { CanonryError, canonicalize, contentHash, isContentHash, nextTurn } from '../core/index.js';
import type { WindowSignals } from '../dpe/index.js';
import type { EntryInput } from '../journal/index.js';
import type { Queryable } from '../store/index.js';
import { journaledAnswersSoon } from './answers.js';
import { type CanonChanges, canonInputs, decisionNote, objectIdOf } from './canon-map.js';
import { checkContribution } from './contribution.js';
import { csoChange } from './cso-change.js';
import { csoId, sealCso } from './cso-seal.js';
import { RELAY_HALT, RELAY_WINDOW } from './entry-kinds.js';
import {
  asAttempt,
  type Escalation,
  escalateDue,
  escalationsStand,
  withdrawStray,
} from './escalation.js';
import { extractFromText, mergeExtracted } from './extract/index.js';
import { DependencyIndex } from './graph.js';
import { carryStep } from './graph-delta.js';
import { relayHeaders } from './headers.js';
import type { MergeResult } from './merge.js';
import { statusAfter } from './pending.js';
import { remainingOf, type WindowPlan, windowPlan } from './prepare.js';
import { REPETITION_WINDOWS, type WindowQuality, windowQuality } from './quality.js';
import type { SessionRow } from './reader.js';
import type { Relay } from './relay.js';
import { sealAhead } from './seal-ahead.js';
import type {
  Invalidation,
  RelaySessionRecord,
  RelayWindowEntry,
  RelayWindowRecord,
  RevisionEvent,
  WindowKind,
} from './session-types.js';
import { normaliseStatement } from './statement.js';
import type {
  CognitiveStateObject,
  Contribution,
  ToolResult,
  UnsealedCso,
  Verification,
} from './types.js';
import { mergeUnused } from './used-ids.js';
import { verifyCso } from './verify.js';

/** The most text one window may hand in (the extractor reads all of it). */
export const MAX_OUTPUT_CHARS = 262_144;

/** The largest window record: the journal's bound on one entry's body, less its envelope. */
export const MAX_WINDOW_RECORD_BYTES = 1_000_000;

/** What completing a window came to. */
export interface CompletedWindow {
  /** relayed: verified and committed; regenerate: not verified, nothing journaled, run it again;
   * halted: not verified and the session is stopped (§5.2). */
  readonly status: 'relayed' | 'regenerate' | 'halted';
  readonly session_id: string;
  readonly window_number: number;
  readonly kind: WindowKind;
  /** The sealed CSO relayed forward (null unless relayed). */
  readonly cso: CognitiveStateObject | null;
  readonly verification: Verification;
  readonly revisions: readonly RevisionEvent[];
  /** The DPE's signals and AIR's step (null unless relayed). */
  readonly signals: WindowSignals | null;
  readonly quality: WindowQuality | null;
  readonly headers: Readonly<Record<string, string>>;
}

export const authority = (p: Principal) => ({ principal: p.id, role: p.role, project: p.project });

/** The agent principal a session's state is committed as. */
export function agentOf(session: RelaySessionRecord): Principal {
  return { id: session.agent, project: session.project, role: 'agent' };
}

/** Inside the commit: the session is still active and this is still its next window. */
export function stillNext(project: string, sessionId: string, windows: number) {
  return async (tx: Queryable) => {
    const [row] = await tx.all<{ status: string; windows: number | string }>(
      'SELECT status, windows FROM relay_sessions WHERE project = $1 AND session_id = $2',
      [project, sessionId],
    );
    if (row?.status !== 'active' || Number(row.windows) !== windows) {
      throw new CanonryError(
        'CONFLICT',
        `window ${windows + 1} of ${sessionId} was completed meanwhile`,
        {
          windows: row ? Number(row.windows) : null,
        },
      );
    }
  };
}

/** Tool results the window reports whose scratch id canon holds with another value: refreshed. */
async function refreshedTools(
  relay: Relay,
  session: RelaySessionRecord,
  tools: readonly ToolResult[],
): Promise<{ create: ToolResult[]; refresh: ToolResult[] }> {
  const reader = relay.canon.reader(session.project);
  const create: ToolResult[] = [];
  const refresh: ToolResult[] = [];
  for (const [i, tool] of tools.entries()) {
    const object = await reader.object(objectIdOf(session.session_id, tool.scratch_id));
    if (!object) create.push(tool);
    else {
      const current = await reader.version(object.current_version_ref as never);
      const shape = current?.content.shape as { relay?: string; result_hash?: string } | null;
      if (shape?.relay !== 'tool') {
        const field = `/tool_results/${i}/scratch_id`;
        throw new CanonryError(
          'MODEL_OUTPUT_INVALID',
          `${field}: ${tool.scratch_id} is the id of a fact or decision of this session, not of a tool result`,
          { field },
        );
      }
      if (shape.result_hash !== tool.result_hash) refresh.push(tool);
    }
  }
  return { create, refresh };
}

/**
 * What the window changes in canon: the new state against the prior one. A fact that left the
 * state is a new version of its note, `superseded` or `retired` — canon's cascade then marks what
 * rests on it (§3.2) —; a revised decision supersedes the one it revises (§6.2).
 */
function changesOf(
  prior: CognitiveStateObject | null,
  next: UnsealedCso,
  tools: { create: ToolResult[]; refresh: ToolResult[] },
  superseded: ReadonlySet<string>,
): CanonChanges {
  const priorFacts = new Map((prior?.established_facts ?? []).map((f) => [f.fact_id, f]));
  const nextFacts = new Set(next.established_facts.map((f) => f.fact_id));
  const priorDecisions = new Map((prior?.decisions ?? []).map((d) => [d.decision_id, d]));
  const nextDecisions = new Set(next.decisions.map((d) => d.decision_id));
  const changes: CanonChanges = {
    tools,
    facts: { create: [], retire: [] },
    decisions: { create: [], update: [], supersede: [] },
  };
  for (const fact of next.established_facts) {
    if (!priorFacts.has(fact.fact_id)) changes.facts.create.push(fact);
  }
  for (const fact of priorFacts.values()) {
    if (!nextFacts.has(fact.fact_id)) {
      changes.facts.retire.push({
        fact,
        status: superseded.has(fact.fact_id) ? 'superseded' : 'retired',
      });
    }
  }
  for (const decision of next.decisions) {
    const before = priorDecisions.get(decision.decision_id);
    if (before === decision) continue; // carried as it was
    if (before) {
      const changed =
        canonicalize(decisionNote('s', before)) !== canonicalize(decisionNote('s', decision));
      if (changed) changes.decisions.update.push(decision);
    } else if (
      decision.revises &&
      priorDecisions.has(decision.revises) &&
      !nextDecisions.has(decision.revises)
    ) {
      changes.decisions.supersede.push({ decision, replaces: decision.revises });
    } else {
      changes.decisions.create.push(decision);
    }
  }
  return changes;
}

/**
 * The window's invalidations (§3.2), for the record and for the revision windows they make due:
 * each prior fact or tool result that left, the fact that stands in its place (a fact stating the
 * same as a contribution fact that superseded it, or the new reading of a refreshed tool), and the
 * decisions it flagged.
 */
function invalidationsOf(
  prior: CognitiveStateObject | null,
  next: CognitiveStateObject,
  contribution: Contribution,
  merged: MergeResult,
): Invalidation[] {
  if (!prior) return [];
  const index = DependencyIndex.of(prior);
  const flagged = new Set(merged.flagged);
  const added = new Set(merged.added);
  const byStatement = new Map(
    next.established_facts
      .filter((f) => added.has(f.fact_id))
      .map((f) => [normaliseStatement(f.statement), f.fact_id]),
  );
  const replacement = new Map<string, string>();
  for (const f of contribution.facts) {
    const id = byStatement.get(normaliseStatement(f.statement));
    for (const old of f.supersedes ?? []) if (id) replacement.set(old, id);
  }
  for (const f of next.established_facts) {
    if (added.has(f.fact_id) && f.provenance === 'TOOL' && f.provenance_ref) {
      replacement.set(f.provenance_ref, f.fact_id);
    }
  }
  const roots = [...new Set([...merged.superseded, ...merged.invalidated])].filter(
    (id) => !index.dependenciesOf(id).some((d) => merged.invalidated.includes(d)),
  );
  return roots.map((id) => ({
    id,
    by: replacement.get(id) ?? null,
    flagged: index
      .invalidate([id])
      .map((a) => a.id)
      .filter((d) => flagged.has(d))
      .sort(),
  }));
}

/**
 * Completes one window (see `Relay.completeWindow`). Nothing is journaled unless the state
 * verifies: then the window's canon notes, its escalations' record and the sealed CSO commit in one
 * transaction, and only if no other window of the session completed meanwhile.
 */
export async function completeWindow(
  relay: Relay,
  principal: Principal,
  row: SessionRow,
  last: RelayWindowRecord | null,
  output: string,
  contributionRaw: unknown,
  options: {
    model: string | null;
    air: AirPolicy;
    contextPacketHash?: string | null;
    answers?: readonly string[];
  },
): Promise<CompletedWindow> {
  const { model } = options;
  // Checked first; a long answer's deflate runs on its own thread through the merge (`answers.ts`).
  const replayParts = replayPartsOf(options, output);
  const { session } = row;
  const project = session.project;
  const windowNumber = row.windows + 1;
  if (typeof output !== 'string')
    throw new CanonryError('INVALID_BODY', 'output must be a string', { field: 'output' });
  if (output.length > MAX_OUTPUT_CHARS)
    throw new CanonryError('INVALID_BODY', `output is over ${MAX_OUTPUT_CHARS} characters`, {
      field: 'output',
    });
  if (!output.isWellFormed())
    throw new CanonryError('INVALID_BODY', 'output holds a lone surrogate', { field: 'output' });
  const given: Contribution = checkContribution(contributionRaw ?? {});
  const extracted = extractFromText(output, { window_number: windowNumber });
  const { contribution, uncaptured } = mergeExtracted(given, extracted);
  // A window is ~10 ms of synchronous steps on a large state (on SQLite even its reads and writes
  // are): each step ends its turn, so a server answers its other requests between them.
  await nextTurn();
  const plan = await windowPlan(relay, principal, row, last);
  const { target, goal } = plan;
  const kind: WindowKind = target ? 'revision' : 'work';
  if (target && !contribution.decisions.some((d) => d.revises === target.decision_id)) {
    throw new CanonryError(
      'MODEL_OUTPUT_INVALID',
      `window ${windowNumber} is a revision of ${target.decision_id}: its contribution must revise it (a decision with revises = "${target.decision_id}")`,
      { field: 'decisions', revision_target: target.decision_id },
    );
  }
  const prior = last?.cso ?? null;
  // The scratch notes canon holds for tool results: new ones, and ones refreshed with another value.
  const tools = await refreshedTools(relay, session, contribution.tool_results);
  const merged = await mergeUnused(relay, project, prior, contribution, {
    session_id: session.session_id,
    window_number: windowNumber,
    genesis: session.genesis,
    goal_state: goal,
    max_revisions: session.max_revisions,
  });
  await nextTurn();
  const { cso: repaired, verification } = verifyCso(prior, merged.draft, {
    uncapturedClaims: uncaptured,
    retired: merged.retired,
  });
  const base = { session_id: session.session_id, window_number: windowNumber, kind };
  const unrelayed = (status: 'regenerate' | 'halted'): CompletedWindow => ({
    ...base,
    status,
    cso: null,
    verification,
    revisions: [],
    signals: null,
    quality: null,
    headers: {},
  });
  if (!verification.verified) {
    if (session.on_unverified === 'regenerate') return unrelayed('regenerate');
    await relay.canon.journal.append(
      project,
      RELAY_HALT.input(
        {
          halt: {
            session_id: session.session_id,
            window_number: windowNumber,
            reason: 'the window state could not be repaired',
            verification,
          },
        },
        {
          actor: principal.id,
          authority: authority(principal),
          correlation_id: session.session_id,
        },
      ),
      { precondition: stillNext(project, session.session_id, row.windows) },
    );
    return unrelayed('halted');
  }
  const verified: VerifiedWindow = {
    row,
    last,
    prior,
    windowNumber,
    kind,
    plan,
    contribution,
    merged,
    repaired,
    verification,
    tools,
    output,
    model,
    air: options.air,
    replayParts,
  };
  // Escalated before committing (a proposal held for an owner cannot join canon's batch), and
  // withdrawn if the window then fails.
  const agent = agentOf(session);
  await nextTurn();
  return asAttempt(relay, session, async () => {
    const escalations = await escalateDue(relay, session, agent, windowNumber, prior, repaired);
    try {
      return await sealAndCommit(relay, verified, agent, escalations);
    } catch (err) {
      await withdrawStray(relay, session, agent, windowNumber, escalations);
      throw err;
    }
  });
}

/** A window whose state verified (§5): what sealing it and committing it takes. */
interface VerifiedWindow {
  readonly row: SessionRow;
  readonly last: RelayWindowRecord | null;
  readonly prior: CognitiveStateObject | null;
  readonly windowNumber: number;
  readonly kind: WindowKind;
  readonly plan: WindowPlan;
  readonly contribution: Contribution;
  readonly merged: MergeResult;
  readonly repaired: UnsealedCso;
  readonly verification: Verification;
  readonly tools: { create: ToolResult[]; refresh: ToolResult[] };
  readonly output: string;
  readonly model: string | null;
  readonly air: AirPolicy;
  readonly replayParts: () => Pick<RelayWindowEntry, 'context_packet_hash' | 'answers'>;
}

/**
 * Seals the verified state (naming its escalations), measures the window, and commits the window's
 * canon changes with its `relay.window` record in one transaction — only if no other window of the
 * session completed meanwhile and its escalations still ask a person.
 */
async function sealAndCommit(
  relay: Relay,
  w: VerifiedWindow,
  agent: Principal,
  escalations: ReadonlyMap<string, Escalation>,
): Promise<CompletedWindow> {
  const { session } = w.row;
  const project = session.project;
  const { prior, windowNumber, kind, plan, verification } = w;
  const cso = await sealState(relay, w, escalations);
  await nextTurn();
  const invalidations = invalidationsOf(prior, cso, w.contribution, w.merged);
  const revisions = revisionEvents(w, cso, invalidations, escalations);
  const revisedNow = revisions.filter((r) => r.revised_by !== null);
  // CRP-018: the DPE's signals for the window's text, and AIR's step over them (the next IAP).
  const measured = await windowQuality(relay.judge, {
    windowNumber,
    output: w.output,
    prior,
    next: cso,
    tools: w.contribution.tool_results,
    goal: plan.goal,
    kind,
    objective: session.objective,
    earlier: await relay.reader(project).recent(session.session_id, REPETITION_WINDOWS),
    policy: w.air,
  });
  await nextTurn();
  const headers = {
    ...relayHeaders(cso, verification, {
      count: revisedNow.length,
      ...(revisedNow[0] ? { target: revisedNow[0].target } : {}),
    }),
    ...measured.headers,
  };
  const record: RelayWindowRecord = {
    session_id: session.session_id,
    window_number: windowNumber,
    kind,
    revision_target: plan.target?.decision_id ?? null,
    cso,
    remaining: kind === 'work' ? cso.goal_state.remaining : remainingOf(w.row, w.last),
    verification,
    invalidations,
    revisions,
    output: { text: w.output, hash: contentHash(w.output), model: w.model },
    signals: measured.signals,
    quality: measured.quality,
    headers,
  };
  const entry: EntryInput = RELAY_WINDOW.input(
    { window: windowEntryOf(record, prior, w.replayParts) },
    { actor: agent.id, authority: authority(agent), correlation_id: cso.cso_id },
  );
  await nextTurn();
  const seq = await commitWindow(relay, w, agent, cso, entry, escalations);
  relay.remember(project, session.session_id, record, seq);
  return {
    session_id: session.session_id,
    window_number: windowNumber,
    kind,
    status: 'relayed',
    cso,
    verification,
    revisions,
    signals: measured.signals,
    quality: measured.quality,
    headers,
  };
}

/** The verified state sealed with the project's HMAC key, each escalated decision naming its proposal. */
async function sealState(
  relay: Relay,
  w: VerifiedWindow,
  escalations: ReadonlyMap<string, Escalation>,
): Promise<CognitiveStateObject> {
  const { session } = w.row;
  const { prior, repaired } = w;
  const unsealed: UnsealedCso = {
    ...repaired,
    cso_id: csoId(session.session_id, w.windowNumber, prior?.cso_hmac ?? session.genesis),
    prior_cso_hash: prior?.cso_hmac ?? session.genesis,
    // The same list when nothing escalates, so sealing sees the verified step's lists.
    decisions:
      escalations.size === 0
        ? repaired.decisions
        : repaired.decisions.map((d) => {
            const e = escalations.get(d.decision_id);
            return e ? { ...d, escalated: e.proposal_id } : d;
          }),
    verified: true,
  };
  carryStep(repaired, unsealed, { items: escalations.size === 0 });
  await sealAhead(prior, unsealed);
  const key = await relay.hmac.current(session.project);
  return sealCso(unsealed, (bytes) => `hmac-sha256:${key.keyId}:${key.sign(bytes)}`);
}

/** The window's REVISION events (§6.2, §6.3): each decision it revised, then each it escalated. */
function revisionEvents(
  w: VerifiedWindow,
  cso: CognitiveStateObject,
  invalidations: readonly Invalidation[],
  escalations: ReadonlyMap<string, Escalation>,
): RevisionEvent[] {
  const revisions: RevisionEvent[] = [];
  // What made each revision due: for this revision window's target, the fact it was given.
  const causes = new Map<string, string | null>(
    invalidations.flatMap((inv) => inv.flagged.map((id) => [id, inv.by] as const)),
  );
  if (w.plan.revision)
    causes.set(w.plan.revision.decision.decision_id, w.plan.revision.newFact.fact_id);
  for (const d of cso.decisions) {
    if (d.window_origin === w.windowNumber && d.revises) {
      revisions.push({
        target: d.revises,
        revised_by: d.decision_id,
        new_fact: causes.get(d.revises) ?? null,
        count: d.revisions ?? 1,
        escalation: null,
      });
    }
  }
  for (const [id, escalation] of escalations) {
    const d = cso.decisions.find((x) => x.decision_id === id)!;
    revisions.push({
      target: id,
      revised_by: null,
      new_fact: null,
      count: d.revisions ?? 0,
      escalation,
    });
  }
  return revisions;
}

/**
 * What the window journals: its record with the CSO as its change from the prior (and the replay's
 * parts). A window record is one journal entry (at most 1 MiB): a state that outgrew it is refused
 * here, by name, before anything is journaled. The raw answers are for replay only: they go first.
 */
function windowEntryOf(
  record: RelayWindowRecord,
  prior: CognitiveStateObject | null,
  replayParts: VerifiedWindow['replayParts'],
): RelayWindowEntry {
  const { cso, ...parts } = record;
  let window: RelayWindowEntry = {
    ...parts,
    state: csoChange(prior, cso),
    sealed_over: 'digest',
    status: statusAfter(record),
    ...replayParts(),
  };
  let bytes = Buffer.byteLength(canonicalize({ window }));
  if (bytes > MAX_WINDOW_RECORD_BYTES && window.answers !== undefined) {
    const { answers: _answers, ...lean } = window;
    window = lean;
    bytes = Buffer.byteLength(canonicalize({ window }));
  }
  if (bytes > MAX_WINDOW_RECORD_BYTES) {
    throw new CanonryError(
      'PAYLOAD_TOO_LARGE',
      `window ${record.window_number} would journal ${bytes} bytes: a session's state and one window's text must fit ${MAX_WINDOW_RECORD_BYTES} bytes; start a new session from a slice of this one`,
      { bytes, limit: MAX_WINDOW_RECORD_BYTES },
    );
  }
  return window;
}

/**
 * Commits the window's canon changes and its record in one transaction (`Canon.proposeBatch`; a
 * plain append when canon has nothing to change), on the condition that this is still the
 * session's next window and its escalations still ask a person. The entry's journal seq.
 */
async function commitWindow(
  relay: Relay,
  w: VerifiedWindow,
  agent: Principal,
  cso: CognitiveStateObject,
  entry: EntryInput,
  escalations: ReadonlyMap<string, Escalation>,
): Promise<number> {
  const { session } = w.row;
  const project = session.project;
  const changes = changesOf(w.prior, cso, w.tools, new Set(w.merged.superseded));
  // The notes the window replaces, read at once (one statement, not one a note).
  const objects = await relay.canon
    .reader(project)
    .objectsById(
      [
        ...changes.tools.refresh.map((t) => t.scratch_id),
        ...changes.facts.retire.map((f) => f.fact.fact_id),
        ...changes.decisions.update.map((d) => d.decision_id),
      ].map((id) => objectIdOf(session.session_id, id)),
    );
  const inputs = canonInputs(
    session.session_id,
    changes,
    (id) => (objects.get(id)?.current_version_ref as string | undefined) ?? null,
  );
  const next = stillNext(project, session.session_id, w.row.windows);
  const standing = escalationsStand(relay, session, agent, escalations);
  const precondition =
    escalations.size === 0
      ? next
      : async (tx: Queryable) => {
          await next(tx);
          await standing(tx);
        };
  const journaled =
    inputs.length === 0
      ? await relay.canon.journal.append(project, entry, { precondition })
      : (
          await relay.canon.proposeBatch(agent, inputs, {
            entries: [entry],
            precondition,
            outcomes: false,
          })
        ).entries[0]!;
  return journaled.entry.seq;
}

/**
 * What the window journals for a replay: the context packet's hash the caller gave (or the one
 * `prepareWindow` returned for this window), and the raw answers within `ANSWER_LIMITS`.
 * A malformed hash or answer list is INVALID_BODY, at once; the parts are given when called (the
 * answers' deflate goes on meanwhile).
 */
function replayPartsOf(
  options: { contextPacketHash?: string | null; answers?: readonly string[] },
  output: string,
): () => Pick<RelayWindowEntry, 'context_packet_hash' | 'answers'> {
  const hash = options.contextPacketHash ?? null;
  if (hash !== null && !isContentHash(hash)) {
    throw new CanonryError('INVALID_BODY', 'context_packet_hash must be a sha256: content hash', {
      field: 'context_packet_hash',
    });
  }
  const raws = options.answers;
  if (raws !== undefined && (!Array.isArray(raws) || raws.some((r) => typeof r !== 'string'))) {
    throw new CanonryError('INVALID_BODY', 'answers must be a list of strings', {
      field: 'answers',
    });
  }
  const answers = journaledAnswersSoon(raws, output);
  return () => {
    const journaled = answers();
    return {
      ...(hash === null ? {} : { context_packet_hash: hash }),
      ...(journaled === undefined ? {} : { answers: journaled }),
    };
  };
}
