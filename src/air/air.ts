import { aggregate } from './aggregate.js';
import { type FittedPacket, fitToBudget } from './budget.js';
import { candidatesFor } from './candidates.js';
import { detect } from './detect.js';
import { type AirHeaders, airHeaders } from './headers.js';
import { type AirInput, checkAirInput } from './input.js';
import { type AirThresholds, sizesFor, thresholdsFor } from './thresholds.js';
import type { AirPacket, AirPolicy, AirState, Detection } from './types.js';

/** What AIR makes of one window. */
export interface AirStep {
  readonly policy: AirPolicy;
  /** The state after this window (unchanged when `off`): journal it with the window. */
  readonly state: AirState;
  readonly detection: Detection;
  /** The IAP for the next window, held to the budget; null when `off` or at the loop's bound. */
  readonly packet: AirPacket | null;
  /**
   * The text to add to the next window's prompt: null when nothing is injected (`off`,
   * `passive`, the bound, or nothing triggered). `passive` builds the packet for the record only.
   */
  readonly injection: string | null;
  /** Tokens of `injection` (0 when null). */
  readonly tokens: number;
  /** What the budget left out (recorded even in `passive`). */
  readonly dropped: FittedPacket['dropped'];
  readonly headers: AirHeaders;
}

/**
 * The Relay Intelligence Layer for one window (CRP-018 §2.1): Signal Aggregator → Pattern Detector
 * → IAP Builder, then the budget. Pure and deterministic: the same state, input and policy give the
 * same result byte for byte. `thresholds` defaults to the mode's (`thresholdsFor`).
 */
export function airStep(
  state: AirState,
  input: AirInput,
  policy: AirPolicy,
  thresholds: AirThresholds = thresholdsFor(policy.mode),
): AirStep {
  if (policy.mode === 'off') {
    const detection: Detection = { components: [], maintenance: false, bounded: false };
    return {
      policy,
      state,
      detection,
      packet: null,
      injection: null,
      tokens: 0,
      dropped: {},
      headers: airHeaders(state, { mode: 'off', tokens: 0 }),
    };
  }
  checkAirInput(input);
  const next = aggregate(state, input, thresholds.max_windows);
  const detection = detect(input.signals, next, policy.mode, thresholds);
  if (detection.bounded) {
    return {
      policy,
      state: next,
      detection,
      packet: null,
      injection: null,
      tokens: 0,
      dropped: {},
      headers: airHeaders(next, { mode: policy.mode, tokens: 0 }),
    };
  }
  const candidates = candidatesFor(input, next, detection, policy.mode, sizesFor(policy.mode));
  const fitted = fitToBudget(candidates, policy.iap_budget);
  const injected = policy.mode !== 'passive' && fitted.text.length > 0;
  const tokens = injected ? fitted.tokens : 0;
  return {
    policy,
    state: next,
    detection,
    packet: fitted.packet,
    injection: injected ? fitted.text : null,
    tokens,
    dropped: fitted.dropped,
    headers: airHeaders(next, { mode: policy.mode, tokens }),
  };
}
