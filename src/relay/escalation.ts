import type { Principal } from '../canon/index.js';
import { decisionNote, objectIdOf } from './canon-map.js';
import type { Relay } from './relay.js';
import type { RelaySessionRecord } from './session-types.js';
import type { Decision, UnsealedCso } from './types.js';

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

/**
 * Proposes, for a person, each decision revised too often (§6.3): S3 by its `oversight` tag. The
 * proposals are made before the window commits (a proposal held for an owner cannot join canon's
 * all-or-nothing batch), so a window that then fails must take them back: {@link withdrawStray}.
 */
export async function escalateDue(
  relay: Relay,
  session: RelaySessionRecord,
  agent: Principal,
  cso: UnsealedCso,
): Promise<Map<string, Escalation>> {
  const escalations = new Map<string, Escalation>();
  try {
    for (const decision of dueForEscalation(cso, session.max_revisions)) {
      escalations.set(decision.decision_id, await escalate(relay, session, agent, decision));
    }
  } catch (err) {
    await withdraw(
      relay,
      agent,
      escalations.values(),
      `escalating the decisions of a window of ${session.session_id} failed`,
    );
    throw err;
  }
  return escalations;
}

async function escalate(
  relay: Relay,
  session: RelaySessionRecord,
  agent: Principal,
  decision: Decision,
): Promise<Escalation> {
  const objectId = objectIdOf(session.session_id, decision.decision_id);
  const object = await relay.projectCanon.reader(session.project).object(objectId);
  const note = decisionNote(session.session_id, decision);
  const outcome = await relay.projectCanon.propose(agent, {
    object_id: objectId,
    intent: 'update',
    base_version: (object?.current_version_ref as never) ?? null,
    candidate: { ...note, tags: [...note.tags, 'oversight'] },
    rationale: `revised ${decision.revisions ?? 0} times and invalidated again: a person decides whether it stands`,
  });
  return { proposal_id: outcome.proposal.proposal_id, object_id: objectId };
}

/**
 * After window `windowNumber` failed, withdraws (as the agent that proposed them) the escalations
 * it made, so a person is not asked twice when the window is tried again, nor about a window that
 * never was (another window of the session completed first). A proposal is kept when the window
 * did commit after all (a COMMIT whose answer was lost) and its CSO names it. Best effort: the
 * window's own failure is what its caller needs, so a withdrawal that fails is left pending.
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

/** Rejects each proposal as its proposer (a withdrawal), leaving pending any that cannot be. */
async function withdraw(
  relay: Relay,
  agent: Principal,
  escalations: Iterable<Escalation>,
  reason: string,
): Promise<void> {
  for (const { proposal_id } of escalations) {
    try {
      await relay.projectCanon.reject(agent, proposal_id, reason);
    } catch {}
  }
}
