import { TextCache } from '../core/index.js';
import { isUnitWord, type Quantity, quantitiesOf } from './quantities.js';
import { ANALYSIS_STOP_WORDS, keyForm, negates, type Token, tokenize } from './tokens.js';

/**
 * What the engine reads from one sentence (a claim, a fact, a `remaining` item):
 * - `keys`: its key words — content words (no stop words, numbers, units or negations) in their
 *   key form (stem or synonym head; an entity as it is, lower-cased) — what a claim and a fact are
 *   matched on;
 * - `quantities` (quantities.ts), `entities`, `negated` and `comparison`: what can differ.
 *
 * An *entity* is a token written with an inner capital (PostgreSQL, iOS, gRPC), in capitals (AWS,
 * TLS, S3), capitalised anywhere but at the start of the sentence (… in Redis), or a word the
 * `lexicon` knows as an entity (the context's entities, so "Kubernetes …" at the start of a claim and
 * "postgresql" in lower case count when the context names them). A capitalised first word that is
 * none of these is an ordinary word ("Caching improves latency").
 */
export interface Features {
  readonly keys: ReadonlySet<string>;
  /** Each key word as first written (lower case), for explanations. */
  readonly keyText: ReadonlyMap<string, string>;
  readonly quantities: readonly Quantity[];
  /** Lower-cased entity tokens, in order of first appearance. */
  readonly entities: readonly string[];
  /** Spelling of each entity as first written, for explanations. */
  readonly entityText: ReadonlyMap<string, string>;
  readonly negated: boolean;
  /** The word that makes the sentence a comparison (`faster`, `than`, `3x`), or null. */
  readonly comparison: string | null;
  /**
   * The entities the sentence names before its verb when that verb is a copula or an auxiliary
   * not followed by an article — a sentence that says something of its subject ("section
   * Constraints is drafted", "the Hydra cluster has 48 GB"); empty for any other
   * sentence ("Kubernetes uses ZooKeeper": no verb this reading knows; "Redis is the cache": the
   * two sides name one thing).
   */
  readonly subject: ReadonlySet<string>;
}

/** Verbs that end a sentence's subject where this reading can tell (no tagger: these only). */
const SUBJECT_ENDS = new Set(
  'is are was were be been being has have had will would can could shall should may might must does do did'.split(
    ' ',
  ),
);
/** After the verb, these make the sentence an equation of two names rather than a predicate. */
const ARTICLES = new Set(['the', 'a', 'an']);

const COMPARISON = new Set(
  'faster slower quicker cheaper costlier than outperforms outperform exceeds exceed more less fewer greater larger smaller higher lower better worse'.split(
    ' ',
  ),
);

const LETTER = /\p{L}/u;
const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;

/** Whether the token's spelling alone makes it an entity (the lexicon aside). */
function entityBySpelling(t: Token): boolean {
  const r = t.raw;
  if (!LETTER.test(r)) return false;
  const first = r[0]!;
  if (r.length >= 2 && !LOWER.test(r) && UPPER.test(r)) return true;
  for (let i = 1; i < r.length; i++) if (UPPER.test(r[i]!) && r[i - 1] !== '-') return true;
  return t.at > 0 && UPPER.test(first) && !ANALYSIS_STOP_WORDS.has(t.lower);
}

/**
 * What a text reads as before any lexicon: its tokens, the entities its spelling names, and the
 * tokens whose entity status the lexicon decides — with the features last read for one lexicon.
 * A session's facts are read again every window against a lexicon that barely moves, so a text's
 * reading is kept (by its text, up to {@link READING_CHARS} characters of them, oldest first out)
 * and its features are rebuilt only when the lexicon answers differently for one of its open
 * tokens.
 */
interface Reading {
  readonly tokens: readonly Token[];
  readonly spelled: readonly boolean[];
  readonly bySpelling: readonly string[];
  /** Tokens that are an entity exactly when the lexicon holds them (by position). */
  readonly open: readonly number[];
  last?: { readonly answers: readonly boolean[]; readonly features: Features };
}

/**
 * The characters of the texts whose readings are kept, together (a reading costs some tens of
 * bytes a character): a session's state of 1,000 facts is ~100,000. Oldest out first.
 */
