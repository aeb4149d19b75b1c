import { describe, expect, it } from 'vitest';
import { AIR_LIMITS, airStep, initialAirState } from '../../src/air/index.js';
import type { ContextFact } from '../../src/dpe/index.js';
import { claim, healthy, input } from './fixtures.js';

// A long session: more facts than AIR reads a window's items of, the early ones all used by
// grounded claims, the one that answers the window's unsupported claim late in the state.
const N = AIR_LIMITS.windowItems + 88;
const LATE = N - 50;
const context: ContextFact[] = Array.from({ length: N }, (_, i) => ({
  id: `f${i}`,
  statement:
    i === LATE
      ? 'The billing ledger reconciles invoices nightly in Postgres.'
      : `Component ${i} stores its state in the cluster store.`,
  source: 'cso',
}));
const used = Array.from({ length: AIR_LIMITS.windowItems }, (_, i) => `f${i}`);

describe('fresh material past the facts a session has used', () => {
  it('offers an unused fact that comes after as many used ones as AIR reads items', () => {
    const signals = {
      ...healthy(),
      grounding_pct: 0,
      unverifiable_count: 1,
      claims: [claim(0, 'The billing ledger reconciles invoices hourly.', 'UNVERIFIABLE')],
    };
    const step = airStep({ ...initialAirState(), used_fact_ids: used }, input(signals, context), {
      mode: 'adaptive',
      iap_budget: 512,
    });
    expect(step.packet!.targeted_retrieval?.fact_ids).toEqual([`f${LATE}`]);
    expect(step.injection).toContain('The billing ledger reconciles invoices nightly');
  });
});
