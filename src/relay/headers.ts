import { CanonryError } from '../core/index.js';
import { DependencyIndex } from './graph.js';
import { isRelayId } from './limits.js';
import type { CognitiveStateObject, UnsealedCso, Verification } from './types.js';

/** The §10 headers of one relayed window. */
export type RelayHeaders = Readonly<Record<string, string>>;

/**
 * The §5.3, §6.4 and §10 headers. Preservation has two decimals, rounded DOWN so a relay that
 * dropped anything never shows 1.00, and `; repaired=N` when verification re-injected facts.
 * The revision target is a relay id (a header-safe charset) or INVALID_ARGUMENT.
 */
export function relayHeaders(
  cso: CognitiveStateObject | UnsealedCso,
  verification: Pick<Verification, 'preservation' | 'repaired'>,
  revisions: { readonly count: number; readonly target?: string },
): RelayHeaders {
  const p = verification.preservation;
  if (!(p >= 0 && p <= 1)) throw new CanonryError('INVALID_ARGUMENT', 'preservation is in [0, 1]');
  if (!Number.isInteger(revisions.count) || revisions.count < 0) {
    throw new CanonryError('INVALID_ARGUMENT', 'the revision count is a non-negative integer');
  }
  const shown = (Math.floor(p * 100 + 1e-9) / 100).toFixed(2);
  const repaired = verification.repaired.length;
  const headers: Record<string, string> = {
    'CRP-Relay-Preservation': repaired > 0 ? `${shown}; repaired=${repaired}` : shown,
    'CRP-Relay-CSO-Facts': String(cso.established_facts.length),
    'CRP-Relay-CSO-Decisions': String(cso.decisions.length),
    'CRP-Relay-Dependency-Depth': String(DependencyIndex.of(cso).depth()),
    'CRP-Relay-Revisions': String(revisions.count),
  };
  if (revisions.target !== undefined) {
    if (!isRelayId(revisions.target)) {
      throw new CanonryError('INVALID_ARGUMENT', 'the revision target is not a relay id');
    }
    headers['CRP-Relay-Revision-Target'] = revisions.target;
  }
  return headers;
}
