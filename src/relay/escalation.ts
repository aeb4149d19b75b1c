import type { Principal, ProposalInput, ProposalRecord } from '../canon/index.js';
import { CanonryError, canonicalize } from '../core/index.js';
import { isStoreOutage, type Queryable } from '../store/index.js';
import { decisionNote, namespaceOf, objectIdOf } from './canon-map.js';
import type { Relay } from './relay.js';
import type { RelaySessionRecord } from './session-types.js';
import type { CognitiveStateObject, Decision, UnsealedCso } from './types.js';

/** A decision sent to a person (§6.3): the canon proposal an owner must decide. */
export interface Escalation {
  readonly proposal_id: string;
  readonly object_id: string;
}

/** The decisions that must go to a person now: flagged again at the revision bound (§6.3). */
export function dueForEscalation(cso: UnsealedCso, max: number): Decision[] {
  return cso.decisions.filter(
    (d) => d.needs_revision === true && d.escalated === undefined && (d.revisions ?? 0) >= max,
  );
}

/** Per relay, the attempts at a window of each session (`project session`) running in this process. */
const running = new WeakMap<Relay, Map<string, number>>();

/**
 * Runs `attempt` (one attempt at a window of `session`, its escalations through to its commit or
 * their withdrawal) counted as running in this process: {@link escalateDue} leaves alone the
 * proposals of a session another attempt here is still working with.
 */
export async function asAttempt<T>(
  relay: Relay,
  session: RelaySessionRecord,
  attempt: () => Promise<T>,
): Promise<T> {
  const counts = running.get(relay) ?? new Map<string, number>();
  running.set(relay, counts);
  const key = `${session.project} ${session.session_id}`;
  counts.set(key, (counts.get(key) ?? 0) + 1);
  try {
    return await attempt();
  } finally {
    const left = counts.get(key)! - 1;
    if (left === 0) counts.delete(key);
    else counts.set(key, left);
  }
}

/**
 * Proposes, for a person, each decision of window `windowNumber` revised too often (§6.3): S3 by
 * its `oversight` tag. The proposals are made before the window commits (a proposal held for an
 * owner cannot join canon's all-or-nothing batch), so a window that then fails must take them back:
 * {@link withdrawStray}. A process that dies first cannot; the next attempt finds what it left
 * ({@link strayEscalations}): a question it would ask again as it stands is asked by the one
 * pending already, any other is withdrawn, and one a person answered meanwhile is the answer
 * ({@link answeredStrays}), so a person has one question a decision.
 */
export async function escalateDue(
  relay: Relay,
  session: RelaySessionRecord,
  agent: Principal,
  windowNumber: number,
  prior: CognitiveStateObject | null,
  cso: UnsealedCso,
): Promise<Map<string, Escalation>> {
  const due = dueForEscalation(cso, session.max_revisions);
  const strays = await strayEscalations(relay, session, agent, windowNumber, prior);
  const escalations = new Map<string, Escalation>();
  try {
    let asks: [Decision, ProposalInput][] = [];
    for (const decision of due) {
      const input = await escalationInput(relay, session, decision);
      const same = strays.findIndex((p) => asksAs(p, input));
      if (same < 0) asks.push([decision, input]);
      else {
        const [kept] = strays.splice(same, 1);
        escalations.set(decision.decision_id, {
          proposal_id: kept!.proposal_id,
          object_id: kept!.object_id,
        });
      }
    }
    // A question a person already answered (an attempt that died left it, and they decided it
    // before the session resumed) is not asked again: the answer is the escalation.
    const answered = await answeredStrays(relay, session, agent, prior, asks);
    asks = asks.filter(([decision, input]) => {
      const found = answered.find((p) => asksAs(p, input, { anyBase: true }));
      if (!found) return true;
      escalations.set(decision.decision_id, {
        proposal_id: found.proposal_id,
        object_id: found.object_id,
      });
      return false;
    });
    await withdraw(
      relay,
      agent,
      strays,
      `an attempt at a window of ${session.session_id} that was not relayed made it, and no CSO of the session names it; window ${windowNumber} asks what is due now`,
    );
    for (const [decision, input] of asks) {
      const outcome = await relay.projectCanon.propose(agent, input);
      escalations.set(decision.decision_id, {
        proposal_id: outcome.proposal.proposal_id,
        object_id: input.object_id,
      });
    }
  } catch (err) {
    await withdraw(
      relay,
      agent,
      escalations.values(),
      `escalating the decisions of window ${windowNumber} of ${session.session_id} failed`,
    );
    throw err;
  }
  return escalations;
}

