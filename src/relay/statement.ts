/**
 * The form two statements are compared in, so a restated fact, question or constraint is seen as
 * the same one: Unicode NFC, lower case, whitespace runs as one space, no trailing full stop.
 */
export function normaliseStatement(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .trim()
    .replace(/[.。]+$/u, '')
    .trimEnd();
}

/** `texts` each once (by normalised form, the first kept), in order, without those in `minus`. */
export function uniqueTexts(texts: Iterable<string>, minus: Iterable<string> = []): string[] {
  const seen = new Set<string>();
  for (const m of minus) seen.add(normaliseStatement(m));
  const out: string[] = [];
  for (const t of texts) {
    const key = normaliseStatement(t);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(t);
  }
  return out;
}

/** The normal form of each fact's statement, by object (facts are immutable once built). */
const normalForms = new WeakMap<object, string>();

/** {@link normaliseStatement} of a fact's statement, worked out once per fact object. */
export function statementKey(fact: { readonly statement: string }): string {
  let key = normalForms.get(fact);
  if (key === undefined) {
    key = normaliseStatement(fact.statement);
    normalForms.set(fact, key);
  }
  return key;
}

/** Records the normal form worked out for a new fact's statement. */
export function knownStatementKey(fact: object, key: string): void {
  normalForms.set(fact, key);
}
