import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentHash } from '../../src/core/index.js';
import { contextPacketHash } from '../../src/relay/prepare.js';

/** What `contentHash` gives, or the error code it throws. */
const outcome = (hash: (m: never) => string, messages: unknown) => {
  try {
    return hash(messages as never);
  } catch (err) {
    return `throws ${(err as { code?: string }).code}`;
  }
};

describe('contextPacketHash', () => {
  it('is the content hash of the messages, piece by piece, whatever they hold', () => {
    // Latin-1 and not, escapes, lone surrogates (refused both ways), extra and undefined members.
    const text = fc.string({
      unit: fc.constantFrom(...'ab \n\t"\\/é’你🙂', '\u0000', '\u001f', '\ud800', '\udc00'),
      maxLength: 60,
    });
    const message = fc.oneof(
      fc.record({ role: fc.constantFrom('system', 'user', 'assistant'), content: text }),
      fc.record({ content: text, role: text }),
      fc.record({ role: text, content: text, name: fc.option(text, { nil: undefined }) }),
      fc.record({ role: text, content: fc.oneof(text, fc.integer(), fc.constant(null)) }),
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 4 }), (messages) => {
        expect(outcome(contextPacketHash, messages)).toBe(outcome(contentHash, messages));
      }),
      { numRuns: 2_000 },
    );
  });

  it('hashes a window-sized prompt as the whole canonical text would', () => {
    const state = Array.from(
      { length: 2_000 },
      (_, i) => `{"fact_id":"f${i}","statement":"x${i}"}`,
    );
    const messages = [
      { role: 'system' as const, content: 'Rules for canonry’s relay.' },
      { role: 'user' as const, content: `## State\n${state.join(',\n')}` },
    ];
    expect(contextPacketHash(messages)).toBe(contentHash(messages));
  });
});