/** The proposal that sends `decision` to a person: an update of its note, flagged `oversight`. */
async function escalationInput(
  relay: Relay,
  session: RelaySessionRecord,
  decision: Decision,
): Promise<ProposalInput> {
  const objectId = objectIdOf(session.session_id, decision.decision_id);
  const object = await relay.projectCanon.reader(session.project).object(objectId);
  const note = decisionNote(session.session_id, decision);
  return {
    object_id: objectId,
    intent: 'update',
    base_version: (object?.current_version_ref as never) ?? null,
    candidate: { ...note, tags: [...note.tags, 'oversight'] },
    rationale: `revised ${decision.revisions ?? 0} times and invalidated again: a person decides whether it stands`,
  };
}

/**
 * Whether the pending proposal asks what `input` would: the same note, on the same version, for
 * the same reason (canon pins the note's dependencies as it takes it in; the note is compared
 * without them).
 */
function asksAs(
  proposal: ProposalRecord,
  input: ProposalInput,
  { anyBase = false }: { anyBase?: boolean } = {},
): boolean {
  const { dependency_versions: _, ...candidate } = proposal.candidate;
  return (
    proposal.object_id === input.object_id &&
    proposal.intent === input.intent &&
    (anyBase || proposal.base_version === input.base_version) &&
    proposal.rationale === input.rationale &&
    canonicalize(candidate) === canonicalize(input.candidate)
  );
}

/**
 * The session's escalations no committed CSO names: pending `oversight` proposals its agent made
 * in its namespace that the last CSO does not name — left by an attempt that died between its
 * escalations and its commit, or whose withdrawal failed. The last CSO is enough: an escalated
 * decision is never revised again, so every later CSO carries it as escalated.
 *
 * Bounded: only a session that may have made one looks — a decision of its last CSO, not
 * escalated, is one revision short of the bound or past it (an attempt escalates only such a
 * decision, or its revision) — and it reads only the pending proposals in the session's namespace
 * (a range of canon's index of proposals by object). None is touched while
 * another attempt at the session runs in this process (its proposals are its own to commit or
 * withdraw), nor when the session moved on since this attempt began (it will fail to commit).
 */
async function strayEscalations(
  relay: Relay,
  session: RelaySessionRecord,
  agent: Principal,
  windowNumber: number,
  prior: CognitiveStateObject | null,
): Promise<ProposalRecord[]> {
  const near = (d: Decision) =>
    d.escalated === undefined && (d.revisions ?? 0) >= session.max_revisions - 1;
  if (!prior?.decisions.some(near) || othersRunning(relay, session)) return [];
  const named = new Set(prior.decisions.map((d) => d.escalated));
  const namespace = namespaceOf(session.session_id);
  const pending = (await relay.projectCanon.reader(session.project).pendingUnder(namespace)).filter(
    (p) =>
      p.proposer.id === agent.id &&
      p.candidate.tags.includes('oversight') &&
      !named.has(p.proposal_id),
  );
  if (pending.length === 0) return [];
  const row = await relay.reader(session.project).session(session.session_id);
  // Asked again after the reads: an attempt here that escalated meanwhile had begun to run first.
  return row?.windows === windowNumber - 1 && !othersRunning(relay, session) ? pending : [];
}

