import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';

/** The encoding {@link countTokens} uses: o200k_base (GPT-4o, GPT-4.1, o-series, gpt-oss). */
export const TOKEN_ENCODING = 'o200k_base';

const AS_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * The number of o200k_base tokens in `text`, offline. Special-token markers such as `<|endoftext|>`
 * are counted as ordinary text rather than refused. Other models' tokenizers differ by a few percent.
 */
export function countTokens(text: string): number {
  return countO200k(text, AS_TEXT);
}
