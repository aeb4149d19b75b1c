export { type AnalyseOptions, analyseWindow } from './analyse.js';
export { MATCH_THRESHOLD, MIN_SHARED } from './attribute.js';
export { type Block, type BlockKind, blocksOf } from './blocks.js';
export {
  classifySentence,
  HEADING_WORDS,
  MIN_CLAIM_WORDS,
  type SentenceKind,
  wordsOf,
} from './classify.js';
export { COVER_RUN, COVER_THRESHOLD } from './completeness.js';
export { groundedClaims } from './grounded.js';
export type { DpeLimits } from './input.js';
export { type DpeJudge, deterministicJudge } from './judge.js';
export { stopJudgeThread, threadedJudge } from './judge-thread.js';
export { DPE_LIMITS, NGRAM } from './limits.js';
export { contentWords, normaliseStatement, STOP_WORDS } from './normalise.js';
export { QUALITY_WEIGHTS } from './quality.js';
export { classifiedSentences, type Sentence, segment } from './segment.js';
export { collapse, sentencesOf } from './sentences.js';
export * from './types.js';
