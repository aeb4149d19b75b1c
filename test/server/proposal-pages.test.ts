// The proposals list over real HTTP, a page at a time: a bounded default and maximum, `after` and
// `before` cursors on journal seqs, oldest or newest first, `decided` as a filter, and pages that stay
// full when another principal's personal proposals sit between the rows a viewer may read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANON_ENGINES } from '../helpers/canon.js';
import { type ServedCanon, serveCanon } from '../helpers/serve-canon.js';

const P = 'pages';

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`GET /proposals, paged, on ${engine.name}`, () => {
    let served: ServedCanon<'olivia' | 'eddie' | 'agent'>;
    let t: Record<'olivia' | 'eddie' | 'agent', string>;
    /** The shared proposals' object ids, in the order they were made. */
    const shared: string[] = [];
    /** The shared proposals not committed: one rejected, one left pending. */
    const undecided = { rejected: 'shared.rejected', pending: 'shared.pending' };

    const api = (path: string, token: string, method = 'GET', body?: unknown) =>
      served.api(method, path, token, body);

    async function propose(
      token: string,
      id: string,
      visibility: 'project' | 'personal',
      object_type = 'fact',
    ) {
      const r = await api('/proposals', token, 'POST', {
        object_id: id,
        intent: 'create',
        base_version: null,
        candidate: { object_type, title: id, text: `The value of ${id}.`, visibility },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body;
    }

    async function page(token: string, query: string) {
      const r = await api(`/proposals?${query}`, token);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.proposals as { object_id: string; seq: number; status: string }[];
    }

    beforeAll(async () => {
      served = await serveCanon(engine.open, P, {
        olivia: 'owner',
        eddie: 'editor',
        agent: 'agent',
      });
      t = served.t;
      // 105 shared proposals, with three of Eddie's personal ones after each of the first ten.
      for (let i = 0; i < 105; i++) {
        const id = `shared.n${String(i).padStart(3, '0')}`;
        shared.push(id);
        await propose(t.olivia, id, 'project');
        if (i < 10) {
          for (let j = 0; j < 3; j++) await propose(t.eddie, `eddie.p${i}.${j}`, 'personal');
        }
      }
      // An agent's decisions wait for a person: one is rejected, one left pending.
      for (const id of [undecided.rejected, undecided.pending]) {
        const body = await propose(t.agent, id, 'project', 'decision');
        expect(body.proposal.status).toBe('pending');
        if (id === undecided.rejected) {
          const r = await api(`/proposals/${body.proposal.proposal_id}/reject`, t.olivia, 'POST', {
            reason: 'not now',
          });
          expect(r.status, JSON.stringify(r.body)).toBe(200);
        }
      }
    }, 240_000);
    afterAll(() => served?.close());

    it('answers at most 100 by default, the oldest first', async () => {
      const first = await page(t.olivia, '');
      expect(first.map((p) => p.object_id)).toEqual(shared.slice(0, 100));
    });

    it('walks every proposal a viewer may read with after, each page full until the last', async () => {
      const seen: string[] = [];
      let after = 0;
      for (;;) {
        const rows = await page(t.olivia, `limit=4&after=${after}`);
        seen.push(...rows.map((p) => p.object_id));
        if (rows.length < 4) break;
        after = rows.at(-1)!.seq;
      }
      expect(seen).toEqual([...shared, undecided.rejected, undecided.pending]);
    });

    it('walks newest first with before', async () => {
      const seen: string[] = [];
      let before = '';
      for (;;) {
        const rows = await page(t.olivia, `order=newest&limit=30${before}`);
        seen.push(...rows.map((p) => p.object_id));
        if (rows.length < 30) break;
        before = `&before=${rows.at(-1)!.seq}`;
      }
      expect(seen).toEqual([...shared, undecided.rejected, undecided.pending].reverse());
    });

    it('shows the holder their personal proposals among the shared ones', async () => {
      const rows = await page(t.eddie, 'limit=5');
      expect(rows.map((p) => p.object_id)).toEqual([
        'shared.n000',
        'eddie.p0.0',
        'eddie.p0.1',
        'eddie.p0.2',
        'shared.n001',
      ]);
    });

    it('filters by status, and decided is committed or rejected', async () => {
      const decided = await page(t.olivia, 'status=decided&limit=1000');
      expect(decided.map((p) => p.object_id)).toEqual([...shared, undecided.rejected]);
      expect(decided.at(-1)!.status).toBe('rejected');
      const pending = await page(t.olivia, 'status=pending');
      expect(pending.map((p) => [p.object_id, p.status])).toEqual([[undecided.pending, 'pending']]);
      const rejected = await page(t.olivia, 'status=rejected&order=newest');
      expect(rejected.map((p) => p.object_id)).toEqual([undecided.rejected]);
    });

    it.each([
      'limit=0',
      'limit=1001',
      'limit=-1',
      'limit=1e3',
      'before=0',
      'after=x',
      'order=sideways',
      'status=open',
    ])('refuses %s with INVALID_ARGUMENT', async (query) => {
      const r = await api(`/proposals?${query}`, t.olivia);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('INVALID_ARGUMENT');
      // The value is refused by its range, not the parameter as unknown.
      const name = query.split('=')[0]!;
      expect(r.body.error.details.field).toBe(name);
      expect(r.body.error.message).toMatch(new RegExp(`^${name} must be`));
    });
  });
}
