/**
 * The first pass of the extractor: a window's text as Markdown-ish blocks. Lines are read once;
 * fenced code (``` or ~~~) and table rows are dropped, a list item ("- ", "* ", "+ ", "1. ", "1) ")
 * starts a block of its own, a `#` heading or a line underlined with `===`/`---` is a heading, and
 * other consecutive lines form one paragraph (joined by newlines, which sentences read as spaces).
 * Block quotes lose their `>`.
 */

export type BlockKind = 'paragraph' | 'item' | 'heading';

export interface Block {
  readonly kind: BlockKind;
  readonly text: string;
}

/** Characters of a line's indentation (spaces and tabs). */
function indentOf(line: string): number {
  let i = 0;
  while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
  return i;
}

/** The length of a list marker and the space after it at `from`, or 0 when there is none. */
function listMarker(line: string, from: number): number {
  const c = line[from];
  let end = from;
  if (c === '-' || c === '*' || c === '+' || c === '•') end = from + 1;
  else {
    while (end < line.length && end - from < 9 && line[end]! >= '0' && line[end]! <= '9') end++;
    if (end === from || (line[end] !== '.' && line[end] !== ')')) return 0;
    end++;
  }
  if (line[end] !== ' ' && line[end] !== '\t') return 0;
  return end + 1 - from;
}

/** A line made of one repeated rule character (`===`, `---`, `***`), three or more. */
function isRule(trimmed: string): boolean {
  if (trimmed.length < 3) return false;
  const c = trimmed[0];
  if (c !== '=' && c !== '-' && c !== '*' && c !== '_') return false;
  for (const ch of trimmed) if (ch !== c && ch !== ' ') return false;
  return true;
}

/** Strips block-quote markers (`> > text`). */
function unquote(line: string): string {
  let i = indentOf(line);
  if (line[i] !== '>') return line;
  while (line[i] === '>' || line[i] === ' ') i++;
  return line.slice(i);
}

export function blocksOf(text: string): Block[] {
  const blocks: Block[] = [];
  let lines: string[] = [];
  let kind: BlockKind = 'paragraph';
  let fence: string | null = null;
  const flush = (as: BlockKind = kind): void => {
    if (lines.length > 0) blocks.push({ kind: as, text: lines.join('\n') });
    lines = [];
    kind = 'paragraph';
  };
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const raw = text.slice(start, end);
    start = end + 1;
    const line = unquote(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
    const at = indentOf(line);
    const trimmed = line.slice(at).trimEnd();
    const opener = trimmed.slice(0, 3);
    if (fence !== null) {
      if (opener === fence) fence = null;
      continue;
    }
    if (opener === '```' || opener === '~~~') {
      flush();
      fence = opener;
      continue;
    }
    if (trimmed === '') {
      flush();
      continue;
    }
    if (trimmed[0] === '|') {
      flush();
      continue;
    }
    if (isRule(trimmed)) {
      // A setext underline makes the one line above it a heading; otherwise a thematic break.
      flush(lines.length === 1 && kind === 'paragraph' && trimmed[0] !== '*' ? 'heading' : kind);
      continue;
    }
    if (trimmed[0] === '#') {
      let hashes = 0;
      while (trimmed[hashes] === '#') hashes++;
      if (hashes <= 6 && (trimmed[hashes] === ' ' || hashes === trimmed.length)) {
        flush();
        lines.push(trimmed.slice(hashes).trim());
        flush('heading');
        continue;
      }
    }
    const marker = listMarker(trimmed, 0);
    if (marker > 0) {
      flush();
      kind = 'item';
      lines.push(trimmed.slice(marker).trim());
      continue;
    }
    lines.push(trimmed);
  }
  flush();
  return blocks.filter((b) => b.text !== '');
}
