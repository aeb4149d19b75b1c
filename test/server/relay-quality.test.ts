// A relay session's quality history over HTTP (getRelayQuality): one row per window with what its
// completion recorded — preservation and repairs (CRP-030 §5), the DPE's counts and scores, session
// IQ and the IAP the next window carries (CRP-018) — paged, for a viewer, typed errors otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, tokensFor } from '../helpers/auth.js';
import { liveServer } from '../helpers/runtime.js';

const P = 'relay-quality';
let live: Awaited<ReturnType<typeof liveServer>>;
let t: Record<'agent' | 'val', string>;

beforeAll(async () => {
  live = await liveServer();
  t = await tokensFor(live.runtime, P, { agent: 'agent', val: 'viewer' });
});
afterAll(() => live?.close());

const api = (method: string, path: string, token: string | null, body?: unknown) =>
  call(live.url, method, `/v1/projects/${P}${path}`, token, body);

const ETCD = 'the cluster runs etcd v3.5 on five nodes';
const BACKUP = 'backups are taken every six hours';

describe('a relay session quality history', () => {
  let id = '';
  const completed: any[] = [];

  beforeAll(async () => {
    const started = await api('POST', '/relay/sessions', t.agent, {
      mode: 'DOCUMENT',
      objective: 'An operations note for the etcd cluster',
      remaining: ['Topology', 'Upgrades', 'Backups'],
    });
    expect(started.status).toBe(201);
    id = started.body.session.session_id;
    const windows = [
      {
        output: 'The cluster runs etcd v3.5 on five nodes.',
        contribution: {
          facts: [{ fact_id: 'f_etcd', statement: ETCD, provenance: 'USER' }],
          completed: ['Topology'],
        },
      },
      // A distortion of f_etcd (v3.4), quarantined by AIR.
      {
        output: 'Upgrades are rolled one node at a time. The cluster runs etcd v3.4 on five nodes.',
        contribution: {
          facts: [
            { fact_id: 'f_etcd', statement: ETCD },
            { fact_id: 'f_backup', statement: BACKUP, provenance: 'USER' },
          ],
          completed: ['Upgrades'],
        },
      },
      // Forgets f_backup: verification re-injects it.
      {
        output: 'Backups are restored weekly in a drill.',
        contribution: { facts: [{ fact_id: 'f_etcd', statement: ETCD }], completed: ['Backups'] },
      },
    ];
    for (const w of windows) {
      const res = await api('POST', `/relay/sessions/${id}/windows`, t.agent, w);
      expect(res.status).toBe(200);
      completed.push(res.body);
    }
  });

  it('has one row per window holding what each completion recorded', async () => {
    const res = await api('GET', `/relay/sessions/${id}/quality`, t.val);
    expect(res.status).toBe(200);
    expect(res.body.session_id).toBe(id);
    const rows = res.body.windows as any[];
    expect(rows.map((r) => r.window_number)).toEqual([1, 2, 3]);
    for (const [i, row] of rows.entries()) {
      const w = completed[i];
      expect(row).toMatchObject({
        kind: 'work',
        revision_target: null,
        preservation: w.verification.preservation,
        repaired: w.verification.repaired.length,
        claims: w.signals.claims.length,
        fabrication_count: w.signals.fabrication_count,
        distortion_count: w.signals.distortion_count,
        repetition_ratio: w.signals.repetition.ratio,
        completeness: w.signals.completeness.score,
        grounding_pct: w.signals.grounding_pct,
        flow_score: w.signals.flow_score,
        quality: w.signals.quality,
        session_iq: w.quality.state.session_iq,
      });
      expect(Math.round(row.session_iq)).toBe(Number(w.headers['CRP-AIR-Session-IQ']));
      expect(row.air).toEqual({
        mode: 'adaptive',
        judge: w.quality.judge,
        packet: w.quality.packet,
        injection: w.quality.injection,
        tokens: w.quality.tokens,
      });
    }
    expect(rows[1].distortion_count).toBe(1);
    expect(rows[1].air.injection).toContain('v3.5');
    // f_backup and what the extractor took from window 2's prose.
    expect(completed[2].verification.repaired).toContain('f_backup');
    expect(rows[2].repaired).toBe(completed[2].verification.repaired.length);
    expect(rows[2].preservation).toBeLessThan(1);
    // No CSO and no text: the rows stay small.
    expect(JSON.stringify(rows)).not.toContain('cso_hmac');
  });

  it('pages with after and limit, and refuses what it cannot read', async () => {
    const page = await api('GET', `/relay/sessions/${id}/quality?after=1&limit=1`, t.val);
    expect(page.body.windows.map((r: any) => r.window_number)).toEqual([2]);
    const bad = await api('GET', `/relay/sessions/${id}/quality?limit=501`, t.val);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_ARGUMENT');
    const unknown = await api('GET', '/relay/sessions/rs-0000000000000000/quality', t.val);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('UNKNOWN_SESSION');
    expect((await api('GET', `/relay/sessions/${id}/quality`, null)).status).toBe(401);
  });
});
