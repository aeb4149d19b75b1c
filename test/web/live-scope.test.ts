import { describe, expect, it } from 'vitest';
import { staleReads } from '../../web/src/api/live-scope.js';

// Query keys as the workbench's views make them (web/src/api/queries.ts, views/evolution/queries.ts).
const SHOWN = {
  board: ['board'],
  proposal: ['proposal', 'p-1'],
  provenance: ['provenance', 'decision.db'],
  artifacts: ['artifacts'],
  journal: ['journal', null, 50],
  receipt: ['receipt', 12],
  trust: ['trust'],
  relaySession: ['relay', 'session', 'rs-1'],
  relayWindow: ['relay', 'window', 'rs-1', 3],
  events: ['evolution', 'events', { order: 'newest' }],
  promotions: ['evolution', 'promotions'],
} as const;

const refetched = (kinds: string[]) => {
  const stale = staleReads(kinds);
  return Object.entries(SHOWN)
    .filter(([, key]) => stale(key))
    .map(([name]) => name)
    .sort();
};

describe('which shown reads a journal entry refetches', () => {
  it('a canon commit: canon reads and the journal, not the relay or evolution views', () => {
    expect(refetched(['canon.commit'])).toEqual(
      ['artifacts', 'board', 'journal', 'proposal', 'provenance'].sort(),
    );
  });

  it('a relay window: the relay view and the journal; a window commit brings canon in', () => {
    expect(refetched(['relay.window'])).toEqual(['journal', 'relaySession', 'relayWindow']);
    expect(refetched(['relay.window', 'canon.commit'])).toContain('board');
  });

  it('evolution entries: the evolution view and the journal', () => {
    expect(refetched(['evolution.event', 'evolution.delivery'])).toEqual([
      'events',
      'journal',
      'promotions',
    ]);
  });

  it('an unknown or redacted kind may move anything but a receipt', () => {
    const all = Object.keys(SHOWN)
      .filter((k) => k !== 'receipt')
      .sort();
    expect(refetched(['redacted'])).toEqual(all);
    expect(refetched(['kernel.verdicts'])).toEqual(all);
    expect(refetched(['constructor.x'])).toEqual(all);
    expect(refetched(['.canon'])).toEqual(all);
  });

  it('no receipt is ever refetched: an appended entry does not change', () => {
    expect(refetched(['canon.commit', 'redacted'])).not.toContain('receipt');
  });
});
