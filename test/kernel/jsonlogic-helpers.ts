/** Operator names a JsonLogic rule calls (single-key objects), not descending into `preserve`. */
export function operatorsOf(rule: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(rule)) {
    for (const item of rule) operatorsOf(item, found);
  } else if (rule !== null && typeof rule === 'object') {
    const keys = Object.keys(rule);
    if (keys.length === 1) {
      const operator = keys[0] as string;
      found.add(operator);
      if (operator !== 'preserve') operatorsOf((rule as Record<string, unknown>)[operator], found);
    }
  }
  return found;
}

/** Deep equality for JSON results; numbers within 1e-10 as the compat-tables runners compare. */
export function jsonClose(actual: unknown, expected: unknown): boolean {
  if (typeof actual === 'number' && typeof expected === 'number') {
    return actual === expected || Math.abs(actual - expected) < 1e-10;
  }
  if (Array.isArray(actual) || Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      Array.isArray(expected) &&
      actual.length === expected.length &&
      actual.every((item, i) => jsonClose(item, expected[i]))
    );
  }
  if (
    actual !== null &&
    expected !== null &&
    typeof actual === 'object' &&
    typeof expected === 'object'
  ) {
    const a = actual as Record<string, unknown>;
    const e = expected as Record<string, unknown>;
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(e).length &&
      keys.every((k) => Object.hasOwn(e, k) && jsonClose(a[k], e[k]))
    );
  }
  return actual === expected;
}
