import {
  classBody,
  codePoint,
  complement,
  DIGIT,
  LINE_TERMINATOR,
  propertyClass,
  type Ranges,
  SPACE,
  WORD,
} from './pattern-unicode.js';

/**
 * Translates a JSON Schema pattern (an ECMA-262 regular expression with Unicode semantics) into RE2
 * syntax with the same matches, so it can run on a linear-time engine. Backreferences and
 * lookaround have no linear-time equivalent and are refused, as is any `\p{…}` RE2 has no table for.
 */

/**
 * A translated pattern, or why it cannot run on RE2. `size` bounds the compiled program's weight
 * (instructions plus the character ranges they test) from above, so a pattern too big to compile
 * cheaply is refused before RE2 compiles it.
 */
export type Translation = { ok: true; re2: string; size: number } | { ok: false; reason: string };

/** Ranges in RE2's largest Unicode table (Alphabetic: 764), rounded up. */
const PROPERTY_RANGES = 800;

/** A translated piece of pattern and an upper bound on its program weight. */
interface Piece {
  text: string;
  size: number;
}

/** Matches nothing (an empty ECMA-262 class `[]`), in RE2 syntax. */
const NOTHING = '[^\\x{0}-\\x{10ffff}]';
const ANYTHING = '[\\x{0}-\\x{10ffff}]';

class Refused extends Error {}

const CONTROL_ESCAPES: Readonly<Record<string, number>> = {
  f: 0x0c,
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
  v: 0x0b,
};
const CLASS_ESCAPES: Readonly<Record<string, Ranges>> = { d: DIGIT, s: SPACE, w: WORD };

/** One parsed class atom: a single code point, or a set (the inside of an RE2 class, its ranges). */
type Atom = { cp: number } | { set: string; ranges: number };

/**
 * A cursor over the pattern's code points. The pattern has passed `new RegExp(source, 'u')`, so
 * the grammar is the strict Unicode-mode one and malformed input cannot reach here.
 */
class Translator {
  private i = 0;

  constructor(
    private readonly source: string,
    private readonly scripts: (name: string) => boolean,
  ) {}

  run(): Piece {
    const out = this.disjunction();
    if (this.i < this.source.length) throw new Refused(`unexpected ${this.peek()} at ${this.i}`);
    return { text: out.text, size: out.size + 2 };
  }

  private peek(offset = 0): string {
    return this.source[this.i + offset] ?? '';
  }

  private next(): number {
    const cp = this.source.codePointAt(this.i);
    if (cp === undefined) throw new Refused('unexpected end of pattern');
    this.i += cp > 0xffff ? 2 : 1;
    return cp;
  }

  private disjunction(): Piece {
    const out = this.alternative();
    while (this.peek() === '|') {
      this.i++;
      const next = this.alternative();
      out.text += `|${next.text}`;
      out.size += next.size + 1;
    }
    return out;
  }

  private alternative(): Piece {
    const out: Piece = { text: '', size: 0 };
    while (this.i < this.source.length && this.peek() !== '|' && this.peek() !== ')') {
      const term = this.term();
      out.text += term.text;
      out.size += term.size;
    }
    return out;
  }

  private term(): Piece {
    const c = this.peek();
    if (c === '^' || c === '$') {
      this.i++;
      return { text: c === '^' ? '\\A' : '\\z', size: 1 };
    }
    if (c === '\\' && (this.peek(1) === 'b' || this.peek(1) === 'B')) {
      this.i += 2;
      return { text: `\\${this.source[this.i - 1]}`, size: 1 }; // ASCII word boundaries in both
    }
    const atom = this.atom();
    return this.quantified(atom);
  }

