// LCSM §8 provenance walk and §3 restore-as-append on a real runtime, for each storage engine. One
// object with several versions (the last approved by an editor), a supersede, an archived source, a
// dependent object and artifacts built from an old and from the current version answers every §8
// question. Restore appends a new version equal in content to the old one; the history keeps every
// version and never shrinks (also as a property over random edit/restore sequences); provenance's
// `restorable` lists every non-current version.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import {
  type NoteVersion,
  type Provenance,
  provenance,
  registerArtifact,
} from '../../src/canon/index.js';
import { type ContentHash, contentHash } from '../../src/core/index.js';
import {
  archivedSource,
  CANON_ENGINES,
  create,
  currentHash,
  type EngineRuntime,
  expectCode,
  note,
  PROJECT,
  principals,
  update,
} from '../helpers/canon.js';

const { owner, editor, agent } = principals();
const ID = 'api.latency';

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`LCSM §8 provenance and §3 restore on ${engine.name}`, () => {
    let env: EngineRuntime;
    let runtime: CanonryRuntime;
    let walk: Provenance;
    const v: NoteVersion[] = [];
    let sourceMessage: string;
    let approvalProposal: string;
    beforeAll(async () => {
      env = await engine.open();
      runtime = env.runtime;
      const reader = runtime.canon.reader(PROJECT);
      // An older object the constraint will replace.
      await create(runtime, owner, 'old.timeout', {
        object_type: 'constraint',
        text: 'Requests time out after 5 s.',
      });
      const src = await archivedSource(
        runtime,
        owner,
        'From the SLO review: the API must answer within 300 ms at p99.',
        'the API must answer within 300 ms at p99',
      );
      sourceMessage = src.message_id;
      // v1: supersedes old.timeout (a constraint: S2, the owner auto-commits).
      const made = await runtime.canon.propose(owner, {
        object_id: ID,
        intent: 'supersede',
        base_version: null,
        supersedes: ['old.timeout'],
        candidate: note({
          object_type: 'constraint',
          title: 'API latency',
          text: 'The API must answer within 300 ms.',
          confidence_state: 'sourced',
          sources: [src.source],
        }),
      });
      expect(made.proposal.status).toBe('committed');
      v.push(made.committed!);
      // An artifact built from v1.
      await registerArtifact(runtime.canon, owner, {
        artifact_id: 'slo-report',
        title: 'SLO report',
        canonical_note_versions: [{ object_id: ID, version_hash: v[0]!.version_hash }],
        output_digest: contentHash({ report: 1 }),
      });
      // v2: the owner tightens it.
      v.push(
        (await update(runtime, owner, ID, { text: 'The API must answer within 250 ms.' }))
          .committed!,
      );
      // v3: an agent proposes, an editor approves.
      const proposed = await update(runtime, agent, ID, {
        text: 'The API must answer within 250 ms. Batch endpoints are exempt.',
      });
      expect(proposed.proposal.status).toBe('pending');
      approvalProposal = proposed.proposal.proposal_id;
      v.push((await runtime.canon.approve(editor, approvalProposal)).committed!);
      // A dependent object and an artifact built from the current version.
      await create(runtime, owner, 'client.retry', {
        text: 'The client retries after 250 ms.',
        dependency_refs: [ID],
      });
      await registerArtifact(runtime.canon, owner, {
        artifact_id: 'gateway-config',
        canonical_note_versions: [{ object_id: ID, version_hash: v[2]!.version_hash }],
        tool_or_model_refs: ['config-generator'],
        output_digest: contentHash({ gateway: 250 }),
      });
      expect((await reader.versions(ID)).map((x) => x.version_id)).toEqual([1, 2, 3]);
      walk = await provenance(runtime.canon, PROJECT, ID);
    });
    afterAll(async () => env?.close());

    it('why does the project believe this, and which source supports it?', async () => {
      expect(walk.why.statement).toBe(
        'The API must answer within 250 ms. Batch endpoints are exempt.',
      );
      expect(walk.why.confidence).toBe('sourced');
      expect(walk.why.sources).toHaveLength(1);
      const [s] = walk.why.sources;
      expect(s).toMatchObject({
        message_id: sourceMessage,
        quote: 'the API must answer within 300 ms at p99',
        speaker: 'user',
        actor: owner.id,
      });
      const message = (await runtime.canon.reader(PROJECT).message(sourceMessage))!;
      expect(message.text.slice(s!.span[0], s!.span[1])).toBe(s!.quote);
    });

    it('when did this become current?', async () => {
      expect(walk.current_since).toMatchObject({
        version_id: 3,
        timestamp: v[2]!.timestamp,
        receipt_ref: v[2]!.receipt_ref,
      });
      const seq = Number(v[2]!.receipt_ref.split('#')[1]);
      expect(walk.current_since.receipt).toEqual(await runtime.journal.receipt(PROJECT, seq));
      expect(walk.current_since.receipt!.result_state_ref.seq).toBe(seq);
      const [entry] = await runtime.journal.read(PROJECT, { after: seq - 1, limit: 1 });
      expect(entry!.kind).toBe('canon.commit');
    });

    it('who authorized it?', async () => {
      const proposal = (await runtime.canon.reader(PROJECT).proposal(approvalProposal))!;
      expect(walk.authorized_by).toEqual({
        proposer: { id: agent.id, role: 'agent' },
        approver: { id: editor.id, role: 'editor' },
        gate: 'REQUIRE_CONFIRMATION',
        stakes: 'S2',
        gate_event: proposal.gate.event_hash,
        gate_protocol: runtime.canon.gate.hash,
      });
    });

    it('what did it replace?', () => {
      expect(walk.replaced.previous_version).toEqual(v[1]);
      expect(walk.replaced.superseded_objects.map((o) => o.object_id)).toEqual(['old.timeout']);
      expect(walk.replaced.superseded_objects[0]).toMatchObject({
        status: 'superseded',
        superseded_by: ID,
      });
    });

    it('which artifact was built from the old version?', () => {
      expect(walk.built_from_old).toEqual([{ artifact_id: 'slo-report', version_id: 1 }]);
    });

    it('what becomes stale if this changes?', () => {
      expect(walk.stale_if_changed.objects).toEqual(['client.retry']);
      expect(walk.stale_if_changed.artifacts.map((a) => [a.manifest.artifact_id, a.state])).toEqual(
        [['gateway-config', 'current']],
      );
    });

    it('can it be restored, and to what?', () => {
      expect(walk.restorable.map((r) => [r.version_id, r.version_hash, r.text])).toEqual([
        [1, v[0]!.version_hash, 'The API must answer within 300 ms.'],
        [2, v[1]!.version_hash, 'The API must answer within 250 ms.'],
      ]);
    });

    it('is it fact, preference, policy, inference or uncertainty?', async () => {
      expect(walk.epistemic).toBe('policy');
      expect(walk.history.map((h) => h.version_hash)).toEqual(v.map((x) => x.version_hash));
      const kinds: [string, Parameters<typeof note>[0], Provenance['epistemic']][] = [
        ['ep.fact', { object_type: 'fact' }, 'fact'],
        ['ep.pref', { object_type: 'preference' }, 'preference'],
        ['ep.policy', { object_type: 'policy' }, 'policy'],
        ['ep.decision', { object_type: 'decision' }, 'decision'],
        ['ep.inferred', { object_type: 'fact', confidence_state: 'inferred' }, 'inference'],
        ['ep.question', { object_type: 'question', text: 'Is it fast?' }, 'uncertainty'],
        ['ep.uncertain', { object_type: 'fact', confidence_state: 'uncertain' }, 'uncertainty'],
        ['ep.disputed', { object_type: 'fact', status: 'disputed' }, 'dispute'],
      ];
      for (const [id, candidate, expected] of kinds) {
        const o = await create(runtime, owner, id, candidate);
        expect(o.proposal.status, id).toBe('committed');
        expect((await provenance(runtime.canon, PROJECT, id)).epistemic, id).toBe(expected);
      }
    });

    it('a superseded object still walks, pointing at what replaced it', async () => {
      const old = await provenance(runtime.canon, PROJECT, 'old.timeout');
      expect(old.object).toMatchObject({ status: 'superseded', superseded_by: ID });
      expect(old.history).toHaveLength(1);
      expect(old.restorable).toEqual([]);
    });

    it('an unknown object → UNKNOWN_OBJECT', async () => {
      await expectCode(provenance(runtime.canon, PROJECT, 'no.such'), 'UNKNOWN_OBJECT');
      await expectCode(provenance(runtime.canon, 'elsewhere', ID), 'UNKNOWN_OBJECT');
    });

    describe('restore appends; it never rewinds', () => {
      it('restoring v1 appends v4 equal in content to v1 and keeps v1–v3', async () => {
        const reader = runtime.canon.reader(PROJECT);
        const before = await reader.versions(ID);
        const restored = await runtime.canon.restore(owner, ID, v[0]!.version_hash);
        expect(restored.proposal).toMatchObject({
          intent: 'restore',
          restore_version: v[0]!.version_hash,
          status: 'committed',
        });
        const v4 = restored.committed!;
        expect(v4.version_id).toBe(4);
        expect(v4.parent_version_hash).toBe(v[2]!.version_hash);
        expect(v4.content).toEqual(v[0]!.content);
        expect(v4.version_hash).not.toBe(v[0]!.version_hash);
        const after = await reader.versions(ID);
        expect(after.slice(0, before.length)).toEqual(before);
        expect(after).toHaveLength(before.length + 1);
        expect((await reader.object(ID))!).toMatchObject({
          current_version_ref: v4.version_hash,
          text: 'The API must answer within 300 ms.',
          version_id: 4,
        });
        const walked = await provenance(runtime.canon, PROJECT, ID);
        expect(walked.restorable.map((r) => r.version_id)).toEqual([1, 2, 3]);
        expect(walked.replaced.previous_version).toEqual(v[2]);
        // Both artifacts were now built from old versions.
        expect(walked.built_from_old).toEqual([
          { artifact_id: 'gateway-config', version_id: 3 },
          { artifact_id: 'slo-report', version_id: 1 },
        ]);
        // The cascade re-evaluates every dependent: the artifact built from v1 now only possibly
        // stale (its statement is back), the one built from v3 to regenerate, the note to revise.
        expect(restored.receipt.affected_dependents).toEqual([
          {
            id: 'gateway-config',
            kind: 'artifact',
            depth: 1,
            state: 'requires_regeneration',
            cause: `${ID} changed, now v4`,
          },
          {
            id: 'slo-report',
            kind: 'artifact',
            depth: 1,
            state: 'possibly_stale',
            cause: `${ID} now v4, statement unchanged`,
          },
          {
            id: 'client.retry',
            kind: 'note',
            depth: 1,
            state: 'needs_revision',
            cause: `${ID} moved v3 → v4`,
          },
        ]);
      });

      it('a version of another object, or an unknown hash, cannot be restored', async () => {
        const other = await currentHash(runtime, 'client.retry');
        await expectCode(runtime.canon.restore(owner, ID, other), 'UNKNOWN_VERSION');
        await expectCode(
          runtime.canon.restore(owner, ID, `sha256:${'0'.repeat(64)}` as ContentHash),
          'UNKNOWN_VERSION',
        );
        await expectCode(
          runtime.canon.restore(owner, 'no.such', v[0]!.version_hash),
          'UNKNOWN_OBJECT',
        );
      });

      it('a superseded object restored comes back active', async () => {
        const [old] = await runtime.canon.reader(PROJECT).versions('old.timeout');
        const restored = await runtime.canon.restore(owner, 'old.timeout', old!.version_hash);
        expect(restored.committed!.content).toEqual(old!.content);
        expect((await runtime.canon.reader(PROJECT).object('old.timeout'))!).toMatchObject({
          status: 'active',
          superseded_by: null,
          version_id: 2,
        });
      });

      it('property: under any sequence of edits and restores, history only grows', async () => {
        let run = 0;
        await fc.assert(
          fc.asyncProperty(
            fc.array(
              fc.oneof(
                fc.record({
                  op: fc.constant('edit' as const),
                  text: fc.constantFrom('A.', 'B.', 'C.'),
                }),
                fc.record({ op: fc.constant('restore' as const), pick: fc.nat() }),
              ),
              { minLength: 1, maxLength: 5 },
            ),
            async (ops) => {
              const id = `prop.${++run}`;
              await create(runtime, owner, id, { text: 'Start.' });
              const reader = runtime.canon.reader(PROJECT);
              let history = await reader.versions(id);
              for (const step of ops) {
                if (step.op === 'edit') {
                  await update(runtime, owner, id, { text: step.text });
                } else {
                  const target = history[step.pick % history.length]!;
                  const r = await runtime.canon.restore(owner, id, target.version_hash);
                  expect(r.committed!.content).toEqual(target.content);
                }
                const next = await reader.versions(id);
                expect(next).toHaveLength(history.length + 1);
                expect(next.slice(0, history.length)).toEqual(history);
                expect(next.at(-1)!.parent_version_hash).toBe(history.at(-1)!.version_hash);
                history = next;
              }
              const walked = await provenance(runtime.canon, PROJECT, id);
              expect(walked.restorable.map((r) => r.version_id)).toEqual(
                history.slice(0, -1).map((h) => h.version_id),
              );
              expect(walked.history).toEqual(history);
            },
          ),
          { numRuns: 8 },
        );
      });
    });
  });
}
