import type { AirMode, AirState } from './types.js';

/** The §5 response headers. */
export type AirHeaders = Readonly<Record<string, string>>;

/**
 * CRP-018 §5: `CRP-AIR-Active` (`true` when the loop feeds back: `adaptive` or `aggressive`),
 * `CRP-AIR-Session-IQ` (§5.2 of the last window, rounded to an integer 0–100),
 * `CRP-AIR-IAP-Token-Cost` (tokens of the injection this response reports; 0 when none) and
 * `CRP-AIR-Error-Quarantine-Count` (claims in the session's quarantine list). `off` reports only
 * `CRP-AIR-Active: false`; `passive` reports the signals with `Active: false` and a cost of 0.
 */
export function airHeaders(
  state: AirState,
  injection: { readonly mode: AirMode; readonly tokens: number },
): AirHeaders {
  if (injection.mode === 'off') return { 'CRP-AIR-Active': 'false' };
  const active = injection.mode === 'adaptive' || injection.mode === 'aggressive';
  const cost =
    active && Number.isSafeInteger(injection.tokens) && injection.tokens > 0 ? injection.tokens : 0;
  const headers: Record<string, string> = { 'CRP-AIR-Active': String(active) };
  if (state.session_iq !== null && Number.isFinite(state.session_iq)) {
    headers['CRP-AIR-Session-IQ'] = String(
      Math.min(100, Math.max(0, Math.round(state.session_iq))),
    );
  }
  headers['CRP-AIR-IAP-Token-Cost'] = String(cost);
  headers['CRP-AIR-Error-Quarantine-Count'] = String(state.quarantine.length);
  return headers;
}
