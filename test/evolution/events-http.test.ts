// listEvents over HTTP: journal order by default, newest first on request, a page ending before a
// seq, and typed refusals of bad paging input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import { buildServer } from '../../src/server/index.js';
import { call, tokensFor } from '../helpers/auth.js';
import { tempDir } from '../helpers/runtime.js';

const PROJECT = 'evo-http';
let url: string;
let token: string;
let rt: CanonryRuntime;
const closers: (() => Promise<unknown> | unknown)[] = [];

const list = async (query: string) =>
  call(url, 'GET', `/v1/projects/${PROJECT}/evolution/events${query}`, token);

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
  const t = await tokensFor(rt, PROJECT, { ada: 'agent' });
  token = t.ada;
  for (let i = 0; i < 4; i++) {
    const res = await call(url, 'POST', `/v1/projects/${PROJECT}/evolution/feedback`, token, {
      subject: `work-${i}`,
      score: 0.5,
    });
    expect(res.status).toBe(201);
  }
  await rt.evolution!.idle();
});

afterAll(async () => {
  for (const close of closers) await close();
});

describe('GET …/evolution/events', () => {
  it('lists in journal order by default and newest first on request, paged by before', async () => {
    const oldest = await list('');
    expect(oldest.status).toBe(200);
    const seqs = (oldest.body.events as { seq: number }[]).map((e) => e.seq);
    expect(seqs).toHaveLength(4);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);

    const newest = await list('?order=newest&limit=2');
    expect((newest.body.events as { seq: number }[]).map((e) => e.seq)).toEqual([seqs[3], seqs[2]]);
    const older = await list(`?order=newest&limit=2&before=${seqs[2]}`);
    expect((older.body.events as { seq: number }[]).map((e) => e.seq)).toEqual([seqs[1], seqs[0]]);
    const none = await list(`?order=newest&before=${seqs[0]}`);
    expect(none.body.events).toEqual([]);
  });

  it('refuses a bad order or before with a typed 400', async () => {
    const order = await list('?order=sideways');
    expect(order.status).toBe(400);
    expect(order.body.error.code).toBe('INVALID_ARGUMENT');
    const before = await list('?before=-3');
    expect(before.status).toBe(400);
    expect(before.body.error.code).toBe('INVALID_ARGUMENT');
  });
});
