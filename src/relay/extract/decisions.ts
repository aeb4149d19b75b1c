/**
 * Decisions in the text, in two families (see README.extract.md for the full rule set):
 *
 * 1. A sentence "<we|I|the team> [aux] <chose|decided on|selected|will use|opted for|…> X
 *    <because|since|due to|given that|, as> Y [<, rejecting|over|instead of|rather than|, not> Z (and W)]"
 *    → `{ choice: X, rationale: Y, alternatives: [Z, W] }`. Inside the rationale, over/instead
 *    of/rather than start the alternatives only after a comma ("because it is declarative rather
 *    than imperative" stays the rationale); a reason after ", rejecting Z" is Z's, not the choice's. Negated, modal (might, could, should),
 *    conditional (if, unless, whether) and third-person sentences are not decisions, and neither is
 *    a decision without a rationale.
 * 2. A labelled block "Decision: X. Rationale: Y. Alternatives: Z, W." (labels may be bold, on one
 *    line, on several lines or list items; `Reason:`/`Why:` for the rationale, `Rejected:`/
 *    `Alternatives considered:` for the alternatives, whose names may follow as list items).
 *
 * Alternatives are reduced to their names: a parenthesised reason, a dash or colon reason, and a
 * trailing "because …" clause are dropped (the sentence itself stays a claim, so nothing is lost).
 * Everything here works on words found by one split and is linear in the sentence.
 */

export interface FoundDecision {
  readonly choice: string;
  readonly rationale: string;
  readonly alternatives: readonly string[];
}

/** At most this many alternatives for one decision. */
export const MAX_ALTERNATIVES = 16;
/** An alternative longer than this is a clause, not a name: dropped. */
export const MAX_ALTERNATIVE_CHARS = 200;

interface Token {
  readonly word: string;
  readonly start: number;
  readonly end: number;
  /** The raw token ends with `,`, `;` or a dash: a clause boundary follows. */
  readonly comma: boolean;
  /** Parenthesis depth at the token's start. */
  readonly depth: number;
}

const WORD_EDGE = /[\p{L}\p{N}]/u;

function tokenize(sentence: string): Token[] {
  const tokens: Token[] = [];
  let depth = 0;
  let at = 0;
  for (const raw of sentence.split(' ')) {
    const start = at;
    at += raw.length + 1;
    if (raw === '') continue;
    let s = 0;
    let e = raw.length;
    while (s < e && !WORD_EDGE.test(raw[s]!)) s++;
    while (e > s && !WORD_EDGE.test(raw[e - 1]!)) e--;
    const last = raw[raw.length - 1];
    tokens.push({
      word: raw.slice(s, e).toLowerCase().replaceAll('’', "'"),
      start,
      end: start + raw.length,
      comma: last === ',' || last === ';' || last === '—' || last === '–' || raw === '-',
      depth,
    });
    for (const c of raw) {
      if (c === '(' || c === '[') depth++;
      else if ((c === ')' || c === ']') && depth > 0) depth--;
    }
  }
  return tokens;
}

/** Trigger phrases, longest first; `modal` ones need will/shall/'ll/going to before them. */
const TRIGGERS: readonly { words: readonly string[]; modal?: boolean }[] = [
  { words: ['decided', 'to', 'go', 'with'] },
  { words: ['decided', 'to', 'use'] },
  { words: ['decided', 'to', 'adopt'] },
  { words: ['decided', 'on'] },
  { words: ['decided', 'to'] },
  { words: ['opted', 'for'] },
  { words: ['opted', 'to'] },
  { words: ['opt', 'for'] },
  { words: ['settled', 'on'] },
  { words: ['standardized', 'on'] },
  { words: ['standardised', 'on'] },
  { words: ['went', 'with'] },
  { words: ['go', 'with'], modal: true },
  { words: ['going', 'with'] },
  { words: ['chose', 'to'] },
  { words: ['chose'] },
  { words: ['chosen'] },
  { words: ['choose'] },
  { words: ['selected'] },
  { words: ['select'] },
  { words: ['picked'] },
  { words: ['pick'] },
  { words: ['adopted'] },
  { words: ['adopt'] },
  { words: ['use'], modal: true },
];

/** Words that may stand between the subject and the trigger. */
const BETWEEN = new Set([
  'have',
  'has',
  'had',
  'then',
  'therefore',
  'thus',
  'hence',
  'ultimately',
  'finally',
  'eventually',
  'also',
  'already',
  'now',
  'so',
  'just',
  'consequently',
  'deliberately',
  'collectively',
  'initially',
  'originally',
  'hereby',
  'again',
  'will',
  'shall',
  'are',
  'am',
  'going',
  'to',
]);
const MODAL = new Set(['will', 'shall', 'going']);
const SUBJECTS = new Set(['we', 'i', 'team', "we've", "i've", "we'll", "i'll"]);
const MODAL_SUBJECTS = new Set(["we'll", "i'll"]);
const CONDITIONALS = new Set(['if', 'unless', 'whether', 'suppose', 'supposing', 'assuming']);

