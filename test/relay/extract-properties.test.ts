import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkContribution } from '../../src/relay/contribution.js';
import { extractFromText, mergeExtracted, sentencesOf } from '../../src/relay/extract/index.js';
import type { Contribution } from '../../src/relay/types.js';

const EMPTY: Contribution = checkContribution({});

/** Text made of the pieces the extractor treats specially, in random order. */
const prose = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        'We chose ',
        ' because ',
        ', rejecting ',
        ' over ',
        ' rather than ',
        'Decision: ',
        'Rationale: ',
        'Alternatives: ',
        '**',
        '`',
        '``',
        '```\n',
        '\n- ',
        '\n1. ',
        '\n# ',
        '\n\n',
        '. ',
        '? ',
        '! ',
        'e.g. ',
        'U.S. ',
        'v3.5 ',
        '(',
        ')',
        ' and ',
        ', ',
        ': ',
      ),
      fc.string({ maxLength: 12 }),
      fc.constantFrom('PostgreSQL', 'the team', 'it is fast', 'MongoDB', 'etcd', 'We'),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));

describe('extractor properties', () => {
  it('never throws, and what it finds always passes checkContribution once merged', () => {
    fc.assert(
      fc.property(fc.oneof(prose, fc.string({ unit: 'binary', maxLength: 300 })), (text) => {
        const found = extractFromText(text, { window_number: 7 });
        const merged = mergeExtracted(EMPTY, found);
        expect(checkContribution(merged.contribution)).toEqual(merged.contribution);
        expect(merged.uncaptured).toEqual(found.claims);
        for (const d of found.decisions) {
          expect(d.choice.trim()).not.toBe('');
          expect(d.rationale.trim()).not.toBe('');
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it('segmentation loses and adds no characters but white space', () => {
    const squeeze = (s: string) => s.replace(/\s+/g, '');
    fc.assert(
      fc.property(prose, (text) => {
        expect(squeeze(sentencesOf(text).join(' '))).toBe(squeeze(text));
      }),
      { numRuns: 1_000 },
    );
  });
});
