/**
 * The character sets of ECMA-262 (Unicode mode) that RE2 spells differently: `\s`, `\w`, `\d`, `.`,
 * and the `\p{…}` property names, mapped to names RE2 knows or refused with a reason.
 */

/** Inclusive code point ranges, sorted and disjoint. */
export type Ranges = readonly (readonly [number, number])[];

const MAX_CODE_POINT = 0x10ffff;

/** ECMA-262 WhiteSpace and LineTerminator: what `\s` matches (RE2's `\s` is only `[\t\n\f\r ]`). */
export const SPACE: Ranges = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

/** `\d`: ASCII digits only, as in ECMA-262 and RE2. */
export const DIGIT: Ranges = [[0x30, 0x39]];

/** `\w`: ASCII word characters only (no `i` flag, so no Unicode case folding). */
export const WORD: Ranges = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];

/** LineTerminator: what `.` does not match (RE2's `.` excludes only `\n`). */
export const LINE_TERMINATOR: Ranges = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];

/** Every code point not in `ranges`. */
export function complement(ranges: Ranges): Ranges {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of ranges) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

/** A code point in RE2 syntax, escaped unless it is an ASCII letter or digit. */
export function codePoint(cp: number): string {
  const ascii =
    (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
  return ascii ? String.fromCharCode(cp) : `\\x{${cp.toString(16)}}`;
}

/** Ranges as the inside of an RE2 character class. */
export function classBody(ranges: Ranges): string {
  let out = '';
  for (const [lo, hi] of ranges)
    out += lo === hi ? codePoint(lo) : `${codePoint(lo)}-${codePoint(hi)}`;
  return out;
}

// General_Category values: every alias ECMA-262 accepts, to the short name RE2 knows.
const CATEGORY_ALIASES: Readonly<Record<string, readonly string[]>> = {
  C: ['Other'],
  Cc: ['Control', 'cntrl'],
  Cf: ['Format'],
  Cn: ['Unassigned'],
  Co: ['Private_Use'],
  Cs: ['Surrogate'],
  L: ['Letter'],
  LC: ['Cased_Letter'],
  Ll: ['Lowercase_Letter'],
  Lm: ['Modifier_Letter'],
  Lo: ['Other_Letter'],
  Lt: ['Titlecase_Letter'],
  Lu: ['Uppercase_Letter'],
  M: ['Mark', 'Combining_Mark'],
  Mc: ['Spacing_Mark'],
  Me: ['Enclosing_Mark'],
  Mn: ['Nonspacing_Mark'],
  N: ['Number'],
  Nd: ['Decimal_Number', 'digit'],
  Nl: ['Letter_Number'],
  No: ['Other_Number'],
  P: ['Punctuation', 'punct'],
  Pc: ['Connector_Punctuation'],
  Pd: ['Dash_Punctuation'],
  Pe: ['Close_Punctuation'],
  Pf: ['Final_Punctuation'],
  Pi: ['Initial_Punctuation'],
  Po: ['Other_Punctuation'],
  Ps: ['Open_Punctuation'],
  S: ['Symbol'],
  Sc: ['Currency_Symbol'],
  Sk: ['Modifier_Symbol'],
  Sm: ['Math_Symbol'],
  So: ['Other_Symbol'],
  Z: ['Separator'],
  Zl: ['Line_Separator'],
  Zp: ['Paragraph_Separator'],
  Zs: ['Space_Separator'],
};

// Binary properties RE2 has tables for, with their ECMA-262 aliases.
const BINARY_ALIASES: Readonly<Record<string, readonly string[]>> = {
  ASCII_Hex_Digit: ['AHex'],
  Alphabetic: ['Alpha'],
  Dash: [],
  Emoji: [],
  Emoji_Component: ['EComp'],
  Emoji_Modifier: ['EMod'],
  Emoji_Modifier_Base: ['EBase'],
  Emoji_Presentation: ['EPres'],
  Extended_Pictographic: ['ExtPict'],
  Hex_Digit: ['Hex'],
  Lowercase: ['Lower'],
  Math: [],
  Quotation_Mark: ['QMark'],
  Terminal_Punctuation: ['Term'],
  Uppercase: ['Upper'],
  White_Space: ['space', 'WSpace'],
};

function aliasTable(table: Readonly<Record<string, readonly string[]>>): Map<string, string> {
  const map = new Map<string, string>();
  for (const [name, aliases] of Object.entries(table)) {
    map.set(name, name);
    for (const alias of aliases) map.set(alias, name);
  }
  return map;
}

const CATEGORIES = aliasTable(CATEGORY_ALIASES);
const BINARY = aliasTable(BINARY_ALIASES);

/** `\p{…}`/`\P{…}` as something RE2 reads inside a class, or why it cannot be. */
export type PropertyClass = { ok: true; body: string } | { ok: false; reason: string };

/**
 * Maps the body of an ECMA-262 `\p{…}` (already checked by V8) to the inside of an RE2 class, given
 * whether it is negated. `scripts` says whether RE2 knows a script's long name.
 */
export function propertyClass(
  body: string,
  negated: boolean,
  scripts: (name: string) => boolean,
): PropertyClass {
  const p = negated ? 'P' : 'p';
  const equals = body.indexOf('=');
  if (equals >= 0) {
    const key = body.slice(0, equals);
    const value = body.slice(equals + 1);
    if (key === 'General_Category' || key === 'gc') return propertyClass(value, negated, scripts);
    if (key === 'Script' || key === 'sc') {
      if (scripts(value)) return { ok: true, body: `\\${p}{${value}}` };
      return { ok: false, reason: `\\p{${body}}: only long script names are supported` };
    }
    return { ok: false, reason: `\\p{${body}}: ${key} is not supported (no Script_Extensions)` };
  }
  const category = CATEGORIES.get(body);
  if (category !== undefined) return { ok: true, body: `\\${p}{${category}}` };
  const binary = BINARY.get(body);
  if (binary !== undefined) return { ok: true, body: `\\${p}{${binary}}` };
  if (body === 'Any') return { ok: true, body: negated ? '' : classBody(complement([])) };
  if (body === 'ASCII') {
    const ascii: Ranges = [[0, 0x7f]];
    return { ok: true, body: classBody(negated ? complement(ascii) : ascii) };
  }
  if (body === 'Assigned') return { ok: true, body: `\\${negated ? 'p' : 'P'}{Cn}` };
  return { ok: false, reason: `\\p{${body}}: the binary property ${body} is not supported` };
}
