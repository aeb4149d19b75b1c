import { describe, expect, it } from 'vitest';
import {
  type AirMode,
  type AirState,
  airStep,
  DEFAULT_AIR_POLICY,
  initialAirState,
} from '../../src/air/index.js';
import type { WindowSignals } from '../../src/dpe/index.js';
import { claim, grounded, healthy, input } from './fixtures.js';

/** A poor window: a distortion, low completeness and flow, unverifiable statistics. */
function poor(window_number: number): WindowSignals {
  const base = healthy(window_number);
  return {
    ...base,
    claims: [
      grounded(0),
      claim(1, `etcd handles ${window_number}0,000 writes per second.`, 'UNVERIFIABLE'),
      claim(2, `etcd is ${window_number}x faster than Consul.`, 'UNVERIFIABLE', 'comparison'),
      claim(3, 'Most clusters lose data every year.', 'UNVERIFIABLE'),
    ],
    contradictions: [
      {
        kind: 'distortion',
        contradiction: 'entity',
        claim_index: 1,
        claim: `Kubernetes ${window_number} uses Consul as its store.`,
        fact_id: 'etcd',
        fact: 'Kubernetes uses etcd as its distributed key-value store.',
        claimed: 'Consul',
        expected: 'etcd',
        explanation: '',
      },
    ],
    distortion_count: 1,
    grounding_pct: 0.25,
    unverifiable_count: 3,
    completeness: {
      score: 0.4,
      covered: [`part ${window_number}`],
      uncovered: ['leader election'],
    },
    flow_score: 0.3,
    quality: 0.4,
  };
}

function session(mode: AirMode, windows: readonly WindowSignals[]) {
  let state: AirState = initialAirState();
  return windows.map((w) => {
    const step = airStep(state, input(w), { mode, iap_budget: 512 });
    state = step.state;
    return step;
  });
}

describe('air-mode (§6.1)', () => {
  it('passive computes and records the packet but injects nothing', () => {
    const [adaptive] = session('adaptive', [poor(1)]);
    const [passive] = session('passive', [poor(1)]);
    expect(passive!.injection).toBeNull();
    expect(passive!.tokens).toBe(0);
    expect(passive!.packet).toEqual(adaptive!.packet);
    expect(passive!.state).toEqual(adaptive!.state);
    expect(passive!.headers).toEqual({
      'CRP-AIR-Active': 'false',
      'CRP-AIR-Session-IQ': adaptive!.headers['CRP-AIR-Session-IQ'],
      'CRP-AIR-IAP-Token-Cost': '0',
      'CRP-AIR-Error-Quarantine-Count': '1',
    });
    expect(adaptive!.injection).not.toBeNull();
    expect(adaptive!.headers['CRP-AIR-Active']).toBe('true');
  });

  it('off does nothing: the state is unchanged and only Active: false is reported', () => {
    const state = initialAirState();
    const step = airStep(state, input(poor(1)), { mode: 'off', iap_budget: 512 });
    expect(step.state).toBe(state);
    expect(step.packet).toBeNull();
    expect(step.injection).toBeNull();
    expect(step.headers).toEqual({ 'CRP-AIR-Active': 'false' });
  });

  it('maintenance mode above 0.85 keeps only the quarantine', () => {
    const [first] = session('adaptive', [poor(1)]);
    const good = { ...poor(2), quality: 0.86 };
    const step = airStep(first!.state, input(good), DEFAULT_AIR_POLICY);
    expect(step.detection.maintenance).toBe(true);
    expect(step.detection.components).toEqual(['error_quarantine']);
    expect(step.packet!.iap.error_quarantine.map((q) => q.original_claim)).toEqual([
      'Kubernetes 1 uses Consul as its store.',
      'Kubernetes 2 uses Consul as its store.',
    ]);
    expect(step.packet!.iap.goal_residual).toBeNull();
    expect(step.packet!.iap.reasoning_scaffolds).toEqual([]);
    expect(step.injection).toMatch(/ERROR QUARANTINE/);
    expect(step.injection).not.toMatch(/GOAL|REASONING|ESTABLISHED|FLOW|VOCABULARY/);
    const atThreshold = airStep(
      first!.state,
      input({ ...poor(2), quality: 0.85 }),
      DEFAULT_AIR_POLICY,
    );
    expect(atThreshold.detection.maintenance).toBe(false);
  });

  it('the loop is bounded at 5 windows, then rests one window and starts again (§3.3)', () => {
    const steps = session('adaptive', [1, 2, 3, 4, 5, 6, 7].map(poor));
    expect(steps.map((s) => s.state.loop_position)).toEqual([1, 2, 3, 4, 5, 1, 2]);
    expect(steps.map((s) => s.injection !== null)).toEqual([
      true,
      true,
      true,
      true,
      false,
      true,
      true,
    ]);
    expect(steps[4]!.detection.bounded).toBe(true);
    expect(steps[4]!.packet).toBeNull();
    expect(steps[4]!.headers['CRP-AIR-IAP-Token-Cost']).toBe('0');
    // The state carries through the bound: the next loop's first packet still quarantines window 1.
    expect(steps[5]!.packet!.iap.error_quarantine[0]!.original_claim).toBe(
      'Kubernetes 1 uses Consul as its store.',
    );
    expect(steps[5]!.packet!.iap.window_source).toBe(6);
  });

  it('is deterministic: the same session gives the same bytes', () => {
    const a = session('aggressive', [1, 2, 3].map(poor));
    const b = session('aggressive', [1, 2, 3].map(poor));
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it('aggressive carries more than adaptive given room', () => {
    const windows = [1, 2, 3, 4].map(poor);
    const adaptive = session('adaptive', windows).at(-1)!;
    let state = initialAirState();
    let last = airStep(state, input(windows[0]!), { mode: 'aggressive', iap_budget: 4_096 });
    for (const w of windows.slice(1)) {
      state = last.state;
      last = airStep(state, input(w), { mode: 'aggressive', iap_budget: 4_096 });
    }
    const roomyAdaptive = (() => {
      let s = initialAirState();
      let l = airStep(s, input(windows[0]!), { mode: 'adaptive', iap_budget: 4_096 });
      for (const w of windows.slice(1)) {
        s = l.state;
        l = airStep(s, input(w), { mode: 'adaptive', iap_budget: 4_096 });
      }
      return l;
    })();
    expect(last.tokens).toBeGreaterThan(roomyAdaptive.tokens);
    expect(adaptive.tokens).toBeLessThanOrEqual(512);
  });
});
