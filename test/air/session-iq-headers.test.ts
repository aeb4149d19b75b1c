import { describe, expect, it } from 'vitest';
import {
  airHeaders,
  airStep,
  cumulativeRepetition,
  DEFAULT_AIR_POLICY,
  initialAirState,
  sessionIq,
} from '../../src/air/index.js';
import type { WindowSignals } from '../../src/dpe/index.js';
import { claim, grounded, healthy, input } from './fixtures.js';

describe('session IQ (§5.2)', () => {
  it('is the §5.2 formula', () => {
    expect(
      sessionIq({
        cumulative_repetition_ratio: 0.02,
        completeness_score: 0.76,
        fabrication_rate: 0.1,
        flow_score: 0.7,
      }),
    ).toBeCloseTo(100 * (0.98 * 0.25 + 0.76 * 0.35 + 0.9 * 0.25 + 0.7 * 0.15), 10);
    expect(
      sessionIq({
        cumulative_repetition_ratio: 0,
        completeness_score: 1,
        fabrication_rate: 0,
        flow_score: 1,
      }),
    ).toBe(100);
    expect(
      sessionIq({
        cumulative_repetition_ratio: 1,
        completeness_score: 0,
        fabrication_rate: 1,
        flow_score: 0,
      }),
    ).toBe(0);
  });

  it('is computed per window with the mean repetition so far and the window fabrication rate', () => {
    const w1: WindowSignals = {
      ...healthy(1),
      repetition: { ratio: 0.04, ngrams: [], duplicate_sentences: [], duplicate_ratio: 0 },
      completeness: { score: 0.5, covered: [], uncovered: [] },
      flow_score: 0.6,
    };
    const s1 = airStep(initialAirState(), input(w1), DEFAULT_AIR_POLICY).state;
    expect(s1.session_iq).toBeCloseTo(100 * (0.96 * 0.25 + 0.5 * 0.35 + 1 * 0.25 + 0.6 * 0.15), 10);

    const w2: WindowSignals = {
      ...healthy(2),
      claims: [grounded(0), grounded(1), grounded(2), claim(3, 'etcd stores 90 TB.', 'PARAMETRIC')],
      fabrication_count: 1,
      repetition: { ratio: 0.02, ngrams: [], duplicate_sentences: [], duplicate_ratio: 0 },
      completeness: { score: 0.8, covered: [], uncovered: [] },
      flow_score: 0.9,
    };
    const step = airStep(s1, input(w2), DEFAULT_AIR_POLICY);
    expect(cumulativeRepetition(step.state)).toBeCloseTo(0.03, 12);
    const iq = 100 * (0.97 * 0.25 + 0.8 * 0.35 + 0.75 * 0.25 + 0.9 * 0.15);
    expect(step.state.session_iq).toBeCloseTo(iq, 10);
    expect(step.headers['CRP-AIR-Session-IQ']).toBe(String(Math.round(iq)));
  });
});

describe('the §5 headers', () => {
  it('formats each header', () => {
    const state = { ...initialAirState(), session_iq: 73.6 };
    expect(airHeaders(state, { mode: 'adaptive', tokens: 312 })).toEqual({
      'CRP-AIR-Active': 'true',
      'CRP-AIR-Session-IQ': '74',
      'CRP-AIR-IAP-Token-Cost': '312',
      'CRP-AIR-Error-Quarantine-Count': '0',
    });
    expect(airHeaders(state, { mode: 'aggressive', tokens: 0 })['CRP-AIR-Active']).toBe('true');
    expect(airHeaders(state, { mode: 'passive', tokens: 312 })).toMatchObject({
      'CRP-AIR-Active': 'false',
      'CRP-AIR-IAP-Token-Cost': '0',
    });
    expect(airHeaders(state, { mode: 'off', tokens: 5 })).toEqual({ 'CRP-AIR-Active': 'false' });
    // No IQ before the first window.
    expect(airHeaders(initialAirState(), { mode: 'adaptive', tokens: 0 })).not.toHaveProperty(
      'CRP-AIR-Session-IQ',
    );
  });

  it('reports an integer IQ 0–100 and the quarantine count after real windows', () => {
    let state = initialAirState();
    for (let w = 1; w <= 3; w++) {
      const s: WindowSignals = {
        ...healthy(w),
        distortion_count: 1,
        contradictions: [
          {
            kind: 'distortion',
            contradiction: 'number',
            claim_index: 0,
            claim: `etcd keeps ${w} copies.`,
            fact_id: 'raft',
            fact: 'etcd keeps 3 copies.',
            claimed: String(w),
            expected: '3',
            explanation: '',
          },
        ],
      };
      const step = airStep(state, input(s), DEFAULT_AIR_POLICY);
      state = step.state;
      expect(step.headers['CRP-AIR-Session-IQ']).toMatch(/^(100|[1-9]?[0-9])$/);
      expect(step.headers['CRP-AIR-Error-Quarantine-Count']).toBe(String(w));
      expect(Number(step.headers['CRP-AIR-IAP-Token-Cost'])).toBe(step.tokens);
      expect(step.tokens).toBeGreaterThan(0);
    }
  });
});
