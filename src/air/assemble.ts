import type { Candidates } from './candidates.js';
import { clause } from './text.js';
import type {
  AirPacket,
  EpistemicMap,
  GoalResidual,
  QuarantineEntry,
  QuarantineItem,
  ReasoningScaffold,
} from './types.js';

/**
 * The budget's knobs, in the order it turns them down: the first is emptied first, the last
 * (the quarantine) only when nothing else is left (`src/air/README.md`, "Budget").
 */
export const DROP_ORDER = [
  'concept_freshness',
  'fresh_anchors',
  'forbidden_phrases',
  'flow_bridge',
  'verified_claims',
  'unverified_claims',
  'reasoning_scaffolds',
  'targeted_facts',
  'completed_sub_goals',
  'remaining_sub_goals',
  'error_quarantine',
] as const;
export type Knob = (typeof DROP_ORDER)[number];

/** How many items of each candidate list go into the packet. */
export type Shape = Record<Knob, number>;

/** Every candidate kept. */
export function fullShape(c: Candidates): Shape {
  return {
    concept_freshness: c.freshness.length,
    fresh_anchors: c.vocabulary?.anchors.length ?? 0,
    forbidden_phrases: c.vocabulary?.forbidden.length ?? 0,
    flow_bridge: c.flow === null ? 0 : 1,
    verified_claims: c.map?.verified.length ?? 0,
    unverified_claims: c.map?.unverified.length ?? 0,
    reasoning_scaffolds: c.scaffolds.length,
    targeted_facts: c.retrieval.length,
    completed_sub_goals: c.goal?.completed.length ?? 0,
    remaining_sub_goals: c.goal?.remaining.length ?? 0,
    error_quarantine: c.quarantine.length,
  };
}

/** §1.5: "Do NOT state or imply that [claim]. The verified fact is: [fact]." */
export function prohibition(claim: string, correction: string | null): string {
  const head = `Do NOT state or imply that ${clause(claim)}.`;
  return correction === null
    ? `${head} No context fact supports it: leave it out.`
    : `${head} The verified fact is: ${clause(correction)}.`;
}

function quarantined(q: QuarantineEntry): QuarantineItem {
  return {
    original_claim: q.original_claim,
    correction: q.correction,
    prohibition: prohibition(q.original_claim, q.correction),
  };
}

const list = (items: readonly string[]) => items.map((i) => `  - ${i}`).join('\n');

/** §1.3: a compressed, concrete restatement of what remains. */
export function reAnchor(task: string, completed: readonly string[], remaining: readonly string[]) {
  return [
    task.length > 0 ? `GOAL RE-ANCHOR: the task is: ${task}` : 'GOAL RE-ANCHOR:',
    ...(completed.length > 0 ? [`Already covered, do not redo: ${completed.join('; ')}`] : []),
    'Still to cover, starting in this window:',
    list(remaining),
  ].join('\n');
}

/** §4.1's scaffold for the given claim types (one type: that type's `scaffold_prompt`). */
export function scaffoldBlock(
  types: readonly { readonly claim_type: string; readonly examples: readonly string[] }[],
  window: number,
): string {
  return [
    `REASONING REQUIREMENT for Window ${window}:`,
    'In prior windows, the following claim types were asserted without derivable evidence:',
    list(
      types.map((t) =>
        t.examples.length === 0
          ? t.claim_type
          : `${t.claim_type} (e.g., ${t.examples.map((e) => `"${clause(e)}"`).join(', ')})`,
      ),
    ),
    'For ALL such claims in this window:',
    '  Step 1: State what the claim is',
    '  Step 2: Identify the source fact from the provided context that supports it (quote directly)',
    '  Step 3: State the logical connection between the source and the claim',
    '  Step 4: Only then write the claim in the response prose',
    'If no supporting source fact exists: DO NOT make the claim. Instead, write: "This requires verification against current sources."',
  ].join('\n');
}

