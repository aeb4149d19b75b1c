import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ContentHash, canonicalize, contentHash } from '../../src/core/index.js';
import { buildEntry, rowHash } from '../../src/journal/entry-hash.js';
import { checkInput } from '../../src/journal/entry-input.js';
import type { EntryRow } from '../../src/journal/entry-row.js';
import { canonicalBody, entryHash, withoutHash } from '../../src/journal/index.js';

const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 });
const nullable = fc.option(text, { nil: null });

describe('journal entry encoding', () => {
  it('hashes exactly the RFC 8785 form of the entry, from stored rows too', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 3 }),
        fc.jsonValue({ maxDepth: 2 }),
        text,
        nullable,
        nullable,
        fc.integer({ min: 1, max: 2 ** 40 }),
        fc.constantFrom('test.a', 'canon.commit', 'kernel.verdict'),
        (body, authority, actor, correlation, key, seq, kind) => {
          const input = checkInput({
            kind,
            body,
            actor,
            authority,
            correlation_id: correlation,
            idempotency_key: key,
            receipt: { warnings: ['w'], checks: [{ name: 'x', result: 'pass' }] },
          });
          const prev = contentHash({ prev: seq }) as ContentHash;
          const { entry, params } = buildEntry('p-1', seq, prev, '2026-11-30T00:00:00.000Z', input);
          expect(entry.hash).toBe(entryHash(withoutHash(entry)));
          // The body's canonical text, as appended and for an entry this process did not build.
          expect(canonicalBody(entry)).toBe(canonicalize(body));
          expect(canonicalBody({ ...entry })).toBe(canonicalize(body));
          expect(entry.hash).toBe(contentHash(JSON.parse(canonicalize(withoutHash(entry)))));
          const row = params as unknown as EntryRow;
          expect(rowHash(row)).toBe(entry.hash);
          const edited = [...row] as unknown as [...EntryRow];
          edited[5] = `${row[5]} `;
          expect(rowHash(edited)).not.toBe(entry.hash);
        },
      ),
      { numRuns: 400 },
    );
  });
});
