import { RE2JS } from 're2js';
import { LruCache } from '../../core/index.js';
import { translatePattern } from './pattern.js';

/**
 * JSON Schema patterns on RE2 (re2js): matching is linear in the string, never backtracking, and
 * what one match may cost is known before it runs, so it can be charged to a step budget first.
 *
 * re2js picks among a one-pass matcher, a bit-state backtracker, a Pike NFA and a lazy DFA. The first
 * three cost at most a constant per character and instruction. The DFA is fastest on average but
 * builds a state per character when an input defeats its cache (measured at ~15 µs per character
 * for a 36-instruction program), so it is switched off: the worst case, the one charged, is then
 * the NFA's.
 */

/** Bounds on one pattern, so compiling it stays cheap (RE2's compiler is slow on big programs). */
export const PATTERN_LIMITS = Object.freeze({
  /** UTF-16 code units of the pattern as written. */
  maxLength: 2_048,
  /** Instructions of the compiled program (what matching costs per character). */
  maxInstructions: 2_000,
  /** Instructions plus the character ranges they test (what compiling costs). */
  maxCompileWeight: 50_000,
  /**
   * The same, summed over every pattern of a schema (cached patterns count too), each pattern also
   * counting {@link PATTERN_OVERHEAD} for what compiling any pattern costs (~50 µs measured).
   */
  maxSchemaCompileWeight: 100_000,
});

/** What any pattern adds to the schema's compile weight, however small. */
export const PATTERN_OVERHEAD = 250;

/** A compiled pattern: an unanchored search, as ECMA-262 `test` does. */
export interface LinearPattern {
  /** The pattern as written in the schema. */
  readonly source: string;
  /** The RE2 translation actually run. */
  readonly re2: string;
  /** Instructions of the compiled program: matching one character costs at most this much work. */
  readonly weight: number;
  /** Instructions plus the character ranges they test: what compiling it cost. */
  readonly compileWeight: number;
  test(text: string): boolean;
}

/** A pattern that cannot run on RE2, with the reason (for INVALID_PROTOCOL). */
export class PatternRefused extends Error {
  override readonly name = 'PatternRefused';
}

interface Inst {
  runes?: ArrayLike<number>;
}

interface Internals {
  re2Input?: { prog?: { inst?: Inst[] }; dfa?: { failed?: boolean } };
}

/** Instructions plus character ranges, read from re2js's compiled program. */
function compileWeightOf(compiled: RE2JS): number {
  const inst = (compiled as unknown as Internals).re2Input?.prog?.inst;
  if (!Array.isArray(inst)) throw new Error('re2js: unknown program layout');
  let weight = 0;
  for (const { runes } of inst) weight += 1 + (runes === undefined ? 0 : runes.length >> 1);
  return weight;
}

/** Switches the lazy DFA off (see above); fails loudly if re2js no longer has one to switch off. */
function withoutDfa(compiled: RE2JS): void {
  const dfa = (compiled as unknown as Internals).re2Input?.dfa;
  if (dfa === undefined || typeof dfa.failed !== 'boolean')
    throw new Error('re2js: no lazy DFA to switch off');
  dfa.failed = true;
}

function knownScript(name: string): boolean {
  if (!/^[A-Z][A-Za-z_]*$/.test(name)) return false;
  try {
    RE2JS.compile(`\\p{${name}}`);
    return true;
  } catch {
    return false;
  }
}

function tooHeavy(weight: number): string {
  return `its program would hold ${weight} instructions and character ranges, more than ${PATTERN_LIMITS.maxCompileWeight}`;
}

const cache = new LruCache<string, LinearPattern>(1_024);

/**
 * Compiles a JSON Schema pattern (ECMA-262, Unicode mode) to run on RE2. Throws a plain Error when it
 * is not a valid ECMA-262 pattern, and {@link PatternRefused} when it is valid but RE2 cannot express
 * it (backreferences, lookaround, some `\p{…}`) or it passes {@link PATTERN_LIMITS}.
 */
export function linearPattern(source: string): LinearPattern {
  const known = cache.get(source);
  if (known !== undefined) return known;
  if (source.length > PATTERN_LIMITS.maxLength)
    throw new PatternRefused(`longer than ${PATTERN_LIMITS.maxLength} characters`);
  new RegExp(source, 'u'); // throws SyntaxError: not ECMA-262
  const translated = translatePattern(source, knownScript);
  if (!translated.ok) throw new PatternRefused(translated.reason);
  if (translated.size > PATTERN_LIMITS.maxCompileWeight)
    throw new PatternRefused(tooHeavy(translated.size));
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(translated.re2);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new PatternRefused(`the linear-time engine refuses it: ${why}`);
  }
  const weight = compiled.programSize();
  if (weight > PATTERN_LIMITS.maxInstructions) {
    throw new PatternRefused(
      `its program has ${weight} instructions, more than ${PATTERN_LIMITS.maxInstructions}`,
    );
  }
  const compileWeight = compileWeightOf(compiled);
  if (compileWeight > PATTERN_LIMITS.maxCompileWeight)
    throw new PatternRefused(tooHeavy(compileWeight));
  withoutDfa(compiled);
  const pattern: LinearPattern = Object.freeze({
    source,
    re2: translated.re2,
    weight,
    compileWeight,
    test: (text: string) => compiled.test(text),
  });
  cache.set(source, pattern);
  return pattern;
}
