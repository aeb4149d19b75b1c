import type { NoteContent, ProposalInput } from '../canon/index.js';
import { contentHash } from '../core/index.js';
import type { Decision, EstablishedFact, ToolResult } from './types.js';

/**
 * How a session's state lives in canon: every fact, decision and tool result is a note in the
 * session's namespace (`relay.<session>.<item>`), in the working plane, tagged `relay`. A
 * decision's `dependency_refs` are the notes it rests on, so canon's edge index is the reasoning
 * graph and canon's cascade marks what an invalidation reaches (CRP-030 §3, §8.3).
 */

const SAFE = /^[a-z0-9][a-z0-9._-]*$/;

/** The form `objectIdOf` names a hashed item id by: no item may take it as its own id. */
export const HASHED_ITEM_ID = /^h[0-9a-f]{24}$/;

/** What the canon object id of every item of a session starts with. */
export function namespaceOf(sessionId: string): string {
  return `relay.${sessionId}.`;
}

/** The canon object id of a CSO item (fact, decision or tool scratch id) of a session. */
export function objectIdOf(sessionId: string, itemId: string): string {
  // Canon ids are lower case: an id that is not already one is named by its hash, so `F1` and `f1`
  // stay two notes.
  const local =
    SAFE.test(itemId) && itemId.length <= 40 ? itemId : `h${contentHash(itemId).slice(7, 31)}`;
  return `${namespaceOf(sessionId)}${local}`;
}

/** What one window changes in canon, decided by comparing the prior state with the new one. */
export interface CanonChanges {
  readonly tools: { readonly create: ToolResult[]; readonly refresh: ToolResult[] };
  readonly facts: {
    readonly create: EstablishedFact[];
    /** Prior facts that left the state: replaced by a later window's (§3.1 "actually v3.4"), or
     * invalidated. */
    readonly retire: {
      readonly fact: EstablishedFact;
      readonly status: 'superseded' | 'retired';
    }[];
  };
  readonly decisions: {
    readonly create: Decision[];
    readonly update: Decision[];
    /** A revised decision standing in for an earlier one (§6.2: superseded, never erased). */
    readonly supersede: { readonly decision: Decision; readonly replaces: string }[];
  };
}

const title = (text: string) => (text.length <= 80 ? text : `${text.slice(0, 79)}…`);

function note(
  sessionId: string,
  type: 'fact' | 'decision',
  text: string,
  shape: Record<string, unknown>,
  dependsOn: readonly string[],
  confidence: NoteContent['confidence_state'],
  status: NoteContent['status'] = 'active',
): NoteContent {
  return {
    object_type: type,
    title: title(text),
    text,
    shape: shape as NoteContent['shape'],
    confidence_state: confidence,
    status,
    visibility: 'working',
    sources: [],
    dependency_refs: [...new Set(dependsOn.map((id) => objectIdOf(sessionId, id)))].sort(),
    effective_from: null,
    effective_until: null,
    tags: ['relay'],
  };
}

/** A fact's confidence as canon's epistemic states say it (tool and user facts are sourced). */
function confidenceOf(fact: EstablishedFact): NoteContent['confidence_state'] {
  if (fact.provenance === 'TOOL' || fact.provenance === 'USER' || fact.provenance === 'CKF')
    return 'sourced';
  if (fact.provenance === 'DERIVED') return 'inferred';
  return fact.confidence >= 0.5 ? 'asserted' : 'uncertain';
}

/** The items a fact rests on: the fact it was derived from, the tool result it came from. */
function factDependencies(fact: EstablishedFact): string[] {
  return (fact.provenance === 'DERIVED' || fact.provenance === 'TOOL') && fact.provenance_ref
    ? [fact.provenance_ref]
    : [];
}

export function factNote(
  sessionId: string,
  fact: EstablishedFact,
  status?: 'retired' | 'superseded',
): NoteContent {
  return note(
    sessionId,
    'fact',
    fact.statement,
    {
      relay: 'fact',
      fact_id: fact.fact_id,
      provenance: fact.provenance,
      provenance_ref: fact.provenance_ref,
      confidence: fact.confidence,
      window_origin: fact.window_origin,
    },
    factDependencies(fact),
    confidenceOf(fact),
    status,
  );
}

