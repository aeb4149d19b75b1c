// GET …/evolution/verify checks a bounded page of the project's events, not the whole store: each
// event costs a signature check and its governance on the server's one thread, so a viewer's single
// request over a store of tens of thousands of events held every other request for seconds. The
// page says where the next starts, and paging reaches every event, a tampered one included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import { MAX_VERIFY_PAGE } from '../../src/evolution/index.js';
import { call } from '../helpers/auth.js';
import { copiesOfEvent, servedFeedback } from '../helpers/evolution.js';

const PROJECT = 'evo-verify';
/** More events than one page holds. */
const COPIES = MAX_VERIFY_PAGE + 100;
let url: string;
let token: string;
let rt: CanonryRuntime;
const closers: (() => Promise<unknown> | unknown)[] = [];

const verify = (query = '') =>
  call(url, 'GET', `/v1/projects/${PROJECT}/evolution/verify${query}`, token);

beforeAll(async () => {
  ({ rt, url, viewer: token } = await servedFeedback(closers, PROJECT));
  await copiesOfEvent(rt, PROJECT, COPIES);
});

afterAll(async () => {
  for (const close of closers) await close();
});

describe('GET …/evolution/verify', () => {
  it('checks one bounded page per request and pages on to every event, the tampered one included', async () => {
    const first = await verify();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ ok: true, checked: MAX_VERIFY_PAGE, failed: [] });
    expect(first.body.verified).toBe(MAX_VERIFY_PAGE);
    expect(typeof first.body.next).toBe('number');

    const rest = await verify(`?after=${first.body.next}`);
    expect(rest.status).toBe(200);
    expect(rest.body.checked).toBe(COPIES + 1 - MAX_VERIFY_PAGE);
    expect(rest.body.next).toBeNull();
    expect(rest.body.ok).toBe(false);
    expect(rest.body.failed.map((f: { event_id: string }) => f.event_id)).toEqual([
      `copy-${COPIES}`,
    ]);
  });

  it('takes a smaller page and refuses a larger one', async () => {
    const small = await verify('?limit=3');
    expect(small.body).toMatchObject({ checked: 3, verified: 3 });
    const next = await verify(`?limit=3&after=${small.body.next}`);
    expect(next.body.checked).toBe(3);
    expect(next.body.next).toBeGreaterThan(small.body.next);

    for (const query of [`?limit=${MAX_VERIFY_PAGE + 1}`, '?limit=0', '?after=-1']) {
      const refused = await verify(query);
      expect([query, refused.status, refused.body.error.code]).toEqual([
        query,
        400,
        'INVALID_ARGUMENT',
      ]);
    }
  });
});
