import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { journaledAnswer, journaledAnswerSoon, rawAnswer } from '../../src/relay/answers.js';
import {
  deflateSoon,
  OFF_THREAD_FROM_CHARS,
  startDeflateThread,
  stopDeflateThread,
} from '../../src/relay/deflate-thread.js';

// The caller's deflates are counted (the thread has a zlib of its own): a job the thread failed is
// deflated by the caller with the same bytes, which no comparison of bytes can tell apart.
vi.mock('node:zlib', async (importOriginal) => {
  const zlib = await importOriginal<typeof import('node:zlib')>();
  return { ...zlib, deflateRawSync: vi.fn(zlib.deflateRawSync) };
});

/**
 * What the caller's own thread makes of `a` then `b`, each encoded on its own (as `answers.ts`
 * does: a cut between a surrogate pair's halves is two replacement characters, not the pair): the
 * bytes the thread must give back.
 */
const here = (a: string, b: string) =>
  deflateRawSync(Buffer.concat([Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')]), {
    level: 1,
  }).toString('base64');

/** Text of `n` characters drawn from one-, two-, three- and four-byte UTF-8 (a surrogate pair). */
const textOf = (n: number) =>
  fc
    .array(fc.constantFrom('a', 'q', ' ', '"', '{', '\n', 'é', '—', '漢', '😀', 'fact '), {
      minLength: n,
      maxLength: n,
    })
    .map((parts) => parts.join(''));

describe('deflate thread', () => {
  beforeAll(async () => {
    expect(await startDeflateThread()).toBe(true);
  });
  afterAll(async () => {
    await stopDeflateThread();
  });

  it('gives the bytes the caller would have made, for any text past the bound', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: OFF_THREAD_FROM_CHARS, max: 60_000 })
          .chain((n) => fc.tuple(textOf(n), fc.integer({ min: 0, max: n }))),
        ([text, cut]) => {
          const a = text.slice(0, cut);
          const b = text.slice(cut);
          const soon = deflateSoon(a, b);
          expect(soon).toBeDefined();
          expect(soon!.take()).toBe(here(a, b));
        },
      ),
      { numRuns: 25 },
    );
  });

  it('keeps jobs apart: several in flight, taken in any order', () => {
    const inputs = Array.from({ length: 6 }, (_, i) =>
      `${i}:${'the ledger moved to the new region; '.repeat(600 + 97 * i)}`.slice(0, 20_000 + i),
    );
    const jobs = inputs.map((t) => deflateSoon(t, ''));
    for (const i of [3, 0, 5, 1, 4, 2]) expect(jobs[i]!.take()).toBe(here(inputs[i]!, ''));
  });

  it('deflates on the thread: the caller deflates nothing for a job the thread answered', () => {
    const text = 'the ledger moved to the new region — 漢; '.repeat(1_000);
    const job = deflateSoon(text, 'and the report 😀');
    expect(job).toBeDefined();
    const before = vi.mocked(deflateRawSync).mock.calls.length;
    const taken = job!.take();
    expect(vi.mocked(deflateRawSync).mock.calls.length).toBe(before);
    expect(taken).toBe(here(text, 'and the report 😀'));
  });

  it('leaves short inputs to the caller', () => {
    expect(deflateSoon('x'.repeat(OFF_THREAD_FROM_CHARS - 1), '')).toBeUndefined();
  });

  it('is taken once', () => {
    const job = deflateSoon('y'.repeat(OFF_THREAD_FROM_CHARS), '');
    job!.take();
    expect(() => job!.take()).toThrow(/taken once/);
  });

  it('leaves the deflate to the caller when shared memory for the job cannot be had', () => {
    // Longer than any buffer kept from the jobs before, so the job needs a new one.
    const text = 'the quorum rests on three members; '.repeat(6_000);
    vi.stubGlobal(
      'SharedArrayBuffer',
      class {
        constructor() {
          throw new RangeError('Array buffer allocation failed');
        }
      },
    );
    try {
      expect(deflateSoon(text, '')).toBeUndefined();
      const raw = JSON.stringify({ output: 'o', text });
      const literal = JSON.stringify('o');
      const at = raw.indexOf(literal);
      expect(journaledAnswerSoon(raw, 'o')()).toEqual({
        deflated: here(raw.slice(0, at), raw.slice(at + literal.length)),
        at,
      });
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('gives the right bytes when the thread stops with a job in flight', async () => {
    const text = 'a decision resting on the etcd quorum; '.repeat(2_000);
    const job = deflateSoon(text, 'tail');
    expect(job).toBeDefined();
    const stopped = stopDeflateThread();
    expect(job!.take()).toBe(here(text, 'tail'));
    await stopped;
    // No thread listens now: the caller deflates, until one is started again.
    expect(deflateSoon(text, '')).toBeUndefined();
    expect(await startDeflateThread()).toBe(true);
    expect(deflateSoon(text, '')!.take()).toBe(here(text, ''));
  });

  it('journals an answer as the caller would, and it reads back byte for byte', () => {
    const output = 'Window 5 continues the migration.';
    const facts = Array.from({ length: 400 }, (_, i) => ({
      fact_id: `f${i}`,
      statement: `service ${i} runs in eu-${i % 7} — ${'漢'.repeat(i % 3)}`,
    }));
    const raw = JSON.stringify({ output, facts });
    const literal = JSON.stringify(output);
    const at = raw.indexOf(literal);
    const answer = journaledAnswerSoon(raw, output)();
    expect(answer).toEqual({
      deflated: here(raw.slice(0, at), raw.slice(at + literal.length)),
      at,
    });
    expect(journaledAnswer(raw, output)).toEqual(answer);
    expect(rawAnswer(answer, output)).toBe(raw);
  });
});