/**
 * Escalations of the decisions `asks` would escalate that a person already decided, though no CSO
 * names them: an attempt that died between its escalation and its commit made them. Read by the
 * decisions' objects (canon's index), so only their own proposals are read. An approval moved the
 * note on, so these are matched by what they ask, not by the version they were asked on. One the
 * agent decided is a withdrawal, not an answer.
 */
async function answeredStrays(
  relay: Relay,
  session: RelaySessionRecord,
  agent: Principal,
  prior: CognitiveStateObject | null,
  asks: readonly (readonly [Decision, ProposalInput])[],
): Promise<ProposalRecord[]> {
  if (asks.length === 0) return [];
  const named = new Set(prior?.decisions.map((d) => d.escalated) ?? []);
  const on = await relay.projectCanon
    .reader(session.project)
    .proposalsOn(asks.map(([, input]) => input.object_id));
  return on.filter(
    (p) =>
      p.status !== 'pending' &&
      p.decided_by !== null &&
      p.decided_by.id !== agent.id &&
      p.proposer.id === agent.id &&
      p.candidate.tags.includes('oversight') &&
      !named.has(p.proposal_id),
  );
}

function othersRunning(relay: Relay, session: RelaySessionRecord): boolean {
  return (running.get(relay)?.get(`${session.project} ${session.session_id}`) ?? 0) > 1;
}

/**
 * Inside the window's commit: each escalation it names still asks a person — not withdrawn by its
 * agent meanwhile (an attempt elsewhere that found it stray). One a person already answered stands.
 */
export function escalationsStand(
  relay: Relay,
  session: RelaySessionRecord,
  agent: Principal,
  escalations: ReadonlyMap<string, Escalation>,
) {
  return async (tx: Queryable) => {
    if (escalations.size === 0) return;
    const ids = [...escalations.values()].map((e) => e.proposal_id);
    const found = await relay.projectCanon.reader(session.project, tx).proposalsById(ids);
    for (const id of ids) {
      const p = found.get(id);
      if (!p || (p.status !== 'pending' && p.decided_by?.id === agent.id)) {
        throw new CanonryError(
          'CONFLICT',
          `the escalation ${id} of ${session.session_id} was withdrawn meanwhile`,
          { proposal_id: id },
        );
      }
    }
  };
}

/**
 * After window `windowNumber` failed, withdraws (as the agent that proposed them) the escalations
 * it made, so a person is not asked twice when the window is tried again, nor about a window that
 * never was (another window of the session completed first). A proposal is kept when the window
 * did commit after all (a COMMIT whose answer was lost) and its CSO names it. Best effort: the
 * window's own failure is what its caller needs, so a withdrawal that fails is left pending (the
 * next attempt at the session finds it).
 */
export async function withdrawStray(
  relay: Relay,
  session: RelaySessionRecord,
  agent: Principal,
  windowNumber: number,
  escalations: ReadonlyMap<string, Escalation>,
): Promise<void> {
  if (escalations.size === 0) return;
  let named: Set<string | undefined>;
  try {
    const window = await relay.window(session.project, session.session_id, windowNumber);
    named = new Set(window?.cso.decisions.map((d) => d.escalated) ?? []);
  } catch {
    return;
  }
  await withdraw(
    relay,
    agent,
    [...escalations.values()].filter((e) => !named.has(e.proposal_id)),
    `window ${windowNumber} of ${session.session_id}, which escalated it, was not relayed`,
  );
}

/**
 * Rejects each proposal as its proposer (a withdrawal), leaving pending any that cannot be — and
 * the rest too once the store is out of reach or waited out a bound, each of which would wait out
 * the same outage.
 */
async function withdraw(
  relay: Relay,
  agent: Principal,
  escalations: Iterable<{ readonly proposal_id: string }>,
  reason: string,
): Promise<void> {
  for (const { proposal_id } of escalations) {
    try {
      await relay.projectCanon.reject(agent, proposal_id, reason);
    } catch (err) {
      if (isStoreOutage(err)) return;
    }
  }
}
