import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkContribution } from '../../src/relay/contribution.js';
import {
  Candidates,
  captures,
  comparable,
  type Extracted,
  extractFromText,
  mergeExtracted,
  normaliseStatement,
  sentencesOf,
} from '../../src/relay/extract/index.js';
import type { Contribution, DecisionContribution } from '../../src/relay/types.js';

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

  it('the lazy candidates capture exactly what preparing every item would', () => {
    // Words that fold, case-map or normalise into one another (NFKC ligatures and full-width
    // forms, İ whose lower case is longer, ß), stop words, punctuation the normal form trims.
    const word = fc.constantFrom(
      'PostgreSQL',
      'postgresql',
      'ＰｏｓｔｇｒｅＳＱＬ',
      'ﬁle',
      'file',
      'İstanbul',
      'istanbul',
      'Straße',
      'strasse',
      'v3.5',
      "don't",
      'lock-in',
      'the',
      'and',
      'is',
      'fast',
      'etcd',
      '42',
      '４２',
    );
    const text = fc
      .array(
        fc.oneof(
          word,
          fc.constantFrom(' ', '  ', '\n', '.', '"', ', ', '*'),
          fc.string({ maxLength: 4 }),
        ),
        {
          maxLength: 12,
        },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(
        fc.array(text, { maxLength: 8 }),
        fc.array(text, { maxLength: 6 }),
        (items, claims) => {
          const candidates = new Candidates(items);
          for (const claim of claims) {
            const c = comparable(claim);
            const from = items.length >> 1;
            expect(candidates.capture(c)).toBe(items.some((t) => captures(comparable(t), c)));
            expect(candidates.capture(c, from)).toBe(
              items.slice(from).some((t) => captures(comparable(t), c)),
            );
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('merging gives what comparing every item of the contribution gives', () => {
    // The rule as mergeExtracted states it, with every item prepared up front.
    const naive = (c: Contribution, found: Extracted) => {
      const text = (d: DecisionContribution) =>
        [d.choice, d.rationale, ...(d.alternatives ?? [])].join(' ');
      const items = [...c.facts.map((f) => f.statement), ...c.decisions.map(text)].map(comparable);
      const decisionItems = c.decisions.map((d) => comparable(text(d)));
      const uncaptured = found.claims.filter(
        (claim) => !items.some((i) => captures(i, comparable(claim))),
      );
      const open = new Set(uncaptured.map(normaliseStatement));
      const factKeys = new Set(c.facts.map((f) => normaliseStatement(f.statement)));
      const facts = [...c.facts];
      for (const f of found.facts) {
        const key = normaliseStatement(f.statement);
        if (!open.has(key) || factKeys.has(key)) continue;
        factKeys.add(key);
        facts.push(f);
      }
      const choices = new Set(c.decisions.map((d) => normaliseStatement(d.choice)));
      const decisions = [...c.decisions];
      for (const d of found.decisions) {
        const key = normaliseStatement(d.choice);
        if (choices.has(key) || decisionItems.some((i) => captures(i, comparable(text(d)))))
          continue;
        choices.add(key);
        decisions.push(d);
      }
      return { uncaptured, facts, decisions };
    };
    const word = fc.constantFrom(
      'Postgres',
      'postgres.',
      'ＰＯＳＴＧＲＥＳ',
      'etcd',
      'is',
      'fast',
      'the',
      '42',
      'ﬁle',
      'file',
    );
    const sentence = fc.array(word, { minLength: 1, maxLength: 5 }).map((w) => w.join(' '));
    const decision = fc.record({ choice: sentence, rationale: sentence });
    fc.assert(
      fc.property(
        fc.array(sentence, { maxLength: 6 }),
        fc.array(decision, { maxLength: 3 }),
        fc.array(sentence, { maxLength: 6 }),
        fc.array(decision, { maxLength: 3 }),
        (statements, modelDecisions, claims, foundDecisions) => {
          const c = checkContribution({
            facts: statements.map((statement) => ({ statement })),
            decisions: modelDecisions,
          });
          const found: Extracted = {
            claims,
            // Facts are claims (some twice over), as the extractor makes them.
            facts: [...claims, ...claims.slice(0, 2)].map((statement) => ({
              statement,
              provenance: 'CONVERSATION',
            })),
            decisions: foundDecisions,
            open_questions: [],
            truncated: false,
          };
          const merged = mergeExtracted(c, found);
          const expected = naive(c, found);
          expect(merged.uncaptured).toEqual(expected.uncaptured);
          expect(merged.contribution.facts).toEqual(expected.facts);
          expect(merged.contribution.decisions).toEqual(expected.decisions);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