function matches(tokens: readonly Token[], at: number, words: readonly string[]): boolean {
  for (let k = 0; k < words.length; k++) {
    const t = tokens[at + k];
    if (t === undefined || t.word !== words[k] || t.depth > 0) return false;
  }
  return true;
}

/** The subject before the trigger at `at`, when there is one this rule accepts. */
function subjectOk(
  tokens: readonly Token[],
  at: number,
  modal: boolean,
  firstConditional: number,
): boolean {
  let j = at - 1;
  let sawModal = false;
  while (j >= 0 && BETWEEN.has(tokens[j]!.word) && !tokens[j]!.comma) {
    if (MODAL.has(tokens[j]!.word)) sawModal = true;
    j--;
  }
  if (j < 0) return false;
  const subject = tokens[j]!.word;
  if (!SUBJECTS.has(subject)) return false;
  if (MODAL_SUBJECTS.has(subject)) sawModal = true;
  if (modal && !sawModal) return false;
  return firstConditional === -1 || firstConditional > j;
}

type Segment = 'choice' | 'rationale' | 'rejecting' | 'over' | 'contrast';

/** The connector starting at `k`: its kind and how many tokens it spans. */
function connector(tokens: readonly Token[], k: number): { kind: Segment; span: number } | null {
  const t = tokens[k]!;
  if (t.depth > 0) return null;
  const next = tokens[k + 1]?.word;
  const commaBefore = k > 0 && tokens[k - 1]!.comma;
  switch (t.word) {
    case 'because':
      return { kind: 'rationale', span: next === 'of' ? 2 : 1 };
    case 'since':
      return { kind: 'rationale', span: 1 };
    case 'due':
      return next === 'to' ? { kind: 'rationale', span: 2 } : null;
    case 'given':
      return next === 'that' ? { kind: 'rationale', span: 2 } : null;
    case 'as':
      return commaBefore || ['it', 'they', 'we', 'this', 'there', 'its'].includes(next ?? '')
        ? { kind: 'rationale', span: 1 }
        : null;
    case 'rejecting':
      return { kind: 'rejecting', span: 1 };
    case 'rejected':
      return commaBefore ? { kind: 'rejecting', span: 1 } : null;
    case 'and':
      return next === 'rejected' || next === 'rejecting' ? { kind: 'rejecting', span: 2 } : null;
    case 'not':
      return commaBefore ? { kind: 'rejecting', span: 1 } : null;
    case 'over':
      return { kind: 'over', span: 1 };
    case 'instead':
      return next === 'of' ? { kind: 'contrast', span: 2 } : null;
    case 'rather':
      return next === 'than' ? { kind: 'contrast', span: 2 } : null;
    case 'in':
      return next === 'preference' && tokens[k + 2]?.word === 'to'
        ? { kind: 'contrast', span: 3 }
        : null;
    default:
      return null;
  }
}

/** Whether a connector of `kind` starts a new segment while in `state`. */
function accepts(
  state: Segment,
  kind: Segment,
  hasRationale: boolean,
  commaBefore: boolean,
): boolean {
  if (state === 'rejecting') return false;
  switch (kind) {
    case 'rationale':
      return !hasRationale && state !== 'rationale';
    case 'over':
    case 'contrast':
      return state === 'choice' || (state === 'rationale' && commaBefore);
    case 'rejecting':
      return true;
    default:
      return false;
  }
}

const TRAILING = new Set(['.', ',', ';', ':', '!', '—', '–', '-', ' ']);

/** Trims white space and trailing clause punctuation. */
export function tidy(text: string): string {
  let end = text.length;
  while (end > 0 && TRAILING.has(text[end - 1]!)) end--;
  let start = 0;
  while (start < end && text[start] === ' ') start++;
  return text.slice(start, end);
}

const REASON_STARTS = new Set([
  'which',
  'that',
  'because',
  'since',
  'due',
  'as',
  'given',
  'whose',
  'for',
  'it',
  'they',
]);
const REASON_CUTS = [
  ' because ',
  ' since ',
  ' due to ',
  ' as it ',
  ' which ',
  ' — ',
  ' – ',
  ' - ',
  ': ',
];
const LEADING_JOINERS = ['and ', 'or ', 'nor ', 'both ', 'either ', 'neither '];

/** Names of alternatives in a phrase: "MongoDB (no ACID) and DynamoDB (lock-in)" → both names. */
export function splitAlternatives(phrase: string): string[] {
  let flat = '';
  let depth = 0;
  for (const c of phrase) {
    if (c === '(' || c === '[') depth++;
    else if ((c === ')' || c === ']') && depth > 0) depth--;
    else if (depth === 0) flat += c;
  }
  const names: string[] = [];
  for (const part of flat.split(/[,;]/)) {
    for (const piece of part.split(/ (?:and|or|nor) /)) {
      let name = ` ${piece.trim()} `;
      for (const cut of REASON_CUTS) {
        const at = name.indexOf(cut);
        if (at !== -1) name = name.slice(0, at);
      }
      name = tidy(name.trim());
      for (const joiner of LEADING_JOINERS) {
        if (name.toLowerCase().startsWith(joiner)) name = name.slice(joiner.length);
      }
      name = tidy(name);
      const first = name.split(' ')[0]!.toLowerCase();
      if (
        !WORD_EDGE.test(name) ||
        REASON_STARTS.has(first) ||
        name.length > MAX_ALTERNATIVE_CHARS
      ) {
        continue;
      }
      if (!names.includes(name)) names.push(name);
      if (names.length === MAX_ALTERNATIVES) return names;
    }
  }
  return names;
}

