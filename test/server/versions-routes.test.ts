// An object's versions over HTTP, against a real server on loopback with a real SQLite file: a page
// at a time in either order from a version number, one version by number or by hash, and typed
// refusals for a malformed or unknown version; another principal's personal note is not there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, tokensFor } from '../helpers/auth.js';
import { liveServer } from '../helpers/runtime.js';

const P = 'versions-http';
const VERSIONS = 13;
let live: Awaited<ReturnType<typeof liveServer>>;
let t: Record<'olivia' | 'eddie' | 'vera', string>;

const api = (token: string, method: string, path: string, body?: unknown) =>
  call(live.url, method, `/v1/projects/${P}${path}`, token, body);

async function write(token: string, id: string, text: string, personal = false) {
  const now = await api(token, 'GET', `/objects/${id}`);
  const out = await api(token, 'POST', '/proposals', {
    object_id: id,
    intent: now.status === 200 ? 'update' : 'create',
    base_version: now.status === 200 ? now.body.object.current_version_ref : null,
    candidate: {
      object_type: 'fact',
      title: id,
      text,
      ...(personal ? { visibility: 'personal' } : {}),
    },
  });
  expect(out.status).toBe(201);
  expect(out.body.proposal.status).toBe('committed');
}

const ids = (body: { versions: { version_id: number }[] }) =>
  body.versions.map((v) => v.version_id);

beforeAll(async () => {
  live = await liveServer();
  t = await tokensFor(live.runtime, P, { olivia: 'owner', eddie: 'editor', vera: 'viewer' });
  for (let n = 1; n <= VERSIONS; n++) await write(t.olivia, 'ui.long', `Version ${n}.`);
  await write(t.eddie, 'eddie.note', 'Mine.', true);
}, 60_000);
afterAll(() => live?.close());

describe('the versions of an object over HTTP', () => {
  it('pages them in either order from a version number', async () => {
    const newest = await api(t.vera, 'GET', '/objects/ui.long/versions?order=newest&limit=5');
    expect(newest.status).toBe(200);
    expect(ids(newest.body)).toEqual([13, 12, 11, 10, 9]);
    expect(newest.body.current_version_ref).toBe(newest.body.versions[0].version_hash);
    const next = await api(
      t.vera,
      'GET',
      '/objects/ui.long/versions?order=newest&limit=5&before=9',
    );
    expect(ids(next.body)).toEqual([8, 7, 6, 5, 4]);
    const oldest = await api(t.vera, 'GET', '/objects/ui.long/versions?after=10');
    expect(ids(oldest.body)).toEqual([11, 12, 13]);
    const all = await api(t.vera, 'GET', '/objects/ui.long/versions');
    expect(ids(all.body)).toEqual(Array.from({ length: VERSIONS }, (_, i) => i + 1));
    expect((await api(t.vera, 'GET', '/objects/ui.long')).body.versions).toBe(VERSIONS);
    for (const query of ['before=0', 'limit=1001', 'limit=0', 'order=sideways', 'after=-1']) {
      const bad = await api(t.vera, 'GET', `/objects/ui.long/versions?${query}`);
      expect(bad.status, query).toBe(400);
      expect(bad.body.error.code, query).toBe('INVALID_ARGUMENT');
    }
  });

  it('reads one version by number or by hash, and refuses one it does not have, by name', async () => {
    const third = await api(t.vera, 'GET', '/objects/ui.long/versions/3');
    expect(third.status).toBe(200);
    expect(third.body.version).toMatchObject({ version_id: 3, note_id: 'ui.long' });
    expect(third.body.version.content.text).toBe('Version 3.');
    const hash = third.body.version.version_hash;
    const byHash = await api(t.vera, 'GET', `/objects/ui.long/versions/${hash}`);
    expect(byHash.status).toBe(200);
    expect(byHash.body).toEqual(third.body);
    expect(byHash.body.current_version_ref).not.toBe(hash);

    for (const bad of ['0', 'three', '1.5', '99999999999999999', 'sha256:abc']) {
      const r = await api(t.vera, 'GET', `/objects/ui.long/versions/${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.body.error, bad).toMatchObject({
        code: 'INVALID_ARGUMENT',
        details: { field: 'version' },
      });
    }
    const missing = await api(t.vera, 'GET', `/objects/ui.long/versions/${VERSIONS + 1}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('UNKNOWN_VERSION');
    // A version of another object, named under this one, is not one of its versions.
    const mine = await api(t.eddie, 'GET', '/objects/eddie.note/versions/1');
    expect(mine.status).toBe(200);
    const elsewhere = await api(
      t.eddie,
      'GET',
      `/objects/ui.long/versions/${mine.body.version.version_hash}`,
    );
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error.code).toBe('UNKNOWN_VERSION');
  });

  it("does not show another principal's personal note or its versions", async () => {
    for (const path of [
      '/objects/eddie.note/versions',
      '/objects/eddie.note/versions/1',
      '/objects/eddie.note',
    ]) {
      const r = await api(t.olivia, 'GET', path);
      expect(r.status, path).toBe(404);
      expect(r.body.error.code, path).toBe('UNKNOWN_OBJECT');
    }
  });
});
