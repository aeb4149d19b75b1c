import type { ClassificationOutcome } from '../classification.js';
import type { ObjectType } from '../types.js';
import type { CueRule } from './config.js';
import { phraseRegExp, type Sentence } from './text.js';

/** What a cue means, which decides the outcome and the drafts. */
export type CueKind =
  | 'suggestion'
  | 'restore'
  | 'supersede'
  | 'decision'
  | 'instruction'
  | 'preference'
  | 'fact'
  | 'source'
  | 'uncertainty'
  | 'contradiction'
  | 'quiet';

/** One priority tier of cues. */
export interface CueTier {
  readonly kind: CueKind;
  readonly outcome: ClassificationOutcome;
  /** The drafts' object type; null takes the subject's (or the current object's) type. */
  readonly object_type: ObjectType | null;
  readonly cues: readonly string[];
  /** Also matches a sentence ending in `?` (the uncertainty tier). */
  readonly question?: boolean;
  /** Also matches a URL (the fact tier). */
  readonly url?: boolean;
}

/** Splits a `|`-separated cue list (kept on one line so the tables stay readable). */
const cues = (list: string): readonly string[] => list.split('|');

/** Assistant/agent/tool modality: checked first for machine roles, it keeps a suggestion a suggestion. */
export const SUGGESTION_TIER: CueTier = {
  kind: 'suggestion',
  outcome: 'candidate_preference',
  object_type: 'preference',
  cues: cues(
    'i propose|propose|proposes|i suggest|suggest|suggests|suggestion|i recommend|recommend|could|how about|consider|might want|perhaps|maybe|option',
  ),
};

/** The built-in tiers, in priority order: the first tier with a cue in any sentence wins. */
export const BUILTIN_TIERS: readonly CueTier[] = [
  {
    kind: 'restore',
    outcome: 'restore_request',
    object_type: null,
    cues: cues('restore|revert to|revert|go back to|roll back|undo'),
  },
  {
    kind: 'supersede',
    outcome: 'supersede_request',
    object_type: 'decision',
    cues: cues(
      'instead|instead of|no longer|replaces|replace|supersedes|supersede|adopts|we now use|from now on|switch to|switched to',
    ),
  },
  {
    kind: 'decision',
    outcome: 'proposed_decision',
    object_type: 'decision',
    cues: cues(
      "we decided|we have decided|we've decided|i decided|i've decided|decision:|the spec adopts|let's go with|we will use|we'll use|we chose|we agreed",
    ),
  },
  {
    kind: 'instruction',
    outcome: 'instruction',
    object_type: 'constraint',
    cues: cues('must|must not|never|required|cannot|mandatory|shall'),
  },
  {
    kind: 'instruction',
    outcome: 'instruction',
    object_type: 'instruction',
    cues: cues("always|do not|don't|make sure|ensure|remember to"),
  },
  {
    kind: 'preference',
    outcome: 'candidate_preference',
    object_type: 'preference',
    cues: cues(
      "prefer|prefers|preferred|still preferred|i'd like|i would like|i suggest|suggest|suggests|i propose|propose|proposes|would rather|i'd rather|favour|favor",
    ),
  },
  {
    kind: 'fact',
    outcome: 'candidate_fact',
    object_type: 'fact',
    url: true,
    cues: cues(
      'according to|the review|design review|code review|review found|test shows|tests show|measured|source:|benchmark shows|the data shows|documented in',
    ),
  },
  {
    kind: 'uncertainty',
    outcome: 'uncertainty',
    object_type: 'uncertainty',
    question: true,
    cues: cues(
      "not sure|unsure|unclear|maybe|might|perhaps|possibly|i don't know|uncertain|open question|tbd",
    ),
  },
  {
    kind: 'contradiction',
    outcome: 'contradiction',
    object_type: null,
    cues: cues(
      "wrong|incorrect|not true|untrue|is not|isn't|are not|aren't|contradicts|false|disagree|not correct",
    ),
  },
];

const KIND_OF: Record<ClassificationOutcome, CueKind> = {
  no_effect: 'quiet',
  candidate_fact: 'fact',
  candidate_preference: 'preference',
  proposed_decision: 'decision',
  contradiction: 'contradiction',
  source: 'source',
  instruction: 'instruction',
  uncertainty: 'uncertainty',
  restore_request: 'restore',
  supersede_request: 'supersede',
};

const DEFAULT_TYPE: Partial<Record<CueKind, ObjectType>> = {
  supersede: 'decision',
  decision: 'decision',
  instruction: 'instruction',
  preference: 'preference',
  fact: 'fact',
  uncertainty: 'uncertainty',
};

/** The tiers for configured rules, in their order, ahead of the built-in tiers. */
export function ruleTiers(rules: readonly CueRule[]): CueTier[] {
  return rules.map((rule) => {
    const kind = KIND_OF[rule.outcome];
    return {
      kind,
      outcome: rule.outcome,
      object_type: rule.object_type ?? DEFAULT_TYPE[kind] ?? null,
      cues: rule.cues,
    };
  });
}

/** A sentence carrying a tier's cue, and the cue as written in the message. */
export interface CueHit {
  readonly sentence: Sentence;
  readonly cue: string;
}

const URL = /https?:\/\/\S+/iu;

let CITATION: RegExp | null | undefined;

/**
 * Whether a text cites a source: a URL, or a cue of the built-in fact tier ("according to", "source:",
 * "the review found", "tests show", "measured", …). What a message cites is what may make a claim
 * `sourced`; a configured cue marks a fact, but is not itself a citation.
 */
export function citesSource(text: string): boolean {
  CITATION ??= phraseRegExp(BUILTIN_TIERS.find((t) => t.kind === 'fact')?.cues ?? []);
  return URL.test(text) || CITATION?.test(text) === true;
}

/** A tier compiled once: finds the sentences that carry its cues, in order. */
export function compileTier(tier: CueTier): (sentences: readonly Sentence[]) => CueHit[] {
  const pattern = phraseRegExp(tier.cues);
  return (sentences) => {
    const hits: CueHit[] = [];
    for (const sentence of sentences) {
      const found =
        pattern?.exec(sentence.text)?.[0] ?? (tier.url ? URL.exec(sentence.text)?.[0] : undefined);
      if (found !== undefined)
        hits.push({ sentence, cue: found.toLowerCase().replace(/\s+/gu, ' ') });
      else if (tier.question && sentence.text.endsWith('?')) hits.push({ sentence, cue: '?' });
    }
    return hits;
  };
}
