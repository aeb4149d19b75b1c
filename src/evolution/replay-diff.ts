import { canonicalize, type JsonValue } from '../core/index.js';
import type { ReplayDifference } from './replay-types.js';

/**
 * The first place `actual` departs from `expected`, walking `expected` in its key order (so the
 * caller decides what is compared first), then keys only `actual` has, sorted. Null when equal by
 * RFC 8785 bytes. Paths are JSON Pointers under `base`.
 */
export function firstDifference(
  expected: JsonValue | undefined,
  actual: JsonValue | undefined,
  base = '',
): ReplayDifference | null {
  if (expected === undefined || actual === undefined) {
    if (expected === actual) return null;
    return { path: base, expected: expected ?? null, actual: actual ?? null };
  }
  if (isObject(expected) && isObject(actual)) {
    for (const key of Object.keys(expected)) {
      const found = firstDifference(expected[key], actual[key], `${base}/${pointerToken(key)}`);
      if (found !== null) return found;
    }
    for (const key of Object.keys(actual).sort()) {
      if (!Object.hasOwn(expected, key)) {
        return {
          path: `${base}/${pointerToken(key)}`,
          expected: null,
          actual: actual[key] ?? null,
        };
      }
    }
    return null;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const n = Math.max(expected.length, actual.length);
    for (let i = 0; i < n; i++) {
      const found = firstDifference(expected[i], actual[i], `${base}/${i}`);
      if (found !== null) return found;
    }
    return null;
  }
  return canonicalize(expected) === canonicalize(actual) ? null : { path: base, expected, actual };
}

function isObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pointerToken(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}
