// LCSM §6 stakes gate on a real runtime, for each storage engine: the outcome by role × stakes, the
// verdict as a kernel-signed conformance event that verifies offline against the pinned root (and
// re-derives from the gate input and protocol), the commit receipt that references it, the approval
// rules (an agent never approves; an editor approves confirmation but not a hard stop; the owner
// approves both), and a gate that refuses — or cannot judge — fails closed with the refusal journaled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import { gateInput } from '../../src/canon/gate.js';
import {
  Canon,
  DEFAULT_GATE_PROTOCOL,
  type NoteContent,
  type ProposalOutcome,
  type Role,
  type Stakes,
} from '../../src/canon/index.js';
import { contentHash } from '../../src/core/index.js';
import { compileProtocol, verifyConformanceEvent } from '../../src/kernel/index.js';
import { Keyring } from '../../src/trust/index.js';
import {
  CANON_ENGINES,
  canonState,
  create,
  type EngineRuntime,
  expectCode,
  note,
  PROJECT,
  principal,
  principals,
  update,
} from '../helpers/canon.js';
import { tempDir } from '../helpers/runtime.js';

const { owner, editor, agent, viewer } = principals();

/** A candidate of each stakes level when created. */
const AT: Record<Exclude<Stakes, 'S0'>, Partial<NoteContent>> = {
  S1: { object_type: 'fact' },
  S2: { object_type: 'decision' },
  S3: { object_type: 'fact', tags: ['identity'] },
};

const EXPECTED: Record<Exclude<Role, 'viewer'>, Record<Exclude<Stakes, 'S0'>, string>> = {
  owner: { S1: 'AUTO_COMMIT', S2: 'AUTO_COMMIT', S3: 'HARD_STOP' },
  editor: { S1: 'AUTO_COMMIT', S2: 'AUTO_COMMIT', S3: 'HARD_STOP' },
  agent: { S1: 'AUTO_COMMIT', S2: 'REQUIRE_CONFIRMATION', S3: 'HARD_STOP' },
  tool: { S1: 'AUTO_COMMIT', S2: 'REQUIRE_CONFIRMATION', S3: 'HARD_STOP' },
};