const READING_CHARS = 1_048_576;
/** Longer texts (a window's run-on sentence) are read each time, never kept. */
const KEPT_TEXT_CHARS = 4_096;
const readings = new TextCache<Reading>(READING_CHARS, KEPT_TEXT_CHARS);

/** Drops every kept reading: the next look at any text reads it afresh. */
export function forgetReadings(): void {
  readings.clear();
}

/** How many texts' readings are kept, and their characters together. */
export function readingsKept(): { readonly texts: number; readonly chars: number } {
  return { texts: readings.size, chars: readings.chars };
}

function readingOf(text: string): Reading {
  return readings.memo(text, read);
}

function read(text: string): Reading {
  const tokens = tokenize(text);
  const spelled: boolean[] = [];
  const open: number[] = [];
  const bySpelling: string[] = [];
  tokens.forEach((t, i) => {
    const spelling = entityBySpelling(t);
    if (spelling) bySpelling.push(t.lower);
    const candidate = !isUnitWord(t.lower) && !ANALYSIS_STOP_WORDS.has(t.lower);
    spelled.push(candidate && spelling);
    if (candidate && !spelling) open.push(i);
  });
  return { tokens, spelled, bySpelling, open };
}

/** The entities a text names by spelling, for a lexicon. */
export function entitiesBySpelling(text: string): string[] {
  return [...readingOf(text).bySpelling];
}

export function featuresOf(text: string, lexicon: ReadonlySet<string>): Features {
  const reading = readingOf(text);
  const { tokens, open } = reading;
  const answers = open.map((i) => lexicon.has(tokens[i]!.lower));
  const last = reading.last;
  if (last && answers.every((a, k) => a === last.answers[k])) return last.features;
  const isEntity = [...reading.spelled];
  for (let k = 0; k < open.length; k++) if (answers[k]) isEntity[open[k]!] = true;
  const features = featuresFrom(tokens, isEntity);
  reading.last = { answers, features };
  return features;
}

/** A text's features, given which of its tokens are entities. */
function featuresFrom(tokens: readonly Token[], isEntity: readonly boolean[]): Features {
  const keyOf = (i: number): string => (isEntity[i] ? tokens[i]!.lower : keyForm(tokens[i]!.lower));
  const quantities = quantitiesOf(tokens, keyOf);
  const inQuantity = new Set<number>();
  for (const q of quantities) for (let i = q.from; i <= q.to; i++) inQuantity.add(i);
  const keys = new Set<string>();
  const keyText = new Map<string, string>();
  const entities: string[] = [];
  const entityText = new Map<string, string>();
  let negated = false;
  let comparison: string | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (negates(tokens, i)) {
      negated = true;
      continue;
    }
    if (comparison === null && COMPARISON.has(t.lower)) comparison = t.raw;
    if (inQuantity.has(i) || ANALYSIS_STOP_WORDS.has(t.lower) || !LETTER.test(t.lower)) continue;
    if (isEntity[i]) {
      if (!entityText.has(t.lower)) {
        entityText.set(t.lower, t.raw);
        entities.push(t.lower);
      }
      keys.add(t.lower);
      if (!keyText.has(t.lower)) keyText.set(t.lower, t.lower);
      continue;
    }
    if (isUnitWord(t.lower)) continue;
    const key = keyOf(i);
    keys.add(key);
    if (!keyText.has(key)) keyText.set(key, t.lower);
  }
  if (comparison === null) {
    const ratio = quantities.find((q) => q.dim === 'ratio');
    if (ratio) comparison = ratio.text;
  }
  return {
    keys,
    keyText,
    quantities,
    entities,
    entityText,
    negated,
    comparison,
    subject: subjectOf(tokens, isEntity),
  };
}

/** See {@link Features.subject}. */
function subjectOf(tokens: readonly Token[], isEntity: readonly boolean[]): Set<string> {
  const subject = new Set<string>();
  const verb = tokens.findIndex((t) => SUBJECT_ENDS.has(t.lower));
  if (verb <= 0 || ARTICLES.has(tokens[verb + 1]?.lower ?? '')) return subject;
  for (let i = 0; i < verb; i++) if (isEntity[i]) subject.add(tokens[i]!.lower);
  return subject;
}
