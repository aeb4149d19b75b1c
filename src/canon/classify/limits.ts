/** The codes that prefix every reason a classifier fails with (`<code>: <detail>`). */
export const CLASSIFY_FAILURES = [
  'bad_input',
  'model_unavailable',
  'model_busy',
  'model_output_invalid',
  'not_json',
  'schema',
  'bad_enum',
  'too_long',
  'too_many_drafts',
  'too_many_touched',
  'bad_id',
  'bad_intent',
  'unknown_object',
  'no_source',
  'bad_span',
  'no_verification',
  'over_confident',
  'over_status',
  'internal',
] as const;
/** One failure code. */
export type ClassifyFailure = (typeof CLASSIFY_FAILURES)[number];

/** Bounds on a model's classification; anything beyond them is refused, never truncated. */
export interface OutputLimits {
  readonly maxDrafts: number;
  readonly maxTouched: number;
  readonly maxOutputChars: number;
  readonly maxTitleChars: number;
  readonly maxTextChars: number;
  readonly maxRationaleChars: number;
  readonly maxIdChars: number;
  /** Move a span onto its quote when the quote is on the message but the offsets are off. */
  readonly alignQuotes: boolean;
}

/** The defaults for {@link OutputLimits}. */
export const DEFAULT_OUTPUT_LIMITS: OutputLimits = Object.freeze({
  maxDrafts: 8,
  maxTouched: 32,
  maxOutputChars: 65_536,
  maxTitleChars: 200,
  maxTextChars: 2_000,
  maxRationaleChars: 1_000,
  maxIdChars: 128,
  alignQuotes: true,
});
