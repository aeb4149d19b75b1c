// GET …/journal/verify?at= judges each signed checkpoint's issuer at the instant given: a checkpoint
// carries no signing time, so without `at` a stored checkpoint is not judged by its issuer's window
// (an issuer that expired since is no tampering), and with it one whose issuer was not valid then
// breaks the chain at its seq. Here one issuer expired a month ago and one is dated a month ahead,
// each having signed a checkpoint at seq 3 of its project's three entries while it was valid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import { buildServer } from '../../src/server/index.js';
import { call, tokensFor } from '../helpers/auth.js';
import { NOT_INSTANTS } from '../helpers/clock.js';
import { type CheckpointIssuers, dataDirWithPastCheckpoints } from '../helpers/past-issuers.js';
import { tempDir } from '../helpers/runtime.js';

const DAY = 24 * 3600 * 1000;
const iso = (ms: number) => new Date(ms).toISOString();

let runtime: CanonryRuntime;
let issuers: CheckpointIssuers;
let url: string;
let close: () => Promise<void>;
let tokens: { old: string; early: string };

beforeAll(async () => {
  const { dir, cleanup } = tempDir();
  issuers = await dataDirWithPastCheckpoints(dir);
  runtime = await createCanonry({ dataDir: dir, logLevel: 'silent' });
  const app = buildServer(runtime, { logLevel: 'silent' });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  tokens = {
    old: (await tokensFor(runtime, 'old', { v: 'viewer' })).v,
    early: (await tokensFor(runtime, 'early', { v: 'viewer' })).v,
  };
  close = async () => {
    await app.close();
    await runtime.close();
    cleanup();
  };
});
afterAll(async () => close());

const verify = (project: 'old' | 'early', at?: string) =>
  call(
    url,
    'GET',
    `/v1/projects/${project}/journal/verify${at === undefined ? '' : `?at=${encodeURIComponent(at)}`}`,
    tokens[project],
  );

describe('GET /v1/projects/:project/journal/verify?at=', () => {
  it('without `at` no issuer window is judged: both chains verify with their checkpoint', async () => {
    for (const project of ['old', 'early'] as const) {
      const res = await verify(project);
      expect(res.status, project).toBe(200);
      expect(res.body, project).toMatchObject({
        ok: true,
        broken: null,
        checked: 3,
        checkpoints: 1,
      });
    }
  });

  it('verifies each at an `at` inside its issuer window, offset or Z', async () => {
    for (const [project, made] of [
      ['old', issuers.made],
      ['early', issuers.ahead],
    ] as const) {
      const within = new Date(made.getTime() + 2 * DAY);
      for (const at of [within.toISOString(), within.toISOString().replace('Z', '+00:00')]) {
        const res = await verify(project, at);
        expect(res.status, `${project} ${at}`).toBe(200);
        expect(res.body, `${project} ${at}`).toMatchObject({
          ok: true,
          broken: null,
          checked: 3,
          checkpoints: 1,
        });
      }
    }
  });

  it('breaks at the checkpoint whose issuer is outside its window at `at`', async () => {
    const now = iso(Date.now());
    const cases = [
      // Expired a month ago: not valid now, nor before it was made.
      ['old', 3, now],
      ['old', 3, iso(issuers.made.getTime() - DAY)],
      // Dated a month ahead: not valid now, valid only from then on.
      ['early', 3, now],
      ['early', 3, iso(issuers.made.getTime() + 2 * DAY)],
    ] as const;
    for (const [project, seq, at] of cases) {
      const res = await verify(project, at);
      expect(res.status, `${project} ${at}`).toBe(200);
      expect(res.body, `${project} ${at}`).toMatchObject({
        ok: false,
        broken: { seq, reason: 'checkpoint-mismatch' },
      });
    }
  });

  it('refuses an `at` that is no RFC 3339 instant with a typed 400 naming the field', async () => {
    for (const at of NOT_INSTANTS) {
      const res = await verify('old', at);
      expect(res.status, at).toBe(400);
      expect(res.body.error.code, at).toBe('INVALID_ARGUMENT');
      expect(res.body.error.details.field, at).toBe('at');
    }
  });
});
