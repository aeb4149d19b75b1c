import { RE2JS } from 're2js';
import { translatePattern } from './pattern.js';

/**
 * JSON Schema patterns on RE2 (re2js): matching is linear in the string, never backtracking, and
 * what one match may cost is known before it runs, so it can be charged to a step budget first.
 */

/** Bounds on one pattern, so compiling it stays cheap (RE2's compiler is slow on big programs). */
export const PATTERN_LIMITS = Object.freeze({
  /** UTF-16 code units of the pattern as written. */
  maxLength: 2_048,
  /** Weight (see {@link LinearPattern.weight}) of the compiled program. */
  maxWeight: 10_000,
});

/** Memory the engine's lazy DFA may cache per pattern before it falls back to the NFA. */
const DFA_MEMORY = 256 * 1024;

/** A compiled pattern: an unanchored search, as ECMA-262 `test` does. */
export interface LinearPattern {
  /** The pattern as written in the schema. */
  readonly source: string;
  /** The RE2 translation actually run. */
  readonly re2: string;
  /**
   * Instructions of the compiled program plus the character ranges they test: matching one
   * character costs at most this much work, whichever of RE2's engines runs.
   */
  readonly weight: number;
  test(text: string): boolean;
}

/** A pattern that cannot run on RE2, with the reason (for INVALID_PROTOCOL). */
export class PatternRefused extends Error {
  override readonly name = 'PatternRefused';
}

interface Inst {
  runes?: ArrayLike<number>;
}

/** The program's weight, read from re2js's compiled form; its public programSize() as a floor. */
function weightOf(compiled: RE2JS): number {
  const inst = (compiled as unknown as { re2Input?: { prog?: { inst?: Inst[] } } }).re2Input?.prog
    ?.inst;
  if (!Array.isArray(inst)) return compiled.programSize() * 1_000; // unknown layout: assume the worst
  let weight = 0;
  for (const { runes } of inst) weight += 1 + (runes === undefined ? 0 : runes.length >> 1);
  return weight;
}

/** Builds the lazy DFA now (its set-up is proportional to the weight) and caps what it caches. */
function prepare(compiled: RE2JS): void {
  const re2 = (compiled as unknown as { re2Input?: { dfa?: Record<string, unknown> } }).re2Input;
  const dfa = re2?.dfa;
  if (dfa !== undefined && typeof dfa.memBudget === 'number') {
    dfa.memBudget = Math.min(dfa.memBudget, DFA_MEMORY);
    dfa.stateBudget = Math.min(Number(dfa.stateBudget), DFA_MEMORY);
  }
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
  return `its program would weigh ${weight} (instructions and character ranges), more than ${PATTERN_LIMITS.maxWeight}`;
}

const cache = new Map<string, LinearPattern>();
const CACHE_SIZE = 1_024;

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
  if (translated.size > PATTERN_LIMITS.maxWeight)
    throw new PatternRefused(tooHeavy(translated.size));
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(translated.re2);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new PatternRefused(`the linear-time engine refuses it: ${why}`);
  }
  const weight = weightOf(compiled);
  if (weight > PATTERN_LIMITS.maxWeight) throw new PatternRefused(tooHeavy(weight));
  prepare(compiled);
  const pattern: LinearPattern = Object.freeze({
    source,
    re2: translated.re2,
    weight,
    test: (text: string) => compiled.test(text),
  });
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(source, pattern);
  return pattern;
}
