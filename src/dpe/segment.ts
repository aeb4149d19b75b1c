import { type Block, type BlockKind, blocksOf } from './blocks.js';
import { classifySentence, type SentenceKind } from './classify.js';
import { sentencesOf } from './sentences.js';

/** One sentence of a text, with what it is and the block it came from. */
export interface Sentence {
  readonly text: string;
  readonly kind: SentenceKind;
  /** Index of its block in `blocksOf(text)`. */
  readonly block: number;
  readonly block_kind: BlockKind;
}

/** The sentences of one block, each classified (a block's sentence count informs the classifier). */
export function classifiedSentences(
  block: Block,
): { readonly text: string; readonly kind: SentenceKind }[] {
  const sentences = sentencesOf(block.text);
  return sentences.map((text) => ({
    text,
    kind: classifySentence(text, { kind: block.kind, sentences: sentences.length }),
  }));
}

/**
 * A text's sentences in order: blocks (fenced code and tables dropped), then sentences, then their
 * kinds — the one segmentation the relay's extractor and the DPE share. Linear in the text.
 */
export function segment(text: string): Sentence[] {
  const out: Sentence[] = [];
  const blocks = blocksOf(text);
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b]!;
    for (const s of classifiedSentences(block)) {
      out.push({ text: s.text, kind: s.kind, block: b, block_kind: block.kind });
    }
  }
  return out;
}
