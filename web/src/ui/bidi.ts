/** Bidi embeddings and overrides (LRE, RLE, LRO, RLO) close with PDF; isolates (LRI, RLI, FSI) with PDI. */
const EMBEDS = new Set(['\u202A', '\u202B', '\u202D', '\u202E']);
const ISOLATES = new Set(['\u2066', '\u2067', '\u2068']);
const PDF = '\u202C';
const PDI = '\u2069';

/**
 * `text` with its bidirectional controls balanced: every embedding, override and isolate it opens
 * is closed at its end, and a closer with nothing of its kind open is dropped. Isolating an element
 * is not enough on its own: the browser closes the element's isolate with a PDI, which an isolate
 * left open inside the text would take as its own, leaving the element's isolate — and an override
 * inside it — open over the interface's words after it; a stray PDI would close it early.
 */
export function balancedBidi(text: string): string {
  const open: ('embed' | 'isolate')[] = [];
  let out = '';
  for (const ch of text) {
    if (EMBEDS.has(ch)) open.push('embed');
    else if (ISOLATES.has(ch)) open.push('isolate');
    else if (ch === PDF) {
      if (open.at(-1) !== 'embed') continue;
      open.pop();
    } else if (ch === PDI) {
      const at = open.lastIndexOf('isolate');
      if (at < 0) continue;
      open.length = at;
    }
    out += ch;
  }
  for (let i = open.length - 1; i >= 0; i--) out += open[i] === 'embed' ? PDF : PDI;
  return out;
}
