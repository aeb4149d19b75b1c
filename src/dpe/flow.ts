import { round } from './explain.js';
import type { Sentence } from './segment.js';

/**
 * Flow (README "Flow"): over the window's prose sentences (not headings, code or fragments), each
 * pair of adjacent sentences in the same section (no heading between them) is *connected* when they
 * share a key word or the second opens with a connective or a word that refers back (however,
 * therefore, this, it, for example, …). `flow_score` = connected pairs / pairs; 1 with no pair.
 */
const CONNECTIVES = new Set(
  (
    'however therefore thus hence so because also additionally moreover furthermore then next ' +
    'finally first second third fourth lastly instead similarly likewise consequently meanwhile ' +
    'accordingly nevertheless nonetheless still yet otherwise specifically notably overall ' +
    'this that these those it its they their them such both each here there'
  ).split(' '),
);
const CONNECTIVE_PAIRS = new Set([
  'for example',
  'for instance',
  'in addition',
  'as a',
  'in contrast',
  'on the',
  'in particular',
  'in short',
  'as such',
  'at the',
  'by contrast',
  'in turn',
]);

const prose = (s: Sentence): boolean =>
  s.kind !== 'heading' && s.kind !== 'code' && s.kind !== 'fragment';

function opensWithConnective(text: string): boolean {
  const words = text
    .toLowerCase()
    .split(' ', 2)
    .map((w) => w.replace(/[^\p{L}]/gu, ''));
  return CONNECTIVES.has(words[0] ?? '') || CONNECTIVE_PAIRS.has(`${words[0]} ${words[1] ?? ''}`);
}

export function flowOf(
  sentences: readonly Sentence[],
  keys: readonly ReadonlySet<string>[],
): number {
  let pairs = 0;
  let connected = 0;
  let previous = -1;
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i]!;
    if (s.kind === 'heading') {
      previous = -1;
      continue;
    }
    if (!prose(s)) continue;
    if (previous >= 0) {
      pairs++;
      const before = keys[previous]!;
      let shares = false;
      for (const k of keys[i]!) {
        if (before.has(k)) {
          shares = true;
          break;
        }
      }
      if (shares || opensWithConnective(s.text)) connected++;
    }
    previous = i;
  }
  return pairs === 0 ? 1 : round(connected / pairs);
}
