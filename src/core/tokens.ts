import { createRequire } from 'node:module';

/** The encoding {@link countTokens} uses: o200k_base (GPT-4o, GPT-4.1, o-series, gpt-oss). */
export const TOKEN_ENCODING = 'o200k_base';

const AS_TEXT = { disallowedSpecial: new Set<string>() };

type Count = (text: string, options: typeof AS_TEXT) => number;

let count: Count | undefined;

/**
 * The encoder, loaded on first use: its tables take longer to load than most commands take to run
 * (`canonry tokens create` never counts a token), so importing `core` must not load them.
 */
function encoder(): Count {
  count ??= (
    createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as { countTokens: Count }
  ).countTokens;
  return count;
}

/**
 * The number of o200k_base tokens in `text`, offline. Special-token markers such as `<|endoftext|>`
 * are counted as ordinary text rather than refused. Other models' tokenizers differ by a few percent.
 */
export function countTokens(text: string): number {
  return encoder()(text, AS_TEXT);
}
