// Disputes over HTTP (LCSM §15), against a real server on loopback, on each storage engine: an owner
// states a fact, an editor disputes it through POST /proposals (the candidate carries the competing
// claim), the object read, board, provenance and working set show both claims; bad resolution
// input is a typed 4xx that writes nothing; an agent's resolution through POST /objects/:id/resolve
// waits for an editor, whose approval records which claim stands and why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANON_ENGINES, canonState, type EngineRuntime, PROJECT } from '../helpers/canon.js';
import { type ServedCanon, serveCanon } from '../helpers/serve-canon.js';

const FACT = 'Backups run nightly at 02:00.';
const CLAIM = 'Backups run hourly.';

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`disputes over HTTP on ${engine.name}`, () => {
    let served: ServedCanon<'olivia' | 'eddie' | 'bot' | 'vera'>;
    let env: EngineRuntime;
    let t: typeof served.t;
    beforeAll(async () => {
      served = await serveCanon(engine.open, PROJECT, {
        olivia: 'owner',
        eddie: 'editor',
        bot: 'agent',
        vera: 'viewer',
      });
      ({ env, t } = served);
    });
    afterAll(async () => served?.close());

    const api = (method: string, path: string, token: string, body?: unknown) =>
      served.api(method, path, token, body);

    /** Archives `text` as `token`'s message and returns the span quoting `quote`. */
    async function source(token: string, text: string, quote: string) {
      const r = await api('POST', '/messages?classify=false', token, { text });
      expect(r.status).toBe(201);
      const start = text.indexOf(quote);
      return {
        message_id: r.body.message.message_id as string,
        span: [start, start + quote.length],
        quote,
      };
    }

    it('a dispute keeps both claims; an agent resolution waits for an editor and records why', async () => {
      const s1 = await source(t.olivia, `Ops: ${FACT}`, FACT);
      const created = await api('POST', '/proposals', t.olivia, {
        object_id: 'ops.backups',
        intent: 'create',
        base_version: null,
        candidate: { object_type: 'fact', title: 'Backups', text: FACT, sources: [s1] },
      });
      expect(created.status).toBe(201);
      const s2 = await source(t.eddie, `Eddie: the cron says ${CLAIM}`, CLAIM);
      const disputed = await api('POST', '/proposals', t.eddie, {
        object_id: 'ops.backups',
        intent: 'dispute',
        base_version: created.body.committed.version_hash,
        candidate: { object_type: 'fact', title: 'Backups', text: CLAIM, sources: [s2] },
      });
      expect(disputed.status).toBe(201);
      expect(disputed.body.proposal.claim).toMatchObject({ statement: CLAIM, sources: [s2] });
      const claims = disputed.body.committed.claims;
      expect(claims.map((c: { statement: string }) => c.statement)).toEqual([FACT, CLAIM]);

      const view = await api('GET', `/proposals/${disputed.body.proposal.proposal_id}`, t.vera);
      expect(view.body.claim).toEqual({
        statement: CLAIM,
        sources: [s2],
        confidence_state: 'asserted',
      });
      expect(view.body.candidate.content).toMatchObject({ text: FACT, status: 'disputed' });
      const read = await api('GET', '/objects/ops.backups', t.vera);
      expect(read.status).toBe(200);
      expect(read.body.object).toMatchObject({ status: 'disputed', text: FACT });
      expect(read.body.claims.map((c: { state: string }) => c.state)).toEqual(['open', 'open']);
      expect(read.body.claims[1].holders[0]).toMatchObject({
        principal: { id: 'eddie', role: 'editor' },
        sources: [s2],
        receipt_ref: read.body.current.receipt_ref,
      });
      const board = await api('GET', '/board', t.vera);
      expect(board.body.objects.disputed[0].claims).toHaveLength(2);
      const ws = await api('POST', '/working-set', t.vera, { object_id: 'ops.backups' });
      expect(ws.status).toBe(200);
      expect(ws.body.notes).toEqual([]);
      expect(ws.body.disputes).toHaveLength(1);
      expect(
        ws.body.disputes[0].claims.map(
          (c: { held_by: { principal: string }[] }) => c.held_by[0]!.principal,
        ),
      ).toEqual(['olivia', 'eddie']);
      expect(ws.body.capsule).toContain(
        `"${CLAIM}" held by eddie/editor asserted (source ${s2.message_id}[${s2.span[0]}:${s2.span[1]}])`,
      );

      // Bad input: typed 4xx, nothing written.
      const before = await canonState(env.runtime);
      const cases: [unknown, number, string][] = [
        [{ rationale: 'x' }, 400, 'INVALID_BODY'],
        [{ claim_id: 'claim_nothex', rationale: 'x' }, 400, 'INVALID_BODY'],
        [{ claim_id: claims[1].claim_id }, 400, 'INVALID_BODY'],
        [{ claim_id: claims[1].claim_id, rationale: '  ' }, 400, 'INVALID_BODY'],
        [
          { claim_id: claims[1].claim_id, rationale: 'x', actor: 'olivia' },
          400,
          'AUTHORITY_FROM_PAYLOAD',
        ],
        [{ claim_id: `claim_${'a'.repeat(16)}`, rationale: 'x' }, 404, 'UNKNOWN_CLAIM'],
      ];
      for (const [body, status, code] of cases) {
        const r = await api('POST', '/objects/ops.backups/resolve', t.eddie, body);
        expect([r.status, r.body.error.code], JSON.stringify(body)).toEqual([status, code]);
      }
      const viaProposals = await api('POST', '/proposals', t.eddie, {
        object_id: 'ops.backups',
        intent: 'resolve',
        base_version: disputed.body.committed.version_hash,
        candidate: { object_type: 'fact', title: 'Backups', text: 'Something else.' },
        claim_id: claims[1].claim_id,
        rationale: 'x',
      });
      expect([viaProposals.status, viaProposals.body.error.code]).toEqual([
        400,
        'INVALID_PROPOSAL',
      ]);
      const byViewer = await api('POST', '/objects/ops.backups/resolve', t.vera, {
        claim_id: claims[1].claim_id,
        rationale: 'x',
      });
      expect(byViewer.status).toBe(403);
      expect(await canonState(env.runtime)).toEqual(before);

      // The agent resolves: held for an editor.
      const why = 'The cron table was changed on Monday.';
      const held = await api('POST', '/objects/ops.backups/resolve', t.bot, {
        claim_id: claims[1].claim_id,
        rationale: why,
      });
      expect(held.status).toBe(201);
      expect(held.body.proposal).toMatchObject({
        intent: 'resolve',
        claim_id: claims[1].claim_id,
        rationale: why,
        status: 'pending',
        required_role: 'editor',
      });
      const heldView = await api('GET', `/proposals/${held.body.proposal.proposal_id}`, t.vera);
      expect(heldView.body).toMatchObject({
        claim: null,
        claim_id: claims[1].claim_id,
        rationale: why,
      });
      const approved = await api(
        'POST',
        `/proposals/${held.body.proposal.proposal_id}/approve`,
        t.eddie,
      );
      expect(approved.status).toBe(200);
      expect(approved.body.committed.resolution).toEqual({
        claim_id: claims[1].claim_id,
        statement: CLAIM,
        rationale: why,
        set_aside: [claims[0].claim_id],
      });
      const check = approved.body.receipt.checks.find(
        (c: { name: string }) => c.name === 'dispute_resolved',
      );
      expect(check.detail).toContain(why);

      const after = await api('GET', '/objects/ops.backups/provenance', t.vera);
      expect(after.body.object).toMatchObject({ status: 'active', text: CLAIM });
      expect(after.body.claims.map((c: { state: string }) => c.state)).toEqual([
        'set_aside',
        'stands',
      ]);
      expect(after.body.resolution.rationale).toBe(why);
      expect(after.body.authorized_by).toMatchObject({
        proposer: { id: 'bot', role: 'agent' },
        approver: { id: 'eddie', role: 'editor' },
      });
    });
  });
}