/** §1.7's block. */
export function mapInjection(
  verified: readonly { readonly claim: string; readonly fact_id: string | null }[],
  unverified: readonly { readonly claim: string }[],
): string {
  const parts: string[] = [];
  if (verified.length > 0) {
    parts.push(
      'ESTABLISHED FACTS (context-grounded, verified):',
      list(verified.map((v) => `${clause(v.claim)} [verified: ${v.fact_id ?? 'context'}]`)),
    );
  }
  if (unverified.length > 0) {
    parts.push(
      'UNVERIFIED ASSERTIONS (parametric, proceed with caution):',
      list(unverified.map((u) => `${clause(u.claim)} [UNVERIFIED: no source found]`)),
      'These were asserted without evidence: hedge them or support them from the context; do not repeat them as fact.',
    );
  }
  return parts.join('\n');
}

function flowInjection(score: number, last: string | null): string {
  const anchor =
    last === null ? 'where the last window ended' : `where the last window ended (${clause(last)})`;
  return `FLOW BRIDGE: the last window's sentences did not connect well (flow ${score.toFixed(2)}). Open with a sentence that links to ${anchor}, and join each paragraph to the one before with an explicit transition.`;
}

/** The packet a shape keeps: every injection text is rebuilt from exactly the items kept. */
export function assemble(c: Candidates, shape: Shape): AirPacket {
  const next = c.window_source + 1;
  const error_quarantine = c.quarantine
    .slice(c.quarantine.length - shape.error_quarantine)
    .map(quarantined);

  let goal_residual: GoalResidual | null = null;
  if (c.goal !== null && shape.remaining_sub_goals > 0) {
    const completed = c.goal.completed.slice(0, shape.completed_sub_goals).reverse();
    const remaining = c.goal.remaining.slice(0, shape.remaining_sub_goals);
    goal_residual = {
      original_task: c.goal.task,
      completed_sub_goals: completed,
      remaining_sub_goals: remaining,
      re_anchor_injection: reAnchor(c.goal.task, completed, remaining),
    };
  }

  const reasoning_scaffolds: ReasoningScaffold[] = c.scaffolds
    .slice(0, shape.reasoning_scaffolds)
    .map((t) => ({ claim_type: t.claim_type, scaffold_prompt: scaffoldBlock([t], next) }));

  let epistemic_map: EpistemicMap | null = null;
  if (c.map !== null && shape.verified_claims + shape.unverified_claims > 0) {
    const verified = c.map.verified.slice(0, shape.verified_claims).reverse();
    const unverified = c.map.unverified.slice(0, shape.unverified_claims).reverse();
    epistemic_map = {
      verified_claims: verified.map((v) => v.claim),
      unverified_claims: unverified.map((u) => u.claim),
      map_injection: mapInjection(verified, unverified),
    };
  }

  const forbidden = c.vocabulary?.forbidden.slice(0, shape.forbidden_phrases) ?? [];
  const anchors = c.vocabulary?.anchors.slice(0, shape.fresh_anchors) ?? [];
  const facts = c.retrieval.slice(0, shape.targeted_facts);
  const concepts = [...new Set(facts.flatMap((f) => f.concepts))];

  return {
    iap: {
      window_source: c.window_source,
      error_quarantine,
      concept_freshness: c.freshness.slice(0, shape.concept_freshness).map((f) => ({
        ...f,
        preferred_communities: [...f.preferred_communities],
        exhausted_phrasings: [...f.exhausted_phrasings],
      })),
      reasoning_scaffolds,
      goal_residual,
      epistemic_map,
      vocabulary_directives:
        forbidden.length + anchors.length > 0
          ? { forbidden_phrases: forbidden, fresh_anchors: anchors }
          : null,
    },
    targeted_retrieval:
      facts.length === 0
        ? null
        : {
            concepts,
            fact_ids: facts.map((f) => f.id),
            injection: [
              `TARGETED FACTS (the last window asserted ${concepts.join(', ')} without support; use these instead and cite them):`,
              list(facts.map((f) => `[${f.id}] ${f.statement}`)),
            ].join('\n'),
          },
    flow_bridge:
      c.flow === null || shape.flow_bridge === 0
        ? null
        : {
            flow_score: c.flow.flow_score,
            injection: flowInjection(c.flow.flow_score, c.flow.last_covered),
          },
  };
}
