// A verifier handed a hostile segment: every line it could hold that is JSON but not an entry
// object (null, an array, a number, a string) is a break in the chain, reported as such at the seq
// the line stands for, never a crash from reading a field of something that has none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySegment } from '../../src/journal/index.js';
import type { Keyring } from '../../src/trust/index.js';
import { exportedCounters } from '../helpers/segment.js';

let keyring: Keyring;
let lines: string[];
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  ({ keyring, lines } = await exportedCounters(4, cleanups));
});
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const anchor = () => ({ root: keyring.rootCertificatePem });

describe('verifySegment on lines that are JSON but not entries', () => {
  it('the untouched segment verifies', async () => {
    expect(await verifySegment(`${lines.join('\n')}\n`, anchor())).toMatchObject({ ok: true });
  });

  for (const value of ['null', '[]', '1', '"x"', 'true', '{}', '{"seq":2}']) {
    for (const at of [1, 2, 4]) {
      it(`${value} in place of the entry on line ${at + 1} is a break, not a crash`, async () => {
        const changed = [...lines];
        changed[at] = value;
        const report = await verifySegment(`${changed.join('\n')}\n`, anchor());
        expect(report.ok).toBe(false);
        expect(report.broken).not.toBeNull();
      });

      it(`${value} on line ${at + 1} is named unreadable at seq ${at}, where it stands`, async () => {
        const changed = [...lines];
        changed[at] = value;
        const report = await verifySegment(`${changed.join('\n')}\n`, anchor());
        expect(report.broken).toMatchObject({ seq: at, reason: 'unreadable' });
        expect(report.checked).toBe(at - 1);
      });
    }
  }
});