export function decisionNote(sessionId: string, decision: Decision): NoteContent {
  return note(
    sessionId,
    'decision',
    decision.choice,
    {
      relay: 'decision',
      decision_id: decision.decision_id,
      rationale: decision.rationale,
      alternatives: [...decision.alternatives],
      revisable: decision.revisable,
      window_origin: decision.window_origin,
      revisions: decision.revisions ?? 0,
      ...(decision.revises ? { revises: decision.revises } : {}),
    },
    // §8.2: a decision informed by a tool result rests on it, as its depends_on items do.
    decision.provenance === 'TOOL' && decision.provenance_ref
      ? [...decision.depends_on, decision.provenance_ref]
      : decision.depends_on,
    'asserted',
  );
}

export function toolNote(sessionId: string, tool: ToolResult): NoteContent {
  return note(
    sessionId,
    'fact',
    tool.summary,
    { relay: 'tool', scratch_id: tool.scratch_id, tool: tool.tool, result_hash: tool.result_hash },
    [],
    'sourced',
  );
}

/** The current version of each object the changes touch (null: not in canon). */
export type CurrentVersions = (objectId: string) => string | null;

/**
 * The proposals one window makes, in an order where everything a note depends on comes first:
 * tool results, facts (sources before what is derived from them), then decisions (what they rest
 * on first). One batch, one transaction (`Canon.proposeBatch`).
 */
export function canonInputs(
  sessionId: string,
  changes: CanonChanges,
  current: CurrentVersions,
): ProposalInput[] {
  const id = (item: string) => objectIdOf(sessionId, item);
  const inputs: ProposalInput[] = [];
  const base = (item: string) => current(id(item)) as ProposalInput['base_version'];
  for (const tool of changes.tools.create) {
    inputs.push({
      object_id: id(tool.scratch_id),
      intent: 'create',
      base_version: null,
      candidate: toolNote(sessionId, tool),
    });
  }
  for (const tool of changes.tools.refresh) {
    inputs.push({
      object_id: id(tool.scratch_id),
      intent: 'update',
      base_version: base(tool.scratch_id),
      candidate: toolNote(sessionId, tool),
      rationale: 'the tool result was refreshed with another value',
    });
  }
  for (const { fact, status } of changes.facts.retire) {
    inputs.push({
      object_id: id(fact.fact_id),
      intent: 'update',
      base_version: base(fact.fact_id),
      candidate: factNote(sessionId, fact, status),
      rationale:
        status === 'superseded'
          ? 'a later window established otherwise'
          : 'invalidated by a later window',
    });
  }
  for (const fact of ordered(changes.facts.create, factDependencies, (f) => f.fact_id)) {
    inputs.push({
      object_id: id(fact.fact_id),
      intent: 'create',
      base_version: null,
      candidate: factNote(sessionId, fact),
    });
  }
  const decisions = [
    ...changes.decisions.create.map((decision) => ({
      decision,
      replaces: null as string | null,
      update: false,
    })),
    ...changes.decisions.update.map((decision) => ({
      decision,
      replaces: null as string | null,
      update: true,
    })),
    ...changes.decisions.supersede.map(({ decision, replaces }) => ({
      decision,
      replaces,
      update: false,
    })),
  ];
  for (const { decision, replaces, update } of ordered(
    decisions,
    (d) => d.decision.depends_on,
    (d) => d.decision.decision_id,
  )) {
    inputs.push({
      object_id: id(decision.decision_id),
      intent: update ? 'update' : replaces ? 'supersede' : 'create',
      base_version: update ? base(decision.decision_id) : null,
      candidate: decisionNote(sessionId, decision),
      ...(replaces ? { supersedes: [id(replaces)] } : {}),
      rationale: decision.rationale,
    });
  }
  return inputs;
}

/** Items ordered so that each comes after the batch items it depends on (stable otherwise). */
function ordered<T>(
  items: readonly T[],
  deps: (t: T) => readonly string[],
  key: (t: T) => string,
): T[] {
  const byKey = new Map(items.map((t) => [key(t), t]));
  const done = new Set<string>();
  const out: T[] = [];
  const visit = (t: T, path: Set<string>) => {
    const k = key(t);
    if (done.has(k) || path.has(k)) return;
    path.add(k);
    for (const d of deps(t)) {
      const dep = byKey.get(d);
      if (dep) visit(dep, path);
    }
    path.delete(k);
    done.add(k);
    out.push(t);
  };
  for (const t of items) visit(t, new Set());
  return out;
}
