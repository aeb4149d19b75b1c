// GET …/evolution/verify checks a bounded page of the project's events, not the whole store: each
// event costs a signature check and its governance on the server's one thread, so a viewer's single
// request over a store of tens of thousands of events held every other request for seconds. The
// page says where the next starts, and paging reaches every event, a tampered one included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import { MAX_VERIFY_PAGE } from '../../src/evolution/index.js';
import { buildServer } from '../../src/server/index.js';
import { call, tokensFor } from '../helpers/auth.js';
import { tempDir } from '../helpers/runtime.js';

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
  const { dir, cleanup } = tempDir();
  closers.push(cleanup);
  rt = await createCanonry(
    { dataDir: dir, evolution: 'on', logLevel: 'silent' },
    { evolution: { sleep: async () => undefined } },
  );
  closers.unshift(() => rt.close());
  const app = buildServer(rt, { logLevel: 'silent' });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  closers.unshift(() => app.close());
  const t = await tokensFor(rt, PROJECT, { ada: 'agent', vic: 'viewer' });
  token = t.vic;
  const res = await call(url, 'POST', `/v1/projects/${PROJECT}/evolution/feedback`, t.ada, {
    subject: 'work-1',
    score: 0.5,
  });
  expect(res.status).toBe(201);
  await rt.evolution!.idle();
  // The one signed event, stored again under more ids (as a long-lived project accumulates them):
  // each copy verifies as the original does. The last copy's record is then edited.
  const [row] = await rt.store.all<{ seq: number | string }>(
    'SELECT seq FROM evolution_events WHERE project = $1',
    [PROJECT],
  );
  const first = Number(row!.seq);
  for (let i = 1; i <= COPIES; i++) {
    await rt.store.run(
      `INSERT INTO evolution_events (project, event_id, seq, event_type, class, schema_version, created_at, pending, record)
       SELECT project, $2, $3, event_type, class, schema_version, created_at, 0, record
       FROM evolution_events WHERE project = $1 AND seq = $4`,
      [PROJECT, `copy-${i}`, first + 1_000 + i, first],
    );
  }
  const [stored] = await rt.store.all<{ record: string }>(
    'SELECT record FROM evolution_events WHERE project = $1 AND event_id = $2',
    [PROJECT, `copy-${COPIES}`],
  );
  const record = JSON.parse(stored!.record);
  record.event.outcome.score = 0.9;
  await rt.store.run(
    'UPDATE evolution_events SET record = $1 WHERE project = $2 AND event_id = $3',
    [JSON.stringify(record), PROJECT, `copy-${COPIES}`],
  );
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
