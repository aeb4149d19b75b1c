// `GET …/journal?summary=true` against a real server on loopback over a real SQLite file: each entry
// as the live feed tells it (its kind's policy-safe summary, never a body), another principal's
// personal entry only as its place in the chain, and a bad flag a typed 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, tokensFor } from '../helpers/auth.js';
import { liveServer } from '../helpers/runtime.js';

const P = 'ledger';
let live: Awaited<ReturnType<typeof liveServer>>;
let t: Record<'olivia' | 'eddie', string>;

const api = async (token: string, method: string, path: string, body?: unknown) => {
  const res = await call(live.url, method, `/v1/projects/${P}${path}`, token, body);
  return res as { status: number; body: any };
};

beforeAll(async () => {
  live = await liveServer();
  t = await tokensFor(live.runtime, P, { olivia: 'owner', eddie: 'editor' });
  const created = await api(t.olivia, 'POST', '/proposals', {
    object_id: 'ui.colour',
    intent: 'create',
    base_version: null,
    candidate: { object_type: 'preference', title: 'Colour', text: 'The interface is red.' },
  });
  expect(created.status).toBe(201);
  const personal = await api(t.eddie, 'POST', '/proposals', {
    object_id: 'eddie.salary',
    intent: 'create',
    base_version: null,
    candidate: {
      object_type: 'fact',
      title: 'Salary memo',
      text: 'Eddie earns 91234.',
      visibility: 'personal',
    },
  });
  expect(personal.status).toBe(201);
});
afterAll(() => live?.close());

describe('the journal read with summary=true', () => {
  it("gives each entry its kind's summary and no body, at the same place and hash", async () => {
    const whole = await api(t.olivia, 'GET', '/journal?limit=1000');
    const summed = await api(t.olivia, 'GET', '/journal?limit=1000&summary=true');
    expect(summed.status).toBe(200);
    expect(summed.body.head).toEqual(whole.body.head);
    expect(summed.body.entries.map((e: any) => [e.seq, e.hash, e.prev_hash])).toEqual(
      whole.body.entries.map((e: any) => [e.seq, e.hash, e.prev_hash]),
    );
    for (const e of summed.body.entries) expect(e).not.toHaveProperty('body');
    const commit = summed.body.entries.find(
      (e: any) => e.kind === 'canon.commit' && e.summary?.object_id === 'ui.colour',
    );
    expect(commit).toMatchObject({
      actor: 'olivia',
      authority: { principal: 'olivia', role: 'owner' },
      summary: { object_id: 'ui.colour', version_id: 1 },
    });
    expect(commit.summary.version_hash).toMatch(/^sha256:/);
  });

  it("shows another principal's personal entries only as their place in the chain", async () => {
    const summed = await api(t.olivia, 'GET', '/journal?limit=1000&summary=true');
    const redacted = summed.body.entries.filter((e: any) => e.redacted === true);
    expect(redacted.length).toBeGreaterThan(0);
    for (const e of redacted)
      expect(Object.keys(e).sort()).toEqual(['hash', 'prev_hash', 'redacted', 'seq']);
    expect(JSON.stringify(summed.body)).not.toContain('eddie.salary');
    // The holder reads its own.
    const own = await api(t.eddie, 'GET', '/journal?limit=1000&summary=true');
    expect(JSON.stringify(own.body)).toContain('eddie.salary');
  });

  it('refuses a summary flag that is not true or false with a typed 400', async () => {
    const bad = await api(t.olivia, 'GET', '/journal?summary=yes');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { field: 'summary' },
    });
    const off = await api(t.olivia, 'GET', '/journal?limit=1&summary=false');
    expect(off.status).toBe(200);
    expect(off.body.entries[0]).toHaveProperty('body');
  });
});
