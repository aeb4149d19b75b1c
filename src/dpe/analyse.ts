import { type Attributed, attributeClaim } from './attribute.js';
import { completenessOf } from './completeness.js';
import { round } from './explain.js';
import { indexFacts } from './facts.js';
import { entitiesBySpelling, featuresOf } from './features.js';
import { flowOf } from './flow.js';
import { type DpeLimits, readInput } from './input.js';
import { DPE_LIMITS } from './limits.js';
import { normaliseStatement } from './normalise.js';
import { qualityOf } from './quality.js';
import { historyOf, repetitionOf } from './repetition.js';
import { segment } from './segment.js';
import type { DpeInput, WindowSignals } from './types.js';

export interface AnalyseOptions {
  /** Lower any of the engine's limits (a value above the default is ignored). */
  readonly limits?: Partial<DpeLimits>;
}

function limitsOf(options: AnalyseOptions | undefined): DpeLimits {
  const out = { ...DPE_LIMITS } as DpeLimits;
  for (const key of Object.keys(out) as (keyof DpeLimits)[]) {
    const v = options?.limits?.[key];
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) out[key] = Math.min(out[key], v);
  }
  return out;
}

/**
 * The Decision Provenance Engine on one window: pure and deterministic (the same input gives the
 * same signals, byte for byte), bounded by {@link DPE_LIMITS}. See src/dpe/README.md for every rule.
 */
export function analyseWindow(input: DpeInput, options?: AnalyseOptions): WindowSignals {
  const limits = limitsOf(options);
  const read = readInput(input, limits);
  const sentences = segment(read.text);
  const index = indexFacts(
    read.context,
    sentences.flatMap((s) => (s.kind === 'code' ? [] : entitiesBySpelling(s.text))),
  );

  const keys = sentences.map((s) =>
    s.kind === 'code' ? new Set<string>() : featuresOf(s.text, index.lexicon).keys,
  );

  let truncated = read.truncated;
  const attributed: Attributed[] = [];
  const seen = new Set<string>();
  for (const s of sentences) {
    if (s.kind !== 'claim' || s.text.length > limits.maxSentenceChars) continue;
    const key = normaliseStatement(s.text);
    if (seen.has(key)) continue;
    if (attributed.length >= limits.maxClaims) {
      truncated = true;
      break;
    }
    seen.add(key);
    attributed.push(
      attributeClaim(index, attributed.length, s.text, featuresOf(s.text, index.lexicon)),
    );
  }
  const claims = attributed.map((a) => a.claim);
  const contradictions = attributed.flatMap((a) => (a.contradiction ? [a.contradiction] : []));
  const fabrication_count = contradictions.filter((c) => c.kind === 'fabrication').length;
  const distortion_count = contradictions.length - fabrication_count;
  const grounded = claims.filter((c) => c.attribution === 'CONTEXT_GROUNDED').length;
  const grounding_pct = claims.length === 0 ? 1 : round(grounded / claims.length);

  const repetition = repetitionOf(sentences, historyOf(read.earlier.map((t) => segment(t))));
  const completeness = completenessOf(
    read.remaining.map((text) => ({ text, features: featuresOf(text, index.lexicon) })),
    keys,
  );
  const flow_score = flowOf(sentences, keys);
  return {
    window_number: read.window_number,
    claims,
    contradictions,
    fabrication_count,
    distortion_count,
    grounding_pct,
    unverifiable_count: claims.filter((c) => c.attribution === 'UNVERIFIABLE').length,
    repetition,
    completeness,
    flow_score,
    quality: qualityOf({
      repetition: repetition.ratio,
      completeness: completeness.score,
      contradictions: contradictions.length,
      claims: claims.length,
      flow: flow_score,
      grounding: grounding_pct,
    }),
    truncated,
  };
}
