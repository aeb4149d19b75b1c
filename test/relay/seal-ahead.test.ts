// Sealing a state whose prior was read back from rows (not sealed by this process) checks and
// hashes every item: `sealAhead` does that part first, in turns of the event loop. It must decide
// nothing: the same seal, and a bad item refused by the seal itself, naming it as before.
import { describe, expect, it } from 'vitest';
import { isCheckedItem } from '../../src/relay/cso-schema.js';
import { sealCso } from '../../src/relay/cso-seal.js';
import { sealAhead } from '../../src/relay/seal-ahead.js';
import type { CognitiveStateObject, UnsealedCso } from '../../src/relay/types.js';
import { decision, fact, GENESIS, seal, unsealed } from './cso-fixtures.js';

/** A sealed window-1 state of `n` facts and n/2 decisions, as another process left it (fresh objects). */
function coldPrior(n: number): CognitiveStateObject {
  const facts = Array.from({ length: n }, (_, i) =>
    fact(`f${i}`, `the figure of item ${i} is ${i * 7}`),
  );
  const decisions = Array.from({ length: n / 2 }, (_, i) =>
    decision(`d${i}`, `act on items ${i} and ${i + 1}`, [`f${i}`, `f${i + 1}`]),
  );
  const sealed = sealCso(unsealed(1, GENESIS, { facts, decisions }), seal);
  return JSON.parse(JSON.stringify(sealed)) as CognitiveStateObject;
}

/** Window 2 over `prior`: its items carried as they are, one fact added. */
function next(prior: CognitiveStateObject, extra = fact('new', 'a fact of window 2')): UnsealedCso {
  return unsealed(2, prior.cso_hmac, {
    facts: [...prior.established_facts, extra],
    decisions: [...prior.decisions],
  });
}

const lists = ['established_facts', 'decisions', 'dependency_graph'] as const;

describe('sealAhead', () => {
  it('checks every item of a state over a cold prior ahead, and the seal is the one made without it', async () => {
    const prior = coldPrior(400);
    const ahead = next(prior);
    expect(lists.some((l) => ahead[l].some((item) => isCheckedItem(l, item)))).toBe(false);
    await sealAhead(prior, ahead);
    for (const l of lists) {
      expect(ahead[l].length).toBeGreaterThan(0);
      for (const item of ahead[l]) expect(isCheckedItem(l, item)).toBe(true);
    }
    const plain = next(coldPrior(400));
    expect(plain.established_facts[0]).not.toBe(ahead.established_facts[0]);
    expect(sealCso(ahead, seal)).toEqual(sealCso(plain, seal));
  });

  it('leaves a bad item for the seal to refuse, with the same path', async () => {
    const bad = { ...fact('bad', 'a fact'), confidence: 'high' } as never;
    const withAhead = next(coldPrior(40), bad);
    await sealAhead(coldPrior(40), withAhead);
    const without = next(coldPrior(40), bad);
    const refusal = (u: UnsealedCso) => {
      try {
        sealCso(u, seal);
      } catch (err) {
        return { code: (err as { code: string }).code, message: (err as Error).message };
      }
      return null;
    };
    const expected = refusal(without);
    expect(expected?.code).toBe('INVALID_ARGUMENT');
    expect(expected?.message).toContain('/established_facts/40');
    expect(refusal(withAhead)).toEqual(expected);
  });

  it('does nothing over no prior', async () => {
    const first = unsealed(1, GENESIS, { facts: [fact('x', 'a fact of its own')] });
    await sealAhead(null, first);
    expect(isCheckedItem('established_facts', first.established_facts[0]!)).toBe(false);
  });
});
