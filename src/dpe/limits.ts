/**
 * Bounds on one analysis. Past them the engine reads only the start, deterministically, and says so
 * (`WindowSignals.truncated`); the cost of an analysis is then linear in these numbers.
 */
export const DPE_LIMITS = Object.freeze({
  /** Characters of the window's text read (as the relay's extractor reads). */
  maxTextChars: 262_144,
  /** Claims attributed; later declarative sentences are not claims of this analysis. */
  maxClaims: 256,
  /** Sentences longer than this are not claims (nor compared for duplicates). */
  maxSentenceChars: 2_000,
  /** Context facts read, in the order given. */
  maxFacts: 1_024,
  /** Characters of one fact's statement read. */
  maxFactChars: 2_000,
  /** `remaining` items read, and characters of each. */
  maxRemaining: 256,
  maxRemainingChars: 1_000,
  /** Earlier windows read (the most recent ones) and characters of all of them together. */
  maxEarlierWindows: 64,
  maxEarlierChars: 1_048_576,
  /** Repeated 6-grams listed (the ratio counts them all). */
  maxListedNgrams: 64,
  /** Duplicate sentences listed (the ratio counts them all). */
  maxListedDuplicates: 64,
  /** Characters of a fact or claim quoted in an explanation. */
  maxQuoteChars: 160,
});

/** The n of the repetition n-grams (CRP-018 §3.2: 6-gram repetition). */
export const NGRAM = 6;
