/**
 * The first `n` code units of `text`, one fewer when the last would be the first half of a
 * surrogate pair: half of one is not text, and a journal entry or a seal cannot hold it.
 */
export function headOf(text: string, n: number): string {
  const last = text.charCodeAt(n - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? n - 1 : n);
}
