import type { JsonObject } from '../core/index.js';
import type { RelayWindowRecord } from '../relay/index.js';

/**
 * A relay session's quality history, one compact row per window: what the relay's verification
 * (CRP-030 §5) and the DPE and AIR (CRP-018) recorded with it, without the window's CSO or text.
 * A person charts it (the workbench's Relay view) and reads each window's IAP beside it.
 */

/** One window's figures. The DPE's and AIR's are null for a window recorded without them. */
export interface RelayWindowQuality {
  readonly window_number: number;
  readonly kind: 'work' | 'revision';
  readonly revision_target: string | null;
  /** Valid prior facts kept / valid prior facts, before repair (§5). */
  readonly preservation: number;
  readonly repaired: number;
  readonly claims: number | null;
  readonly fabrication_count: number | null;
  readonly distortion_count: number | null;
  /** Repeated 6-grams / 6-grams of the window. */
  readonly repetition_ratio: number | null;
  readonly completeness: number | null;
  readonly grounding_pct: number | null;
  readonly flow_score: number | null;
  readonly quality: number | null;
  /** CRP-018 §5.2 after this window, 0–100. */
  readonly session_iq: number | null;
  /** The IAP AIR built from this window, and the text the next window's prompt carries. */
  readonly air: {
    readonly mode: string;
    readonly judge: string;
    readonly packet: unknown;
    readonly injection: string | null;
    readonly tokens: number;
  } | null;
}

/** The row of one window record. */
export function windowQuality(w: RelayWindowRecord): RelayWindowQuality {
  // Records journaled before AIR joined the relay carry neither signals nor quality.
  const s = (w as Partial<RelayWindowRecord>).signals;
  const q = (w as Partial<RelayWindowRecord>).quality;
  return {
    window_number: w.window_number,
    kind: w.kind,
    revision_target: w.revision_target,
    preservation: w.verification.preservation,
    repaired: w.verification.repaired.length,
    claims: s ? s.claims.length : null,
    fabrication_count: s ? s.fabrication_count : null,
    distortion_count: s ? s.distortion_count : null,
    repetition_ratio: s ? s.repetition.ratio : null,
    completeness: s ? s.completeness.score : null,
    grounding_pct: s ? s.grounding_pct : null,
    flow_score: s ? s.flow_score : null,
    quality: s ? s.quality : null,
    session_iq: q ? q.state.session_iq : null,
    air: q
      ? {
          mode: q.policy.mode,
          judge: q.judge,
          packet: q.packet,
          injection: q.injection,
          tokens: q.tokens,
        }
      : null,
  };
}

const num = (description: string): JsonObject => ({ type: ['number', 'null'], description });
const count = (description: string): JsonObject => ({
  type: ['integer', 'null'],
  minimum: 0,
  description,
});

/** The OpenAPI component of one row. */
export const RELAY_WINDOW_QUALITY_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    window_number: { type: 'integer', minimum: 1 },
    kind: { enum: ['work', 'revision'] },
    revision_target: { type: ['string', 'null'] },
    preservation: {
      type: 'number',
      description: 'valid prior facts kept / valid prior facts, before repair (CRP-030 §5)',
    },
    repaired: { type: 'integer', minimum: 0, description: 'prior facts verification re-injected' },
    claims: count("claims the DPE found in the window's text"),
    fabrication_count: count(
      'claims asserting a specific value the context does not hold (CRP-018 §1)',
    ),
    distortion_count: count('claims that contradict a context fact'),
    repetition_ratio: num('repeated 6-grams / 6-grams of the window (CRP-018 §1)'),
    completeness: num("the window's coverage of what it was meant to cover, 0–1"),
    grounding_pct: num('context-grounded claims / claims'),
    flow_score: num("how well the window's sentences connect, 0–1"),
    quality: num("the DPE's one score for the window, 0–1"),
    session_iq: num('session IQ after this window, 0–100 (CRP-018 §5.2)'),
    air: {
      oneOf: [
        {
          type: 'object',
          properties: {
            mode: { type: 'string' },
            judge: { type: 'string' },
            packet: {
              oneOf: [{ type: 'object' }, { type: 'null' }],
              description: 'the IAP built from this window (CRP-018 §2.3) and its two extras',
            },
            injection: {
              type: ['string', 'null'],
              description: "the text the next window's prompt carries (null: nothing injected)",
            },
            tokens: { type: 'integer', minimum: 0 },
          },
          required: ['mode', 'judge', 'packet', 'injection', 'tokens'],
        },
        { type: 'null' },
      ],
    },
  },
  required: [
    'window_number',
    'kind',
    'revision_target',
    'preservation',
    'repaired',
    'claims',
    'fabrication_count',
    'distortion_count',
    'repetition_ratio',
    'completeness',
    'grounding_pct',
    'flow_score',
    'quality',
    'session_iq',
    'air',
  ],
};
