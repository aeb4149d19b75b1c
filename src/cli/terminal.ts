/**
 * Text canonry prints to a terminal holds what people and models wrote: a message, a note, a
 * model's claim, an id quoted in an error. A terminal obeys control characters in it, so printed raw
 * such text could move the cursor and overwrite what was printed before it (CR, CSI), retitle the
 * window or write the clipboard (OSC 52), hide itself, or reorder the words after it (bidirectional
 * controls). These are shown as `\uXXXX` instead: C0 controls but newline and tab, DEL, C1 controls
 * (U+0080–U+009F; U+009B is a one-character CSI) and the bidirectional controls.
 */
function unsafe(code: number): boolean {
  return (
    (code < 0x20 && code !== 0x0a && code !== 0x09) ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x061c ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

const escaped = (code: number) => `\\u${code.toString(16).padStart(4, '0')}`;

/** `text` with every character a terminal would obey as a control shown as its escape. */
export function forTerminal(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!unsafe(code)) continue;
    out += text.slice(from, i) + escaped(code);
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * `value` as indented JSON a terminal can show: JSON.stringify already escapes C0 controls; DEL, C1
 * and the bidirectional controls (which it leaves raw, and can only occur inside strings) are
 * written as JSON's `\uXXXX` escapes too, which a JSON reader reads back as the same characters.
 */
export function jsonForTerminal(value: unknown): string {
  return forTerminal(JSON.stringify(value, null, 2));
}
