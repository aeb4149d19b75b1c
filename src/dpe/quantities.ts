import type { Token } from './tokens.js';

/**
 * Numbers in a sentence, normalised so that equal values meet: `1,000` = `1000`, `3.50` = `3.5`,
 * `10k` = `10 thousand` = `10000`, `two` … `twelve` = 2 … 12; with the unit after them (`200 ms`,
 * `200ms`, `4 GB`, `87%`, `87 percent`), each unit in a dimension with a scale, so `2 s` = `2000 ms`.
 * A version (`v3.5`, `3.5.1`) is compared as text. A number without a unit is a count; the word
 * after it (`3 replicas`) is its noun, used to pair it with a fact's count.
 */
export type Dimension = 'time' | 'data' | 'percent' | 'frequency' | 'ratio' | 'version' | 'count';

export interface Quantity {
  /** The value in the dimension's base unit (seconds, bytes, …); NaN for versions. */
  readonly base: number;
  /** The number as written, normalised (`1000`, `3.5`), or the version (`3.5.1`). */
  readonly value: string;
  /** The canonical unit (`ms`, `gb`, `%`), or null for counts and versions. */
  readonly unit: string | null;
  readonly dim: Dimension;
  /** How it reads in an explanation: `200 ms`, `87%`, `v3.5`, `3 replicas`. */
  readonly text: string;
  /** The stem of the word after it (counts) or null. */
  readonly noun: string | null;
  /** Token positions it spans (excluded from the sentence's key words). */
  readonly from: number;
  readonly to: number;
}

interface Unit {
  readonly unit: string;
  readonly dim: Dimension;
  readonly scale: number;
}

const UNITS = new Map<string, Unit>();
function units(dim: Dimension, unit: string, scale: number, spellings: string): void {
  for (const s of spellings.split(' ')) UNITS.set(s, { unit, dim, scale });
}
units('time', 'ns', 1e-9, 'ns nanosecond nanoseconds');
units('time', 'µs', 1e-6, 'us µs μs microsecond microseconds');
units('time', 'ms', 1e-3, 'ms msec msecs millisecond milliseconds');
units('time', 's', 1, 's sec secs second seconds');
units('time', 'min', 60, 'min mins minute minutes');
units('time', 'h', 3600, 'h hr hrs hour hours');
units('time', 'd', 86_400, 'day days');
units('time', 'wk', 604_800, 'week weeks');
units('data', 'b', 1, 'byte bytes');
units('data', 'kb', 1e3, 'kb kilobyte kilobytes');
units('data', 'mb', 1e6, 'mb megabyte megabytes');
units('data', 'gb', 1e9, 'gb gigabyte gigabytes');
units('data', 'tb', 1e12, 'tb terabyte terabytes');
units('data', 'kib', 1024, 'kib');
units('data', 'mib', 1024 ** 2, 'mib');
units('data', 'gib', 1024 ** 3, 'gib');
units('data', 'tib', 1024 ** 4, 'tib');
units('percent', '%', 1, '% percent pct');
units('frequency', 'hz', 1, 'hz');
units('frequency', 'khz', 1e3, 'khz');
units('frequency', 'mhz', 1e6, 'mhz');
units('frequency', 'ghz', 1e9, 'ghz');
units('ratio', 'x', 1, 'x × times');

/** Words that multiply the number before them. */
const MULTIPLIERS = new Map([
  ['k', 1e3],
  ['thousand', 1e3],
  ['million', 1e6],
  ['billion', 1e9],
]);

const NUMBER_WORDS = new Map(
  'two three four five six seven eight nine ten eleven twelve'.split(' ').map((w, i) => [w, i + 2]),
);

const PLAIN = /^-?\d+(?:\.\d+)?$/;
const GROUPED = /^-?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
const VERSION = /^v?\d+(?:\.\d+)+$/;
const GLUED = /^(-?\d+(?:\.\d+)?)([a-zµμ]+)$/;

/** `3.50` → `3.5`, `1,000` → `1000`, `007` → `7`, `-5` → `-5` (the sign is part of the value). */
function normalNumber(text: string): string {
  return String(Number(text.replaceAll(',', '')));
}

/** Whether `lower` is a unit word (it is then not a key word of the sentence). */
export function isUnitWord(lower: string): boolean {
  return UNITS.has(lower) || MULTIPLIERS.has(lower);
}

export function quantitiesOf(tokens: readonly Token[], keyOf: (i: number) => string): Quantity[] {
  const out: Quantity[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const w = t.lower;
    if (/^v\d/.test(w) ? VERSION.test(w) : /^\d+\.\d+\.\d+/.test(w) && VERSION.test(w)) {
      const v = w.replace(/^v/, '');
      out.push({
        base: Number.NaN,
        value: v,
        unit: null,
        dim: 'version',
        text: t.raw,
        noun: null,
        from: i,
        to: i,
      });
      continue;
    }
    let number: string | null = null;
    let glued: string | null = null;
    if (PLAIN.test(w) || GROUPED.test(w)) number = normalNumber(w);
    else if (NUMBER_WORDS.has(w)) number = String(NUMBER_WORDS.get(w));
    else {
      const m = GLUED.exec(w);
      if (m && (UNITS.has(m[2]!) || MULTIPLIERS.has(m[2]!))) {
        number = normalNumber(m[1]!);
        glued = m[2]!;
      }
    }
    if (number === null) continue;
    let value = Number(number);
    let to = i;
    let unitWord = glued;
    if (unitWord !== null && MULTIPLIERS.has(unitWord)) {
      value *= MULTIPLIERS.get(unitWord)!;
      unitWord = null;
    }
    if (unitWord === null) {
      const next = tokens[to + 1]?.lower;
      if (next !== undefined && MULTIPLIERS.has(next)) {
        value *= MULTIPLIERS.get(next)!;
        to++;
      }
    }
    if (unitWord === null) {
      const next = tokens[to + 1]?.lower;
      if (next !== undefined && UNITS.has(next)) {
        unitWord = next;
        to++;
      } else if (next === 'per' && tokens[to + 2]?.lower === 'cent') {
        unitWord = '%';
        to += 2;
      }
    }
    const unit = unitWord === null ? null : UNITS.get(unitWord)!;
    const shown = normalNumber(String(value));
    const nounAt = to + 1;
    const noun = unit === null && nounAt < tokens.length ? keyOf(nounAt) : null;
    out.push({
      base: unit === null ? value : value * unit.scale,
      value: shown,
      unit: unit?.unit ?? null,
      dim: unit?.dim ?? 'count',
      text: tokens
        .slice(i, to + 1)
        .map((x) => x.raw)
        .join(' ')
        .replace(' %', '%'),
      noun,
      from: i,
      to,
    });
    i = to;
  }
  return out;
}

/** Whether two quantities of one dimension have the same value. */
export function sameValue(a: Quantity, b: Quantity): boolean {
  if (a.dim === 'version' || b.dim === 'version') return a.value === b.value;
  const scale = Math.max(Math.abs(a.base), Math.abs(b.base), 1e-12);
  return Math.abs(a.base - b.base) / scale < 1e-9;
}
