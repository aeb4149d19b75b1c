import { blocksOf, classifiedSentences, normaliseStatement } from '../../dpe/index.js';
import type { DecisionContribution, FactContribution } from '../types.js';
import {
  decisionInSentence,
  type FoundDecision,
  labelParts,
  MAX_ALTERNATIVES,
  splitAlternatives,
  tidy,
} from './decisions.js';

/** Bounds on one extraction; past them the extractor stops adding, deterministically. */
export const EXTRACT_LIMITS = Object.freeze({
  /** Only this much of the text is read (the window's `output` is bounded the same). */
  maxChars: 262_144,
  /** A longer sentence is not a statement (and would not fit a contribution's fact). */
  maxSentenceChars: 2_000,
  maxClaims: 256,
  maxDecisions: 64,
  maxQuestions: 64,
  /** A labelled decision's choice and rationale, as a contribution bounds them. */
  maxChoiceChars: 2_000,
  maxRationaleChars: 4_000,
});

const HAS_WORD = /[\p{L}\p{N}]/u;

/** Confidence of a fact the extractor found (asserted in prose, not in the structured answer). */
export const EXTRACTED_CONFIDENCE = 0.5;

/** What {@link extractFromText} found in a window's text. */
export interface Extracted {
  /** Declarative sentences (see classify.ts), in order, without duplicates. */
  readonly claims: readonly string[];
  /** The claims that are not decision sentences, as facts derived from the window's text. */
  readonly facts: readonly FactContribution[];
  readonly decisions: readonly DecisionContribution[];
  /** Questions the text asks: candidates for `open_questions`. */
  readonly open_questions: readonly string[];
  /** The text was longer than {@link EXTRACT_LIMITS.maxChars}: only its start was read. */
  readonly truncated: boolean;
}

function toDecision(found: FoundDecision): DecisionContribution {
  return {
    choice: found.choice,
    rationale: found.rationale,
    alternatives: [...found.alternatives],
    depends_on: [],
  };
}

/** A labelled decision being read across blocks. */
interface Pending {
  choice: string;
  rationale: string;
  alternatives: string[];
  /** "Alternatives:" had no value: the list items that follow are its names. */
  awaitingItems: boolean;
}

/**
 * Claims, facts, decisions and open-question candidates in a window's text, deterministically and
 * in time linear in the text (capped at {@link EXTRACT_LIMITS.maxChars}). Code (fenced blocks,
 * inline spans) is never split and never a claim; see README.extract.md for every rule.
 */
export function extractFromText(
  text: string,
  options: { readonly window_number: number },
): Extracted {
  const limits = EXTRACT_LIMITS;
  const truncated = text.length > limits.maxChars;
  const read = truncated ? text.slice(0, limits.maxChars) : text;
  const claims: string[] = [];
  const facts: FactContribution[] = [];
  const decisions: DecisionContribution[] = [];
  const questions: string[] = [];
  const seenClaims = new Set<string>();
  const seenQuestions = new Set<string>();
  const seenChoices = new Set<string>();
  const ref = `window:${options.window_number}`;

  const addDecision = (decision: FoundDecision): boolean => {
    const key = normaliseStatement(decision.choice);
    if (
      !HAS_WORD.test(decision.choice) ||
      !HAS_WORD.test(decision.rationale) ||
      decisions.length >= limits.maxDecisions ||
      seenChoices.has(key) ||
      decision.choice.length > limits.maxChoiceChars ||
      decision.rationale.length > limits.maxRationaleChars
    ) {
      return false;
    }
    seenChoices.add(key);
    decisions.push(toDecision(decision));
    return true;
  };

  let pending: Pending | null = null;
  const flush = (): void => {
    if (pending && pending.choice !== '' && pending.rationale !== '') {
      addDecision({
        choice: pending.choice,
        rationale: pending.rationale,
        alternatives: pending.alternatives.slice(0, MAX_ALTERNATIVES),
      });
    }
    pending = null;
  };

  for (const block of blocksOf(read)) {
    const parts = labelParts(block.text);
    if (parts.length > 0) {
      for (const part of parts) {
        if (part.kind === 'decision') {
          flush();
          pending = { choice: part.value, rationale: '', alternatives: [], awaitingItems: false };
        } else if (pending && part.kind === 'rationale') {
          pending.rationale ||= part.value;
          pending.awaitingItems = false;
        } else if (pending && part.kind === 'alternatives') {
          pending.alternatives.push(...splitAlternatives(part.value));
          pending.awaitingItems = part.value === '';
        }
      }
      continue;
    }
    if (pending?.awaitingItems && block.kind === 'item') {
      const name = tidy(block.text.replaceAll('\n', ' '));
      pending.alternatives.push(...splitAlternatives(name));
      continue;
    }
    flush();
    for (const { text: sentence, kind } of classifiedSentences(block)) {
      if (sentence.length > limits.maxSentenceChars) continue;
      if (kind === 'question') {
        const key = normaliseStatement(sentence);
        if (questions.length < limits.maxQuestions && !seenQuestions.has(key)) {
          seenQuestions.add(key);
          questions.push(sentence);
        }
        continue;
      }
      if (kind !== 'claim') continue;
      const key = normaliseStatement(sentence);
      if (seenClaims.has(key) || claims.length >= limits.maxClaims) continue;
      seenClaims.add(key);
      claims.push(sentence);
      const decision = decisionInSentence(sentence);
      if (decision) {
        addDecision(decision);
        continue;
      }
      facts.push({
        statement: sentence,
        provenance: 'CONVERSATION',
        provenance_ref: ref,
        confidence: EXTRACTED_CONFIDENCE,
      });
    }
  }
  flush();
  return { claims, facts, decisions, open_questions: questions, truncated };
}
