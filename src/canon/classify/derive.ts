import { sha256Hex } from '../../core/index.js';
import type { ObjectType } from '../types.js';
import type { CueHit, CueKind } from './cues.js';
import { phraseRegExp } from './text.js';

/** The tiers whose sentences become notes of their own when no configured subject is touched. */
export const DERIVING_KINDS: ReadonlySet<CueKind> = new Set([
  'suggestion',
  'supersede',
  'decision',
  'instruction',
  'preference',
]);

/** Words that carry no subject at the start of what is left of a sentence once its cue is out. */
const FILLERS = new Set(
  "a an and also be can could decided going has have i i'd i'll i've is it let's lets may maybe might now perhaps so that the then they to we we'll we're we've will would shall should you".split(
    ' ',
  ),
);

/** At most this many words, and characters, in a derived id's slug. */
export const SLUG_WORDS = 6;
export const SLUG_CHARS = 60;

/** What is left of a cue sentence as words: the cue taken out, leading fillers dropped. */
function subjectWords(hit: CueHit): { words: string[]; phrase: string } {
  const cue = phraseRegExp([hit.cue]);
  const rest = (cue ? hit.sentence.text.replace(cue, ' ') : hit.sentence.text)
    .replace(/[.!?;:]+\s*$/u, '')
    .trim();
  const raw = rest.split(/\s+/u).filter((w) => w !== '');
  let skip = 0;
  while (skip < raw.length && FILLERS.has(raw[skip]!.toLowerCase().replace(/[’]/gu, "'"))) skip++;
  const phrase = raw.slice(skip).join(' ');
  const words = phrase
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/u)
    .filter((w) => w !== '');
  return { words, phrase };
}

/**
 * The object id and title a cue sentence stands for when no configured subject names it:
 * `<object type>.<slug>`, the slug being the first {@link SLUG_WORDS} ASCII words of the sentence
 * once its cue and leading filler words are out, joined by `-` (at most {@link SLUG_CHARS}
 * characters); `<object type>.s-<8 hex of the sentence's SHA-256>` when no such word is left. The
 * same sentence always derives the same id, so saying it again updates the note, never a copy.
 *
 * @example derive({ cue: 'We decided', sentence: 'We decided to ship on Fridays.' }, 'decision')
 *   // → { id: 'decision.ship-on-fridays', title: 'Ship on Fridays' }
 */
export function deriveSubject(hit: CueHit, type: ObjectType): { id: string; title: string } {
  const { words, phrase } = subjectWords(hit);
  let slug = '';
  for (const word of words.slice(0, SLUG_WORDS)) {
    const next = slug === '' ? word : `${slug}-${word}`;
    if (next.length > SLUG_CHARS) break;
    slug = next;
  }
  if (slug === '') slug = `s-${sha256Hex(hit.sentence.text).slice(0, 8)}`;
  const clipped = (phrase || hit.sentence.text).slice(0, 80);
  const title = (clipped.charAt(0).toUpperCase() + clipped.slice(1)).toWellFormed();
  return { id: `${type}.${slug}`, title };
}
