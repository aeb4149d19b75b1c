export { type Block, type BlockKind, blocksOf } from './blocks.js';
export { classifySentence, type SentenceKind } from './classify.js';
export {
  decisionInSentence,
  type FoundDecision,
  labelParts,
  splitAlternatives,
} from './decisions.js';
export {
  EXTRACT_LIMITS,
  EXTRACTED_CONFIDENCE,
  type Extracted,
  extractFromText,
} from './extract.js';
export { type MergedContribution, mergeExtracted } from './merge-extracted.js';
export {
  CAPTURE_OVERLAP,
  type Comparable,
  captures,
  comparable,
  contentWords,
  normaliseStatement,
} from './normalise.js';
export { sentencesOf } from './sentences.js';
