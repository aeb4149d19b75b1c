// Every setting read from the environment that is refused names its variable (and a flag given on
// the command line names the flag), so an operator knows which of a dozen CANONRY_* to fix.
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/app/index.js';
import { isCanonryError } from '../../src/core/index.js';

function refusal(input: Record<string, string>, env: Record<string, string>): string {
  try {
    resolveConfig(input, env);
  } catch (err) {
    if (isCanonryError(err, 'INVALID_ARGUMENT')) return err.message;
    throw err;
  }
  throw new Error(`accepted ${JSON.stringify({ input, env })}`);
}

describe('a refused setting names where it came from', () => {
  it.each([
    ['CANONRY_PORT', 'abc'],
    ['CANONRY_PORT', '70000'],
    ['CANONRY_HOST', 'not a host'],
    ['CANONRY_DATA', '  '],
    ['CANONRY_DB', 'mysql://root:hunter2@db/x'],
    ['CANONRY_DB', ':memory:'],
    ['CANONRY_LOG_LEVEL', 'loud'],
    ['CANONRY_VERIFY_ON_START', 'sometimes'],
    ['CANONRY_AUDIT_RETENTION_DAYS', '0'],
    ['CANONRY_REQUEST_TIMEOUT_MS', 'x'],
    ['CANONRY_CHECKPOINT_EVERY', '-1'],
    ['CANONRY_VALIDATE_WORKERS', '99'],
    ['CANONRY_EVENT_STREAMS', 'x'],
    ['CANONRY_VALIDATE_RATE_LIMIT', 'lots'],
    ['CANONRY_EVOLUTION', 'maybe'],
    ['CANONRY_FORWARD', 'x'],
    ['CANONRY_FORWARD_TLS', 'off'],
    ['CANONRY_CORS_ORIGINS', 'nope'],
  ])('%s=%j', (variable, value) => {
    const message = refusal({}, { [variable]: value });
    expect(message).toContain(variable);
    expect(message).not.toContain('hunter2');
  });

  it.each([
    ['port', '--port', 'abc'],
    ['host', '--host', 'not a host'],
    ['dataDir', '--data', ' '],
    ['db', '--db', ':memory:'],
    ['verifyOnStart', '--verify-on-start', 'x'],
  ])('the %s flag names %s, not the variable', (key, flag, value) => {
    const message = refusal({ [key]: value }, {});
    expect(message).toMatch(new RegExp(`^${flag} `));
  });
});