  private quantified(atom: Piece): Piece {
    const c = this.peek();
    let text: string;
    let size: number;
    if (c === '*' || c === '+' || c === '?') {
      this.i++;
      text = c;
      size = atom.size + 1;
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.i, this.i + 64));
      if (m === null) throw new Refused('a repetition count is too long');
      this.i += m[0].length;
      const min = Number(m[1]);
      const max = m[3] === undefined || m[3] === '' ? undefined : Number(m[3]);
      if (min > 1000 || (max ?? 0) > 1000) throw new Refused('a repetition count is above 1000');
      text = m[2] === undefined ? `{${min}}` : `{${min},${max ?? ''}}`;
      size = (Math.max(min + 1, max ?? 0) + 1) * (atom.size + 1);
    } else return atom;
    if (this.peek() === '?') {
      this.i++;
      text += '?';
    }
    return { text: atom.text + text, size };
  }

  private atom(): Piece {
    const c = this.peek();
    if (c === '.') {
      this.i++;
      return { text: `[^${classBody(LINE_TERMINATOR)}]`, size: 1 + LINE_TERMINATOR.length + 1 };
    }
    if (c === '(') return this.group();
    if (c === '[') return this.characterClass();
    if (c === '\\') {
      const atom = this.escape(false);
      if ('cp' in atom) return { text: codePoint(atom.cp), size: 1 };
      return { text: atom.set === '' ? NOTHING : `[${atom.set}]`, size: 1 + atom.ranges };
    }
    return { text: codePoint(this.next()), size: 1 };
  }

  private group(): Piece {
    this.i++; // (
    if (this.peek() === '?') {
      const kind = this.peek(1);
      if (kind === ':') this.i += 2;
      else if (kind === '=' || kind === '!') throw new Refused('lookahead is not supported');
      else if (kind === '<' && (this.peek(2) === '=' || this.peek(2) === '!'))
        throw new Refused('lookbehind is not supported');
      else if (kind === '<') {
        const close = this.source.indexOf('>', this.i);
        if (close < 0) throw new Refused('unterminated group name');
        this.i = close + 1; // a named group: only whether it matches counts, so no capture
      } else throw new Refused(`the group syntax (?${kind} is not supported`);
    }
    const inner = this.disjunction();
    if (this.peek() !== ')') throw new Refused('unterminated group');
    this.i++;
    return { text: `(?:${inner.text})`, size: inner.size };
  }

  private characterClass(): Piece {
    this.i++; // [
    const negated = this.peek() === '^';
    if (negated) this.i++;
    let body = '';
    let ranges = 1; // a negation adds at most one range
    while (this.peek() !== ']') {
      if (this.i >= this.source.length) throw new Refused('unterminated character class');
      const first = this.classAtom();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== '') {
        this.i++;
        const last = this.classAtom();
        if (!('cp' in first) || !('cp' in last)) throw new Refused('a class escape in a range');
        body += `${codePoint(first.cp)}-${codePoint(last.cp)}`;
        ranges++;
      } else if ('cp' in first) {
        body += codePoint(first.cp);
        ranges++;
      } else {
        body += first.set;
        ranges += first.ranges;
      }
    }
    this.i++; // ]
    if (body === '') return { text: negated ? ANYTHING : NOTHING, size: 2 };
    return { text: `[${negated ? '^' : ''}${body}]`, size: 1 + ranges };
  }

  private classAtom(): Atom {
    if (this.peek() !== '\\') return { cp: this.next() };
    if (this.peek(1) === 'b') {
      this.i += 2;
      return { cp: 0x08 }; // backspace inside a class
    }
    if (this.peek(1) === '-') {
      this.i += 2;
      return { cp: 0x2d };
    }
    return this.escape(true);
  }

  private escape(inClass: boolean): Atom {
    this.i++; // \
    const c = this.peek();
    const ranges = CLASS_ESCAPES[c.toLowerCase()];
    if (ranges !== undefined) {
      this.i++;
      const set = c === c.toLowerCase() ? ranges : complement(ranges);
      return { set: classBody(set), ranges: set.length };
    }
    if (c === 'p' || c === 'P') return this.property(c === 'P');
    if (c in CONTROL_ESCAPES) {
      this.i++;
      return { cp: CONTROL_ESCAPES[c]! };
    }
    if (c === 'c') {
      this.i += 2;
      return { cp: this.source.charCodeAt(this.i - 1) % 32 };
    }
    if (c === '0' && !/\d/.test(this.peek(1))) {
      this.i++;
      return { cp: 0 };
    }
    if (/\d/.test(c) || c === 'k') throw new Refused('backreferences are not supported');
    if (c === 'x') {
      this.i += 3;
      return { cp: Number.parseInt(this.source.slice(this.i - 2, this.i), 16) };
    }
    if (c === 'u') return { cp: this.unicodeEscape() };
    if (inClass && c === '-') {
      this.i++;
      return { cp: 0x2d };
    }
    return { cp: this.next() }; // an identity escape: a syntax character or `/`
  }

  private unicodeEscape(): number {
    this.i++; // u
    if (this.peek() === '{') {
      const close = this.source.indexOf('}', this.i);
      const cp = Number.parseInt(this.source.slice(this.i + 1, close), 16);
      this.i = close + 1;
      return cp;
    }
    const lead = Number.parseInt(this.source.slice(this.i, this.i + 4), 16);
    this.i += 4;
    // In Unicode mode, \uD83D\uDE00 is one code point.
    if (lead >= 0xd800 && lead <= 0xdbff && this.source.startsWith('\\u', this.i)) {
      const trail = Number.parseInt(this.source.slice(this.i + 2, this.i + 6), 16);
      if (trail >= 0xdc00 && trail <= 0xdfff) {
        this.i += 6;
        return (lead - 0xd800) * 0x400 + (trail - 0xdc00) + 0x10000;
      }
    }
    return lead;
  }

  private property(negated: boolean): Atom {
    const close = this.source.indexOf('}', this.i);
    const body = this.source.slice(this.i + 2, close);
    this.i = close + 1;
    const mapped = propertyClass(body, negated, this.scripts);
    if (!mapped.ok) throw new Refused(mapped.reason);
    return { set: mapped.body, ranges: PROPERTY_RANGES };
  }
}

/**
 * Translates an ECMA-262 pattern, valid in Unicode mode, into RE2 syntax. `scripts` tells whether RE2
 * has a table for a script's long name.
 */
export function translatePattern(source: string, scripts: (name: string) => boolean): Translation {
  try {
    const { text, size } = new Translator(source, scripts).run();
    return { ok: true, re2: text, size };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.message };
    throw error;
  }
}
