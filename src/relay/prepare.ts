import { createHash } from 'node:crypto';
import type { Principal } from '../canon/index.js';
import { type ContentHash, canonicalize, contentHash } from '../core/index.js';
import type { ModelMessage } from '../models/index.js';
import { goalFor, revisionGoal } from './goal.js';
import { DependencyIndex } from './graph.js';
import { pendingRevisions } from './pending.js';
import {
  buildWindowPrompt,
  type DroppedItems,
  type RevisionContext,
  type WindowPromptTokens,
  type WindowSlice,
} from './prompt.js';
import type { SessionRow } from './reader.js';
import type { Relay } from './relay.js';
import type { RelayWindowRecord, WindowKind } from './session-types.js';
import type { CognitiveStateObject, Decision, EstablishedFact, GoalState } from './types.js';

/** What to send the model for the next window, and what the window is for. */
export interface PreparedWindow {
  readonly session_id: string;
  readonly window_number: number;
  readonly kind: WindowKind;
  /** For a revision window: the decision to revise. */
  readonly revision_target: string | null;
  readonly goal_state: GoalState;
  readonly slice: WindowSlice;
  readonly messages: readonly ModelMessage[];
  /**
   * The context packet's hash: `sha256:` of the canonical JSON (RFC 8785) of `messages`. The
   * window journals it (`relay.window`) when it is completed, so a replay can tell a changed
   * prompt from a changed answer.
   */
  readonly context_packet_hash: ContentHash;
  readonly tokens: WindowPromptTokens;
  /** Slice items left out to hold the token budget. */
  readonly dropped: DroppedItems;
  readonly over_budget: boolean;
}

/** The remaining work of a session: its last window's, or what it started with. */
export function remainingOf(row: SessionRow, last: RelayWindowRecord | null): readonly string[] {
  return last ? last.remaining : row.session.remaining;
}

/** Escalated decisions wait for a person: they are not revised again (§6.3). */
export function escalatedIn(cso: CognitiveStateObject | null): Set<string> {
  return new Set(
    (cso?.decisions ?? []).filter((d) => d.escalated !== undefined).map((d) => d.decision_id),
  );
}

/** The revision due next, if any: the first flagged decision in a stable order (§6.2). */
export function nextRevision(last: RelayWindowRecord | null): Decision | null {
  if (!last) return null;
  return pendingRevisions(last.cso, escalatedIn(last.cso))[0] ?? null;
}

/**
 * The fact whose change made `target` due: the latest invalidation that flagged it — the fact
 * that replaced what it rested on, or, when nothing did, a statement that its premise is gone.
 */
async function causeOf(
  relay: Relay,
  project: string,
  sessionId: string,
  target: Decision,
  cso: CognitiveStateObject,
): Promise<EstablishedFact> {
  const windows = await relay.reader(project).entries(sessionId);
  for (let i = windows.length - 1; i >= 0; i--) {
    const window = windows[i]!;
    for (const inv of window.invalidations) {
      if (!inv.flagged.includes(target.decision_id)) continue;
      const by = inv.by ? cso.established_facts.find((f) => f.fact_id === inv.by) : undefined;
      if (by) return by;
      return premiseGone(inv.id, window.window_number);
    }
  }
  return premiseGone(target.depends_on[0] ?? target.decision_id, cso.window_number);
}

function premiseGone(id: string, windowNumber: number): EstablishedFact {
  return {
    fact_id: id,
    statement: `${id} no longer holds: it was invalidated in window ${windowNumber}`,
    provenance: 'DERIVED',
    provenance_ref: id,
    confidence: 1,
    window_origin: windowNumber,
  };
}

/** What the next window is for and what state it is given, before any prompt is built. */
export interface WindowPlan {
  readonly target: Decision | null;
  readonly goal: GoalState;
  readonly slice: WindowSlice;
  readonly revision: RevisionContext | null;
}

/**
 * Plans the session's next window: a revision window when a decision is due for one, else the
 * next piece of work; the goal re-anchored (§4), and the CSO slice the window needs — for a
 * revision, exactly the target's dependencies and dependents (§6.2, §7.2).
 */
