import { normaliseStatement } from '../../dpe/index.js';
import { CONTRIBUTION_LIMITS } from '../contribution-schema.js';
import type { Contribution, DecisionContribution, FactContribution } from '../types.js';
import type { Extracted } from './extract.js';
import { Candidates, comparable } from './normalise.js';

/** What {@link mergeExtracted} returns. */
export interface MergedContribution {
  readonly contribution: Contribution;
  /** Claims of the text the model's own contribution did not capture (they are now facts). */
  readonly uncaptured: readonly string[];
  /** How many items the extractor added to each list. */
  readonly added: {
    readonly facts: number;
    readonly decisions: number;
    readonly open_questions: number;
  };
  /** Items the extractor found but could not add: the list was at its bound. */
  readonly overflow: number;
}

function decisionText(d: DecisionContribution): string {
  return [d.choice, d.rationale, ...(d.alternatives ?? [])].join(' ');
}

/**
 * The union of the model's contribution and what the extractor found, the model's version winning:
 * its items are kept as they are (ids, provenance, wording) and an extracted item is added only when
 * nothing of the model's captures it (normalise.ts: same normalised statement, or enough shared
 * content words). A claim is `uncaptured` when no fact statement and no decision of the model's
 * captures it; its fact (or its decision) is then added. Extracted decisions are added when the
 * model has no decision with the same normalised choice and no decision that captures theirs (a
 * fact never stands in for a decision: the rationale is what text relay loses);
 * questions when neither the model's open nor its resolved questions hold the same normalised text.
 * No list grows past {@link CONTRIBUTION_LIMITS.maxItems}; what does not fit is counted in `overflow`.
 */
export function mergeExtracted(
  contribution: Contribution,
  extracted: Extracted,
): MergedContribution {
  const max = CONTRIBUTION_LIMITS.maxItems;
  // The model's items, facts then decisions, prepared only as far as a claim needs them.
  const model = new Candidates([
    ...contribution.facts.map((f) => f.statement),
    ...contribution.decisions.map(decisionText),
  ]);
  const firstDecision = contribution.facts.length;
  const uncaptured = extracted.claims.filter((c) => !model.capture(comparable(c)));
  const uncapturedSet = new Set(uncaptured.map(normaliseStatement));
  let overflow = 0;

  const facts: FactContribution[] = [...contribution.facts];
  // Only the facts added here: a model fact with the normal form of an uncaptured claim would
  // have captured it (the same statement always captures), so none of theirs can hold one.
  const factKeys = new Set<string>();
  let addedFacts = 0;
  for (const fact of extracted.facts) {
    const key = normaliseStatement(fact.statement);
    if (!uncapturedSet.has(key) || factKeys.has(key)) continue;
    if (facts.length >= max) {
      overflow++;
      continue;
    }
    factKeys.add(key);
    facts.push(fact);
    addedFacts++;
  }

  const decisions: DecisionContribution[] = [...contribution.decisions];
  let choiceKeys: Set<string> | undefined;
  let addedDecisions = 0;
  for (const decision of extracted.decisions) {
    const key = normaliseStatement(decision.choice);
    choiceKeys ??= new Set(contribution.decisions.map((d) => normaliseStatement(d.choice)));
    if (choiceKeys.has(key) || model.capture(comparable(decisionText(decision)), firstDecision))
      continue;
    if (decisions.length >= max) {
      overflow++;
      continue;
    }
    choiceKeys.add(key);
    decisions.push(decision);
    addedDecisions++;
  }

  const open_questions = [...contribution.open_questions];
  let questionKeys: Set<string> | undefined;
  let addedQuestions = 0;
  for (const question of extracted.open_questions) {
    const key = normaliseStatement(question);
    questionKeys ??= new Set(
      [...contribution.open_questions, ...contribution.resolved_questions].map(normaliseStatement),
    );
    if (questionKeys.has(key)) continue;
    if (open_questions.length >= max) {
      overflow++;
      continue;
    }
    questionKeys.add(key);
    open_questions.push(question);
    addedQuestions++;
  }

  return {
    contribution: { ...contribution, facts, decisions, open_questions },
    uncaptured,
    added: { facts: addedFacts, decisions: addedDecisions, open_questions: addedQuestions },
    overflow,
  };
}
