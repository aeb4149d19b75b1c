// @ts-check
/** The refund example as benchmark input: the protocol bundle and 1,024 varied artifacts. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** How many inputs each bench cycles through (a power of two, so `i & INPUT_MASK` cycles). */
export const INPUT_COUNT = 1024;
export const INPUT_MASK = INPUT_COUNT - 1;

export const LABELS = /** @type {const} */ (['AUTO_APPROVE', 'MANAGER_REVIEW', 'BLOCK']);

/** @returns {any} examples/refund/protocol.json, freshly parsed */
export function refundProtocol() {
  return JSON.parse(
    readFileSync(new URL('../../examples/refund/protocol.json', import.meta.url), 'utf8'),
  );
}

/** mulberry32: a small seeded PRNG, so every run sees the same inputs. @param {number} seed */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Cent ranges per label (inclusive): ≤ 50.00, 50.01–1000.00, 1000.01–100000.00. */
const CENTS = [
  [0, 5_000],
  [5_001, 100_000],
  [100_001, 10_000_000],
];

/** Exact boundaries, placed among the random amounts. */
const BOUNDARIES = [0, 50, 50.01, 1000, 1000.01, -12.5];

/**
 * 1,024 refund artifacts `{ amount }` with random amounts in cents (two decimals), a third per
 * label, plus the exact boundaries. All satisfy the constraints, so every one is CONFORMANT.
 * @returns {{ amount: number }[]}
 */
export function refundArtifacts(seed = 0xc0ffee) {
  const random = prng(seed);
  return Array.from({ length: INPUT_COUNT }, (_, i) => {
    if (i % 170 === 0) return { amount: BOUNDARIES[(i / 170) % BOUNDARIES.length] ?? 0 };
    const [lo = 0, hi = 0] = CENTS[i % 3] ?? [];
    return { amount: (lo + Math.floor(random() * (hi - lo + 1))) / 100 };
  });
}

/** The label the refund protocol must give, computed independently of every engine. @param {number} amount */
export function expectedLabel(amount) {
  return amount <= 50 ? 'AUTO_APPROVE' : amount <= 1000 ? 'MANAGER_REVIEW' : 'BLOCK';
}

/** Artifacts the constraints refuse: every engine must refuse them too (label null). */
export const INVALID_ARTIFACTS = [
  {},
  { amount: '20' },
  { amount: 20, note: 'extra' },
  { amount: null },
  { amount: true },
  [],
  null,
  'refund',
];

/** 1,024 distinct generation-metadata hashes (`sha256:` of a per-index string). */
export function metadataHashes() {
  return Array.from(
    { length: INPUT_COUNT },
    (_, i) =>
      /** @type {`sha256:${string}`} */ (
        `sha256:${createHash('sha256').update(`generation-${i}`).digest('hex')}`
      ),
  );
}
