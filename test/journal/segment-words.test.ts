// A broken segment is a file, not the live store: each break detail names the segment (and the line
// when one is at fault), never "stored" rows or a "recorded head" the file does not have.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalize } from '../../src/core/index.js';
import {
  type Journal,
  type VerifyReport,
  verifyProject,
  verifySegment,
} from '../../src/journal/index.js';
import type { Store } from '../../src/store/index.js';
import type { Keyring } from '../../src/trust/index.js';
import { exportedCounters } from '../helpers/segment.js';

let keyring: Keyring;
let store: Store;
let journal: Journal;
let lines: string[];
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  ({ keyring, store, journal, lines } = await exportedCounters(5, cleanups));
});
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const entry = (line: number) => JSON.parse(lines[line]!) as Record<string, unknown>;
const replaced = (line: number, value: unknown) =>
  lines.map((l, i) => (i === line ? canonicalize(value) : l));

async function broken(changed: string[]): Promise<NonNullable<VerifyReport['broken']>> {
  const report = await verifySegment(`${changed.join('\n')}\n`, {
    root: keyring.rootCertificatePem,
  });
  expect(report.ok).toBe(false);
  return report.broken!;
}

function speaksOfTheFile(detail: string): void {
  expect(detail).toMatch(/segment/);
  expect(detail).not.toMatch(/stored|recorded|row/);
}

describe('break details of a segment file', () => {
  it('a line that is not an entry is named by its line number', async () => {
    const b = await broken(lines.map((l, i) => (i === 3 ? '{}' : l)));
    expect(b).toMatchObject({ seq: 3, reason: 'unreadable' });
    expect(b.detail).toBe('line 4 of the segment is not a journal entry');
  });

  it('a missing line says which seq the line holds instead', async () => {
    const b = await broken(lines.filter((_, i) => i !== 3));
    expect(b).toMatchObject({ seq: 3, reason: 'missing-entry' });
    expect(b.detail).toBe('seq 3 is missing from the segment (line 4 holds seq 4)');
    speaksOfTheFile(b.detail);
  });

  it('a changed hash is the hash written in the segment', async () => {
    const b = await broken(replaced(3, { ...entry(3), hash: `sha256:${'0'.repeat(64)}` }));
    expect(b).toMatchObject({ seq: 3, reason: 'hash-rewritten' });
    speaksOfTheFile(b.detail);
  });

  it('an entry linked to another line of the segment names where that entry is', async () => {
    const b = await broken(replaced(3, { ...entry(3), prev_hash: entry(1).hash }));
    expect(b).toMatchObject({ seq: 3, reason: 'reordered' });
    expect(b.detail).toBe('seq 3 links to the entry the segment holds at seq 1');
  });

  it('entry lines that stop short of the signed checkpoint say so', async () => {
    const b = await broken([...lines.slice(0, 5), lines.at(-1)!]);
    expect(b).toMatchObject({ seq: 5, reason: 'head-mismatch' });
    expect(b.detail).toBe(
      "the segment's signed checkpoint is at seq 5; its entry lines end at seq 4",
    );
  });

  it('the live store keeps its own words', async () => {
    await store.run("UPDATE journal_entries SET hash = $1 WHERE project = 'alpha' AND seq = 3", [
      `sha256:${'0'.repeat(64)}`,
    ]);
    const report = await verifyProject(journal, 'alpha');
    expect(report.broken?.detail).toMatch(/stored/);
    expect(report.broken?.detail).not.toMatch(/segment/);
  });
});
