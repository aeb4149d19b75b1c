// The DPE on a thread of its own: the same signals as the engine on the caller's thread, window by
// window (several in flight at once included), the same error for input the engine refuses, while
// the caller's event loop keeps turning; a thread that is stopped with windows in hand fails none.
import { afterAll, describe, expect, it } from 'vitest';
import {
  analyseWindow,
  type ContextFact,
  type DpeInput,
  deterministicJudge,
  stopJudgeThread,
  threadedJudge,
} from '../../src/dpe/index.js';

const FACTS: ContextFact[] = Array.from({ length: 300 }, (_, i) => ({
  id: `f${i}`,
  statement: `Service ${i} in region ${i % 7} handles ${100 + i} requests per second at p99 ${20 + (i % 40)} ms.`,
  source: i % 5 === 0 ? 'tool' : 'cso',
}));

/** A window that restates, distorts and invents, so every stage of the engine has work to do. */
function windowOf(n: number, sentences: number): DpeInput {
  const text = Array.from({ length: sentences }, (_, i) => {
    const f = FACTS[(i * 13 + n) % FACTS.length]!;
    if (i % 5 === 0) return f.statement.replace(/\d+ requests/, `${i + 7} requests`);
    if (i % 7 === 0) return `The cache layer ${i} serves ${i * 3} lookups every minute.`;
    return f.statement;
  }).join(' ');
  return {
    window_number: n,
    text,
    context: FACTS,
    remaining: ['region 3', 'the cache layer'],
    earlier: [windowOf0(n)],
  };
}
const windowOf0 = (n: number) => `Window ${n - 1} restated ${FACTS[n]!.statement}`;

afterAll(() => stopJudgeThread());

describe('the DPE on its own thread', () => {
  it('gives the signals the engine gives on the caller’s thread, for windows in flight together', async () => {
    const judge = threadedJudge();
    expect(judge.name).toBe(deterministicJudge().name);
    const inputs = [2, 3, 4, 5, 6].map((n) => windowOf(n, 40 * n));
    const threaded = await Promise.all(inputs.map((input) => judge.judge(input)));
    expect(threaded).toEqual(inputs.map((input) => analyseWindow(input)));
    // Options travel with the window: lowered limits give the same signals there as here.
    const limited = await threadedJudge({ limits: { maxClaims: 20 } }).judge(inputs[4]!);
    expect(limited).toEqual(analyseWindow(inputs[4]!, { limits: { maxClaims: 20 } }));
    expect(limited).not.toEqual(threaded[4]);
  });

  it("keeps the caller's event loop turning while a window is analysed", async () => {
    const input = windowOf(9, 1_500);
    let turns = 0;
    const turning = setInterval(() => turns++, 0);
    try {
      // On the caller's thread the engine holds the loop from start to end: no turn in between.
      turns = 0;
      await deterministicJudge().judge(input);
      expect(turns).toBe(0);
      turns = 0;
      await threadedJudge().judge(input);
      expect(turns).toBeGreaterThan(0);
    } finally {
      clearInterval(turning);
    }
  });

  it('refuses what the engine refuses, with its error', async () => {
    const bad = { ...windowOf(2, 3), text: 42 } as unknown as DpeInput;
    let here: unknown;
    try {
      analyseWindow(bad);
    } catch (err) {
      here = err;
    }
    expect(here).toBeInstanceOf(Error);
    await expect(threadedJudge().judge(bad)).rejects.toThrow((here as Error).message);
  });

  it('fails no window when its thread is stopped with windows in hand, and starts anew', async () => {
    const judge = threadedJudge();
    const inputs = [3, 4, 5].map((n) => windowOf(n, 300));
    const pending = inputs.map((input) => judge.judge(input));
    await stopJudgeThread();
    expect(await Promise.all(pending)).toEqual(inputs.map((input) => analyseWindow(input)));
    const again = windowOf(7, 50);
    expect(await judge.judge(again)).toEqual(analyseWindow(again));
  });
});
