// The segmentation lives in the DPE (one segmenter for both); the extractor re-exports it.
export {
  type Block,
  type BlockKind,
  blocksOf,
  classifySentence,
  contentWords,
  normaliseStatement,
  type SentenceKind,
  sentencesOf,
} from '../../dpe/index.js';
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
  Candidates,
  type Comparable,
  captures,
  comparable,
} from './normalise.js';
