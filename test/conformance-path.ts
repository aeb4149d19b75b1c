import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The external suites live in `shared/conformance/` beside the repository (or where
 * CANONRY_CONFORMANCE points). They are required: a missing suite fails the test run, never skips it.
 */
export function conformanceDir(...parts: string[]): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [
    process.env.CANONRY_CONFORMANCE,
    resolve(here, '../../shared/conformance'),
    '/work/shared/conformance',
  ].filter((p): p is string => typeof p === 'string');
  for (const base of candidates) {
    if (existsSync(base)) return join(base, ...parts);
  }
  throw new Error(`conformance suites not found; looked in ${candidates.join(', ')}`);
}