export async function windowPlan(
  relay: Relay,
  principal: Principal,
  row: SessionRow,
  last: RelayWindowRecord | null,
): Promise<WindowPlan> {
  const { session } = row;
  const cso = last?.cso ?? null;
  const target = nextRevision(last);
  if (target && cso) {
    const index = DependencyIndex.of(cso);
    const dependents = index.invalidate([target.decision_id]).map((d) => d.id);
    const newFact = await causeOf(relay, principal.project, session.session_id, target, cso);
    const sliced = index.slice(cso, [target.decision_id, ...dependents]);
    const items = new Map<string, Decision | EstablishedFact>([
      ...cso.established_facts.map((f) => [f.fact_id, f] as const),
      ...cso.decisions.map((d) => [d.decision_id, d] as const),
    ]);
    return {
      target,
      goal: revisionGoal(target, newFact, dependents, session.mode),
      slice: {
        facts: sliced.established_facts,
        decisions: sliced.decisions,
        constraints: cso.constraints,
        open_questions: cso.open_questions,
      },
      revision: {
        decision: target,
        newFact,
        dependents: dependents.flatMap((id) => items.get(id) ?? []),
      },
    };
  }
  const base = goalFor(session.mode, {
    remaining: remainingOf(row, last),
    total: session.remaining.length,
    window_number: row.windows + 1,
  });
  const goal: GoalState = {
    ...base,
    // The mode's contract names the piece of work; the session's objective says what it is for.
    objective:
      base.remaining.length > 0 ? `${base.objective} of: ${session.objective}` : session.objective,
    success_test: session.success_test ?? base.success_test,
  };
  return {
    target: null,
    goal,
    slice: {
      facts: cso?.established_facts ?? [],
      decisions: cso?.decisions ?? [],
      constraints: cso?.constraints ?? [],
      open_questions: cso?.open_questions ?? [],
    },
    revision: null,
  };
}

/** The messages for the planned window, with their token counts (`Relay.prepareWindow`). */
export async function prepareWindow(
  relay: Relay,
  principal: Principal,
  row: SessionRow,
  last: RelayWindowRecord | null,
  options: { maxTokens?: number; iap?: string | null },
): Promise<PreparedWindow> {
  const plan = await windowPlan(relay, principal, row, last);
  const prompt = buildWindowPrompt({
    goal: plan.goal,
    slice: plan.slice,
    iap: options.iap ?? null,
    revision: plan.revision,
    ...(options.maxTokens ? { budget: { maxTokens: options.maxTokens } } : {}),
  });
  return {
    session_id: row.session.session_id,
    window_number: row.windows + 1,
    kind: plan.target ? 'revision' : 'work',
    revision_target: plan.target?.decision_id ?? null,
    goal_state: plan.goal,
    slice: plan.slice,
    messages: prompt.messages,
    context_packet_hash: contextPacketHash(prompt.messages),
    tokens: prompt.tokens,
    dropped: prompt.dropped,
    over_budget: prompt.over_budget,
  };
}

/**
 * The hash of what a model is asked with: `sha256:` of the canonical JSON of the messages — fed to
 * the hash a piece at a time. The text is as long as the window's state (hundreds of KB); joined
 * first, the system message's non-Latin-1 characters make the whole text two bytes a character
 * before it is encoded, which cost more than hashing it.
 */
export function contextPacketHash(messages: readonly ModelMessage[]): ContentHash {
  if (!Array.isArray(messages)) return contentHash(messages);
  const sha = createHash('sha256');
  sha.update('[');
  messages.forEach((message, i) => {
    if (i > 0) sha.update(',');
    if (!isPlainMessage(message)) {
      sha.update(canonicalize(message));
      return;
    }
    sha.update('{"content":');
    sha.update(canonicalize(message.content));
    sha.update(',"role":');
    sha.update(canonicalize(message.role));
    sha.update('}');
  });
  sha.update(']');
  return `sha256:${sha.digest('hex')}`;
}

/** A plain object with a string `content` and `role` and nothing else (canonical: content first). */
function isPlainMessage(message: unknown): message is ModelMessage {
  if (typeof message !== 'object' || message === null) return false;
  if (Object.getPrototypeOf(message) !== Object.prototype) return false;
  const keys = Object.keys(message);
  const m = message as Record<string, unknown>;
  return (
    keys.length === 2 &&
    typeof m.content === 'string' &&
    typeof m.role === 'string' &&
    Object.hasOwn(m, 'content') &&
    Object.hasOwn(m, 'role')
  );
}
