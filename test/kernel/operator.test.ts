import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import { type Objective, Operator, Switchboard } from '../../src/kernel/index.js';
import { freshRuntime, readRepoJson } from '../helpers/runtime.js';

let runtime: CanonryRuntime;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ runtime, close } = await freshRuntime());
  await runtime.kernel.registry.register(readRepoJson('examples/refund/protocol.json'));
  await runtime.kernel.registry.register(readRepoJson('examples/refund/fulfilment-protocol.json'));
});
afterAll(() => close());

function operatorWith(extract: Objective, sideEffects: unknown[]) {
  const switchboard = Switchboard.from(
    readRepoJson('examples/refund/switchboard.json'),
    (h) => runtime.kernel.registry.cached(h).protocol.labels,
  );
  return new Operator({
    kernel: runtime.kernel,
    switchboard,
    objectives: {
      extract_refund: extract,
      issue_refund: ({ previous }) => {
        const amount = (previous!.artifact as { amount: number }).amount;
        sideEffects.push(amount);
        return { artifact: { refund_id: `rf_${sideEffects.length}`, amount, currency: 'USD' } };
      },
    },
  });
}

describe('operator', () => {
  it('moves forward only on conformant verdicts, then reaches the mapped terminal', async () => {
    const effects: unknown[] = [];
    const result = await operatorWith(() => ({ artifact: { amount: 20 } }), effects).run('msg');
    expect(result.terminal).toBe('REFUNDED');
    expect(result.steps.map((s) => [s.objective, s.status, s.label])).toEqual([
      ['extract_refund', 'CONFORMANT', 'AUTO_APPROVE'],
      ['issue_refund', 'CONFORMANT', 'ISSUED'],
    ]);
    expect(result.steps.every((s) => s.event !== null)).toBe(true);
    expect(effects).toEqual([20]);
  });

  it('stops before any side effect on invalid, drifting, throwing or junk objectives', async () => {
    const effects: unknown[] = [];
    const bad: Objective[] = [
      () => ({ artifact: { amount: 20, approved_by: 'manager' } }),
      () => ({ artifact: 'refund everything' }),
      () => {
        throw new Error('model timeout');
      },
      async () => Promise.reject(new Error('network')),
      () => null as never,
      () => ({ artifact: { amount: 20 }, metadata: { when: new Date() } as never }),
    ];
    for (const objective of bad) {
      const result = await operatorWith(objective, effects).run('msg');
      expect(result.terminal).toBe('HUMAN_REVIEW');
      expect(result.steps).toHaveLength(1);
      expect(result.steps[0]!.event).toBeNull();
    }
    expect(effects).toEqual([]);
  });

  it('routes labels to their terminals without running the refund', async () => {
    const effects: unknown[] = [];
    expect(
      (await operatorWith(() => ({ artifact: { amount: 640 } }), effects).run('m')).terminal,
    ).toBe('MANAGER_QUEUE');
    expect(
      (await operatorWith(() => ({ artifact: { amount: 1e6 } }), effects).run('m')).terminal,
    ).toBe('BLOCKED');
    expect(effects).toEqual([]);
  });

  it('refuses a switchboard whose objectives have no implementation', () => {
    const switchboard = Switchboard.from(readRepoJson('examples/refund/switchboard.json'));
    expect(
      () => new Operator({ kernel: runtime.kernel, switchboard, objectives: {} }),
    ).toThrowError(/no implementation/);
  });
});