/** Family 1: a decision sentence, or null. */
export function decisionInSentence(sentence: string): FoundDecision | null {
  if (sentence.trimEnd().endsWith('?')) return null;
  const tokens = tokenize(sentence);
  const firstConditional = tokens.findIndex((t) => CONDITIONALS.has(t.word));
  for (let i = 0; i < tokens.length; i++) {
    const trigger = TRIGGERS.find((t) => matches(tokens, i, t.words));
    if (!trigger || !subjectOk(tokens, i, trigger.modal === true, firstConditional)) continue;
    return segmentsAfter(sentence, tokens, i + trigger.words.length);
  }
  return null;
}

function segmentsAfter(
  sentence: string,
  tokens: readonly Token[],
  from: number,
): FoundDecision | null {
  const segments: { kind: Segment; from: number; to: number }[] = [];
  let state: Segment = 'choice';
  let start = from;
  let hasRationale = false;
  for (let k = from; k < tokens.length; k++) {
    const found = connector(tokens, k);
    if (!found) continue;
    const commaBefore = k > 0 && tokens[k - 1]!.comma;
    if (!accepts(state, found.kind, hasRationale, commaBefore)) continue;
    segments.push({ kind: state, from: start, to: k });
    state = found.kind;
    if (state === 'rationale') hasRationale = true;
    start = k + found.span;
    k = start - 1;
  }
  segments.push({ kind: state, from: start, to: tokens.length });
  const textOf = (s: { from: number; to: number }): string =>
    s.from >= s.to ? '' : tidy(sentence.slice(tokens[s.from]!.start, tokens[s.to - 1]!.end));
  const choice = textOf(segments[0]!);
  const rationaleSegment = segments.find((s) => s.kind === 'rationale');
  const rationale = rationaleSegment ? textOf(rationaleSegment) : '';
  if (choice === '' || rationale === '') return null;
  const alternatives: string[] = [];
  for (const s of segments) {
    if (s.kind === 'choice' || s.kind === 'rationale') continue;
    for (const name of splitAlternatives(textOf(s))) {
      if (!alternatives.includes(name) && alternatives.length < MAX_ALTERNATIVES) {
        alternatives.push(name);
      }
    }
  }
  return { choice, rationale, alternatives };
}

/** The labels of family 2, longest first, with what each one introduces. */
export type LabelKind = 'decision' | 'rationale' | 'alternatives';
const LABELS: readonly (readonly [string, LabelKind])[] = [
  ['alternatives considered', 'alternatives'],
  ['rejected alternatives', 'alternatives'],
  ['options considered', 'alternatives'],
  ['alternatives', 'alternatives'],
  ['rejected', 'alternatives'],
  ['considered', 'alternatives'],
  ['decision', 'decision'],
  ['rationale', 'rationale'],
  ['reasoning', 'rationale'],
  ['reason', 'rationale'],
  ['why', 'rationale'],
];

export interface LabelPart {
  readonly kind: LabelKind;
  readonly value: string;
}

/**
 * The labelled parts of a block when it starts with a label ("Decision: …"), else an empty list. A
 * label counts at the block's start or after a sentence end or line break, optionally in `**`.
 */
export function labelParts(text: string): LabelPart[] {
  const low = text.toLowerCase();
  /** `cut`: where the text before the label (the previous value) ends. */
  const found: { kind: LabelKind; cut: number; valueStart: number }[] = [];
  for (let colon = low.indexOf(':'); colon !== -1; colon = low.indexOf(':', colon + 1)) {
    let end = colon;
    while (end > 0 && (low[end - 1] === '*' || low[end - 1] === '_')) end--;
    const label = LABELS.find(([name]) => low.endsWith(name, end));
    if (!label) continue;
    let before = end - label[0].length;
    while (before > 0 && (low[before - 1] === '*' || low[before - 1] === '_')) before--;
    while (before > 0 && (low[before - 1] === ' ' || low[before - 1] === '\t')) before--;
    const prev = low[before - 1];
    if (before > 0 && prev !== '.' && prev !== '\n' && prev !== '!' && prev !== ';') continue;
    if (found.length === 0 && before > 0) return [];
    let valueStart = colon + 1;
    while (valueStart < low.length && (low[valueStart] === '*' || low[valueStart] === '_')) {
      valueStart++;
    }
    found.push({ kind: label[1], cut: before, valueStart });
  }
  return found.map((f, i) => {
    const next = found[i + 1];
    const to = next ? next.cut : text.length;
    return { kind: f.kind, value: tidy(text.slice(f.valueStart, to).replaceAll('\n', ' ')) };
  });
}
