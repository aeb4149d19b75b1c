// Text people and models wrote is shown with its bidirectional controls balanced, so the isolate the
// workbench puts around it closes where the text ends.
import { describe, expect, it } from 'vitest';
import { balancedBidi } from '../../web/src/ui/bidi.js';

const [LRE, RLE, PDF, LRO, RLO] = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E'];
const [LRI, RLI, FSI, PDI] = ['\u2066', '\u2067', '\u2068', '\u2069'];

describe('balancedBidi', () => {
  it('leaves text without controls, and balanced controls, as they are', () => {
    for (const s of ['', 'plain words', `a ${RLO}b${PDF} c`, `${LRI}x${PDI} ${FSI}y${PDI}`]) {
      expect(balancedBidi(s)).toBe(s);
    }
  });

  it('closes what the text leaves open, innermost first', () => {
    expect(balancedBidi(`${RLO}evil`)).toBe(`${RLO}evil${PDF}`);
    expect(balancedBidi(`${RLO}a ${RLI}b`)).toBe(`${RLO}a ${RLI}b${PDI}${PDF}`);
    expect(balancedBidi(`${LRE}${RLE}x`)).toBe(`${LRE}${RLE}x${PDF}${PDF}`);
  });

  it('drops closers with nothing of their kind open', () => {
    expect(balancedBidi(`${PDI}${PDF}a${PDI}`)).toBe('a');
    // A PDF cannot close the isolate around it.
    expect(balancedBidi(`${LRI}a${PDF}`)).toBe(`${LRI}a${PDI}`);
  });

  it('takes a PDI as closing the embeddings inside its isolate too', () => {
    expect(balancedBidi(`${RLI}${LRO}a${PDI}b`)).toBe(`${RLI}${LRO}a${PDI}b`);
    expect(balancedBidi(`${LRO}${RLI}a${PDI}`)).toBe(`${LRO}${RLI}a${PDI}${PDF}`);
  });
});