let otherRoot: string;
let cleanupRoot: () => void;
beforeAll(async () => {
  const dir = tempDir();
  cleanupRoot = dir.cleanup;
  otherRoot = (await Keyring.init(dir.dir)).rootCertificatePem;
});
afterAll(() => cleanupRoot?.());

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`LCSM §6 stakes gate on ${engine.name}`, () => {
    let env: EngineRuntime;
    let runtime: CanonryRuntime;
    let n = 0;
    const fresh = (prefix: string) => `${prefix}.${++n}`;
    beforeAll(async () => {
      env = await engine.open();
      runtime = env.runtime;
    });
    afterAll(async () => env?.close());

    describe('outcome by role × stakes', () => {
      for (const role of ['owner', 'editor', 'agent', 'tool'] as const) {
        for (const stakes of ['S1', 'S2', 'S3'] as const) {
          const label = EXPECTED[role][stakes];
          it(`${role} at ${stakes} → ${label}`, async () => {
            const who = principals()[role];
            const id = fresh(`g.${role}-${stakes.toLowerCase()}`);
            const o = await create(runtime, who, id, AT[stakes]);
            expect(o.proposal.comparison.stakes).toBe(stakes);
            expect(o.proposal.gate.label).toBe(label);
            const object = await runtime.canon.reader(PROJECT).object(id);
            if (label === 'AUTO_COMMIT') {
              expect(o.proposal).toMatchObject({ status: 'committed', required_role: null });
              expect(o.committed?.note_id).toBe(id);
              expect(object?.current_version_ref).toBe(o.committed!.version_hash);
            } else {
              expect(o.proposal).toMatchObject({
                status: 'pending',
                required_role: label === 'HARD_STOP' ? 'owner' : 'editor',
              });
              expect(o.committed).toBeNull();
              expect(object).toBeNull();
            }
          });
        }
      }

      it('S0 (a title fix) auto-commits for the owner', async () => {
        const id = fresh('g.s0');
        await create(runtime, owner, id, { title: 'Draft' });
        const o = await update(runtime, owner, id, { title: 'Final' });
        expect(o.proposal.comparison.stakes).toBe('S0');
        expect(o.proposal.gate.label).toBe('AUTO_COMMIT');
      });

      // The default gate holds an agent back only for removed information, a source or authority
      // change, or a suggestion turned directive: a title fix of its own note has none of them.
      it("an agent's S0 title fix of its own note auto-commits", async () => {
        const id = fresh('g.agent-s0');
        const made = await create(runtime, agent, id, { title: 'Draft' });
        expect(made.proposal.gate.label).toBe('AUTO_COMMIT');
        const o = await update(runtime, agent, id, { title: 'Final' });
        expect(o.proposal.comparison.stakes).toBe('S0');
        expect(o.proposal.comparison.checks.source_or_authority_change.result).toBe(false);
        expect(o.proposal.gate.label).toBe('AUTO_COMMIT');
      });

      it.each(['S1', 'S2', 'S3'] as const)(
        'a viewer at %s is FORBIDDEN and nothing is journaled',
        async (stakes) => {
          const before = await canonState(runtime);
          await expectCode(create(runtime, viewer, fresh('g.viewer'), AT[stakes]), 'FORBIDDEN');
          expect(await canonState(runtime)).toEqual(before);
        },
      );
    });

    describe('the verdict is a kernel-signed conformance event', () => {
      const check = async (o: ProposalOutcome, commitReceipt: ProposalOutcome['receipt']) => {
        const { gate, comparison } = o.proposal;
        const event = gate.event!;
        expect(event).not.toBeNull();
        expect(event.label).toBe(gate.label);
        expect(contentHash(event)).toBe(gate.event_hash);
        const root = runtime.keyring.rootCertificatePem;
        // Offline, with only the pinned root.
        const verified = verifyConformanceEvent(event, { root });
        expect(verified.ok).toBe(true);
        // Re-derived: the gate input canon computed, and the protocol, resolve to this label.
        const input = gateInput(
          comparison,
          o.proposal.proposer.role,
          o.proposal.intent,
          o.proposal.candidate.object_type,
        );
        expect(contentHash(input)).toBe(gate.input_hash);
        expect(event.artifact_hash).toBe(gate.input_hash);
        expect(gate.protocol_hash).toBe(compileProtocol(DEFAULT_GATE_PROTOCOL).hash);
        expect(
          verifyConformanceEvent(event, { root, artifact: input, protocol: DEFAULT_GATE_PROTOCOL })
            .ok,
        ).toBe(true);
        // A different verdict for the same input does not verify; nor does another root.
        const forged = {
          ...event,
          label: 'AUTO_COMMIT' === event.label ? 'HARD_STOP' : 'AUTO_COMMIT',
        };
        expect(verifyConformanceEvent(forged, { root }).ok).toBe(false);
        expect(verifyConformanceEvent(event, { root: otherRoot }).ok).toBe(false);
        const lied = { ...input, role: 'owner', within_authority: true };
        if (o.proposal.proposer.role !== 'owner') {
          expect(verifyConformanceEvent(event, { root, artifact: lied }).ok).toBe(false);
        }
        // The commit receipt references the signed verdict by hash.
        const stakesGate = commitReceipt.checks.find((c) => c.name === 'stakes_gate')!;
        expect(stakesGate.result).toBe('pass');
        expect(stakesGate.detail).toContain(gate.event_hash!);
        const version = (await runtime.canon.reader(PROJECT).current(o.proposal.object_id))!;
        expect(version.authority).toMatchObject({
          gate: gate.label,
          gate_event: gate.event_hash,
          proposal_id: o.proposal.proposal_id,
        });
        const entry = (
          await runtime.journal.read(PROJECT, {
            after: commitReceipt.result_state_ref.seq - 1,
            limit: 1,
          })
        )[0]!;
        expect(entry.kind).toBe('canon.commit');
        expect(
          (entry.body as { operation: { policy_result: unknown } }).operation.policy_result,
        ).toEqual({
          label: gate.label,
          event_hash: gate.event_hash,
          protocol_hash: gate.protocol_hash,
        });
      };

      it('AUTO_COMMIT: the commit of the same transaction references it', async () => {
        const o = await create(runtime, owner, fresh('v.auto'));
        expect(o.proposal.gate.label).toBe('AUTO_COMMIT');
        await check(o, o.receipt);
      });

      it('REQUIRE_CONFIRMATION: the approved commit references it', async () => {
        const o = await create(runtime, agent, fresh('v.confirm'), AT.S2);
        expect(o.proposal.gate.label).toBe('REQUIRE_CONFIRMATION');
        // The pending proposal's own receipt is the proposal entry, not a commit.
        expect(o.receipt.checks.map((c) => c.name)).toEqual(['hash-chain']);
        const approved = await runtime.canon.approve(editor, o.proposal.proposal_id);
        await check(o, approved.receipt);
        expect(approved.receipt.checks.find((c) => c.name === 'stakes_gate')!.detail).toContain(
          `approved by ${editor.id} (editor)`,
        );
      });

      it('HARD_STOP: the owner-approved commit references it', async () => {
        const o = await create(runtime, editor, fresh('v.hard'), AT.S3);
        expect(o.proposal.gate.label).toBe('HARD_STOP');
        const approved = await runtime.canon.approve(owner, o.proposal.proposal_id);
        await check(o, approved.receipt);
      });
    });

    describe('approval rules', () => {
      const pending = async (who = agent, stakes: 'S2' | 'S3' = 'S2') => {
        const o = await create(runtime, who, fresh(`a.${stakes}`), AT[stakes]);
        expect(o.proposal.status).toBe('pending');
        return o.proposal.proposal_id;
      };

      it('an agent can never approve: not confirmation, not a hard stop, not its own', async () => {
        const other = principal('agent-9', 'agent');
        for (const id of [await pending(), await pending(agent, 'S3')]) {
          const before = await canonState(runtime);
          await expectCode(runtime.canon.approve(agent, id), 'FORBIDDEN');
          await expectCode(runtime.canon.approve(other, id), 'FORBIDDEN');
          expect(await canonState(runtime)).toEqual(before);
        }
      });

      it('a viewer can never approve', async () => {
        await expectCode(runtime.canon.approve(viewer, await pending()), 'FORBIDDEN');
      });

      it('an editor approves REQUIRE_CONFIRMATION', async () => {
        const id = await pending();
        const o = await runtime.canon.approve(editor, id);
        expect(o.proposal).toMatchObject({
          status: 'committed',
          decided_by: { id: editor.id, role: 'editor' },
        });
        expect(o.committed!.authority).toMatchObject({
          proposer: { id: agent.id, role: 'agent' },
          approver: { id: editor.id, role: 'editor' },
        });
        expect(o.committed!.actor).toBe(editor.id);
      });

      it('an editor cannot approve HARD_STOP; the owner can', async () => {
        const id = await pending(editor, 'S3');
        const before = await canonState(runtime);
        const err = await expectCode(runtime.canon.approve(editor, id), 'FORBIDDEN');
        expect(err.details).toMatchObject({ required_role: 'owner' });
        expect(await canonState(runtime)).toEqual(before);
        const o = await runtime.canon.approve(owner, id);
        expect(o.proposal.status).toBe('committed');
        expect(o.committed!.authority).toMatchObject({ approver: { role: 'owner' } });
      });

      it('the owner approves REQUIRE_CONFIRMATION too', async () => {
        const o = await runtime.canon.approve(owner, await pending());
        expect(o.proposal.status).toBe('committed');
      });

      it('a closed or unknown proposal, or one of another project, cannot be approved', async () => {
        const id = await pending();
        await runtime.canon.approve(editor, id);
        await expectCode(runtime.canon.approve(owner, id), 'PROPOSAL_CLOSED');
        await expectCode(runtime.canon.approve(owner, 'prop_0000000000000000'), 'UNKNOWN_PROPOSAL');
        const elsewhere = principal('olivia', 'owner', 'elsewhere');
        await expectCode(runtime.canon.approve(elsewhere, await pending()), 'UNKNOWN_PROPOSAL');
      });

      it('rejecting: the proposer may withdraw; another agent or a viewer may not', async () => {
        const id = await pending();
        await expectCode(
          runtime.canon.reject(principal('agent-9', 'agent'), id, 'no'),
          'FORBIDDEN',
        );
        await expectCode(runtime.canon.reject(viewer, id, 'no'), 'FORBIDDEN');
        const withdrawn = await runtime.canon.reject(agent, id, 'withdrawn');
        expect(withdrawn).toMatchObject({ status: 'rejected', reason: 'withdrawn' });
        await expectCode(runtime.canon.approve(owner, id), 'PROPOSAL_CLOSED');
      });
    });

    describe('a gate that refuses fails closed', () => {
      const withGate = (protocol: unknown) =>
        new Canon({
          journal: runtime.journal,
          kernel: runtime.kernel,
          gate: compileProtocol(protocol),
        });

      it('REJECT: the refusal is journaled, GATE_REFUSED is thrown, canon does not move', async () => {
        const strict = withGate({
          ...DEFAULT_GATE_PROTOCOL,
          slug: 'test.reject-agents',
          rules: [
            { label: 'REJECT', condition: { '==': [{ var: 'role' }, 'agent'] } },
            ...DEFAULT_GATE_PROTOCOL.rules,
          ],
        });
        const id = fresh('r.reject');
        const before = await canonState(runtime);
        const err = await expectCode(
          strict.propose(agent, {
            object_id: id,
            intent: 'create',
            base_version: null,
            candidate: note(),
          }),
          'GATE_REFUSED',
        );
        const after = await canonState(runtime);
        expect(after.objects).toEqual(before.objects);
        expect(after.versions).toEqual(before.versions);
        expect(after.head.seq).toBe(before.head.seq + 1);
        const proposalId = (err.details as { proposal_id: string }).proposal_id;
        const refused = (await runtime.canon.reader(PROJECT).proposal(proposalId))!;
        expect(refused).toMatchObject({ status: 'rejected', gate: { label: 'REJECT' } });
        expect(
          verifyConformanceEvent(refused.gate.event, { root: runtime.keyring.rootCertificatePem })
            .ok,
        ).toBe(true);
        await expectCode(runtime.canon.approve(owner, proposalId), 'PROPOSAL_CLOSED');
      });

      it('a gate that cannot judge the input (non-conformant) refuses, unsigned', async () => {
        const constraints = DEFAULT_GATE_PROTOCOL.constraints as {
          required: string[];
          properties: Record<string, unknown>;
        };
        const blind = withGate({
          ...DEFAULT_GATE_PROTOCOL,
          slug: 'test.needs-a-ticket',
          constraints: {
            ...constraints,
            required: [...constraints.required, 'ticket'],
            properties: { ...constraints.properties, ticket: { type: 'string' } },
          },
        });
        const before = await canonState(runtime);
        const err = await expectCode(
          blind.propose(owner, {
            object_id: fresh('r.blind'),
            intent: 'create',
            base_version: null,
            candidate: note(),
          }),
          'GATE_REFUSED',
        );
        const after = await canonState(runtime);
        expect(after.objects).toEqual(before.objects);
        expect(after.versions).toEqual(before.versions);
        const refused = (await runtime.canon
          .reader(PROJECT)
          .proposal((err.details as { proposal_id: string }).proposal_id))!;
        expect(refused.gate).toMatchObject({ label: 'REJECT', event: null, event_hash: null });
      });
    });
  });
}
