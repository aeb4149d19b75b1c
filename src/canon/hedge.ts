import type { ArchivedMessage } from './classification.js';
import { phraseRegExp, SUGGESTION_TIER, splitSentences } from './classify/index.js';
import type { CanonReader } from './read.js';
import type { SourceRef } from './types.js';

/**
 * Words with which a speaker floats an idea rather than settles it: the classifier's suggestion cues
 * and the usual ways of asking ("what if", "should we", "I wonder", …). A sentence ending in `?` hedges too.
 */
export const HEDGE_CUES: readonly string[] = [
  ...new Set([
    ...SUGGESTION_TIER.cues,
    'what if',
    'i wonder',
    'wondering',
    'should we',
    'could we',
    'shall we',
    'why not',
    'might',
    'possibly',
    'not sure',
    'would it be',
  ]),
];

const HEDGE = phraseRegExp(HEDGE_CUES);

/** The hedge in one sentence (its cue as written, lowercased, or `?`), or null when it states. */
export function hedgeIn(sentence: string): string | null {
  const cue = HEDGE?.exec(sentence)?.[0];
  if (cue !== undefined) return cue.toLowerCase().replace(/\s+/gu, ' ');
  return sentence.trimEnd().endsWith('?') ? '?' : null;
}

/** `message_id[start:end]: "cue"` for each hedged sentence of `text` overlapping `[from, to)`. */
function hedges(messageId: string, text: string, from: number, to: number): string[] {
  const found: string[] = [];
  for (const s of splitSentences(text)) {
    if (s.end <= from || s.start >= to) continue;
    const cue = hedgeIn(s.text);
    if (cue !== null) found.push(`${messageId}[${s.start}:${s.end}]: "${cue}"`);
  }
  return found;
}

/**
 * The hedges of what a candidate cites (§5 suggestion turned directive), deterministically from the
 * archive: for each source span, the sentences it quotes from; for a `message_id` no source narrows,
 * the whole message (so a proposal that cites a message loosely is judged on all of it, failing safe).
 */
export async function hedgedSources(
  reader: CanonReader,
  sources: readonly SourceRef[],
  messageId: string | null,
  /** Messages the caller read already, by id (the rest are read through `reader`). */
  known?: ReadonlyMap<string, ArchivedMessage>,
): Promise<string[]> {
  const found = new Set<string>();
  const read = async (id: string) => known?.get(id) ?? (await reader.message(id));
  for (const source of sources) {
    const message = await read(source.message_id);
    if (!message) continue;
    for (const h of hedges(source.message_id, message.text, source.span[0], source.span[1]))
      found.add(h);
  }
  if (messageId !== null && !sources.some((s) => s.message_id === messageId)) {
    const message = await read(messageId);
    if (message)
      for (const h of hedges(messageId, message.text, 0, message.text.length)) found.add(h);
  }
  return [...found];
}
