/**
 * Retention policies: `indefinite`, `expires-at:<ms since the epoch>` (an absolute expiry) or
 * `ref:<rule id>` (a named retention rule kept elsewhere). Resolution takes the earliest expiry;
 * a named rule can be ordered only against itself.
 */
export type Retention =
  | { readonly kind: 'indefinite' }
  | { readonly kind: 'expires-at'; readonly at: number }
  | { readonly kind: 'ref'; readonly ref: string };

const EXPIRES = /^expires-at:(0|[1-9][0-9]{0,15})$/;
const REF = /^ref:[\x21-\x7e]{1,252}$/;

/** The retention a policy text names, or null when the text is none of the three forms. */
export function readRetention(text: string): Retention | null {
  if (text === 'indefinite') return { kind: 'indefinite' };
  const expires = EXPIRES.exec(text);
  if (expires !== null) {
    const at = Number(expires[1]);
    return Number.isSafeInteger(at) ? { kind: 'expires-at', at } : null;
  }
  return REF.test(text) ? { kind: 'ref', ref: text.slice(4) } : null;
}

/** The text of a retention. */
export function retentionText(retention: Retention): string {
  switch (retention.kind) {
    case 'indefinite':
      return 'indefinite';
    case 'expires-at':
      return `expires-at:${retention.at}`;
    case 'ref':
      return `ref:${retention.ref}`;
  }
}

/** Why retentions could not be combined. */
export type RetentionConflict = 'rules' | 'rule-and-expiry';

/**
 * The strictest of several retentions: the earliest expiry; one named rule when every source that
 * names a rule names the same one and none sets an expiry; otherwise no answer, because which of
 * two rules (or of a rule and a date) expires first is not known here.
 */
export function strictestRetention(
  all: readonly Retention[],
): Retention | { readonly conflict: RetentionConflict } {
  let earliest: number | undefined;
  let ref: string | undefined;
  for (const r of all) {
    if (r.kind === 'expires-at')
      earliest = earliest === undefined ? r.at : Math.min(earliest, r.at);
    else if (r.kind === 'ref') {
      if (ref !== undefined && ref !== r.ref) return { conflict: 'rules' };
      ref = r.ref;
    }
  }
  if (ref !== undefined)
    return earliest === undefined ? { kind: 'ref', ref } : { conflict: 'rule-and-expiry' };
  return earliest === undefined ? { kind: 'indefinite' } : { kind: 'expires-at', at: earliest };
}

/** True when `a` expires no later than `b` (never keeps anything longer). */
export function retainsNoLonger(a: Retention, b: Retention): boolean {
  if (b.kind === 'indefinite') return true;
  if (b.kind === 'expires-at') return a.kind === 'expires-at' && a.at <= b.at;
  return a.kind === 'ref' ? a.ref === b.ref : false;
}
