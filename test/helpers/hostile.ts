import fc from 'fast-check';
import {
  backtrackingRegex,
  type HostileCase,
  hugeEnum,
  manyPatterns,
  mergingReduce,
  nestedAllOf,
  nestedIterators,
  refFanOut,
  uniqueObjects,
} from '../../bench/lib/hostile.js';

export {
  backtrackingRegex,
  type HostileCase,
  hugeEnum,
  manyPatterns,
  mergingReduce,
  nestedAllOf,
  nestedIterators,
  refFanOut,
  uniqueObjects,
  worstCases,
} from '../../bench/lib/hostile.js';

/** A fast-check arbitrary over hostile bodies of varying sizes (for the fuzz generators). */
export function hostileBody(): fc.Arbitrary<HostileCase['body']> {
  return fc.oneof(
    fc.integer({ min: 20, max: 40 }).map((n) => backtrackingRegex(n).body),
    fc.integer({ min: 8, max: 22 }).map((n) => refFanOut(n).body),
    fc.integer({ min: 8, max: 31 }).map((n) => nestedAllOf(n).body),
    fc
      .tuple(fc.integer({ min: 100, max: 4_000 }), fc.integer({ min: 10, max: 5_000 }))
      .map(([m, n]) => hugeEnum(m, n).body),
    fc.integer({ min: 100, max: 5_000 }).map((n) => uniqueObjects(n).body),
    fc
      .tuple(fc.integer({ min: 1, max: 256 }), fc.integer({ min: 10, max: 5_000 }))
      .map(([p, k]) => manyPatterns(p, k).body),
    fc
      .tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 10, max: 1_000 }))
      .map(([d, n]) => nestedIterators(d, n).body),
    fc.integer({ min: 100, max: 10_000 }).map((n) => mergingReduce(n).body),
  );
}
