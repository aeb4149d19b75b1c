// Long synchronous work in turns: `nextTurn` ends the turn (I/O and immediates queued before it run
// first, which a chain of settled promises never lets happen), and `TurnPacer.pace` ends it only
// once its budget is spent.
import { describe, expect, it } from 'vitest';
import { nextTurn, TurnPacer } from '../../src/core/index.js';

describe('nextTurn', () => {
  it('lets work queued for the event loop run before it resolves; settled awaits do not', async () => {
    const ran: string[] = [];
    setImmediate(() => ran.push('immediate'));
    for (let i = 0; i < 100; i++) await Promise.resolve();
    expect(ran).toEqual([]);
    await nextTurn();
    expect(ran).toEqual(['immediate']);
  });
});

describe('TurnPacer', () => {
  it('does not yield within its budget', async () => {
    const pacer = new TurnPacer(Number.POSITIVE_INFINITY);
    const ran: string[] = [];
    setImmediate(() => ran.push('immediate'));
    for (let i = 0; i < 50; i++) expect(pacer.pace()).toBeUndefined();
    await Promise.resolve();
    expect(ran).toEqual([]);
  });

  it('yields a turn once the budget is spent', async () => {
    const pacer = new TurnPacer(0);
    const ran: string[] = [];
    setImmediate(() => ran.push('immediate'));
    const turn = pacer.pace();
    expect(turn).toBeInstanceOf(Promise);
    await turn;
    expect(ran).toEqual(['immediate']);
  });
});
