import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CanonryError, ERROR_CODES, httpStatusOf, toCanonryError } from '../../src/core/index.js';
import { ROOT } from '../helpers/runtime.js';

describe('error codes', () => {
  it('every code is documented in docs/errors.md with its HTTP status', () => {
    const docs = readFileSync(join(ROOT, 'docs/errors.md'), 'utf8');
    for (const [code, { status }] of Object.entries(ERROR_CODES)) {
      expect(docs, `docs/errors.md is missing ${code}`).toMatch(
        new RegExp(`\\|\\s*\`${code}\`\\s*\\|\\s*${status}\\s*\\|`),
      );
    }
  });

  it('maps codes to statuses in one place and wraps unknown throwables once', () => {
    expect(httpStatusOf('INVALID_REQUEST')).toBe(400);
    expect(httpStatusOf('INTERPRETATION_DRIFT')).toBe(422);
    expect(new CanonryError('PAYLOAD_TOO_LARGE').status).toBe(413);
    const wrapped = toCanonryError(new Error('boom'));
    expect(wrapped.code).toBe('INTERNAL');
    expect(toCanonryError(wrapped)).toBe(wrapped);
  });
});
