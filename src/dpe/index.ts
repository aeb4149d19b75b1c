export { type Block, type BlockKind, blocksOf } from './blocks.js';
export {
  classifySentence,
  HEADING_WORDS,
  MIN_CLAIM_WORDS,
  type SentenceKind,
  wordsOf,
} from './classify.js';
export { contentWords, normaliseStatement, STOP_WORDS } from './normalise.js';
export { classifiedSentences, type Sentence, segment } from './segment.js';
export { collapse, sentencesOf } from './sentences.js';
export * from './types.js';
