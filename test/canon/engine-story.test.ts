// LCSM §1 end to end on a real runtime, on each storage engine: the seven-event story through the
// governed loop. The final board holds the violet identity as current truth and the red colour as
// superseded; the assistant's blue position was refused and the blue component is rejected and
// stale; every commit's receipt carries the §7 fields and the stakes-gate check; the agent capsule
// carries the current identity and none of the obsolete positions; the chain verifies against the
// pinned root; and rebuilding the project from the journal alone leaves every canon table identical.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanonryRuntime, runLcsmStory, type StoryResult } from '../../src/app/index.js';
import type { CommitBody, ProposalRecord } from '../../src/canon/index.js';
import { contentHash } from '../../src/core/index.js';
import {
  type JournalEntry,
  rebuildProject,
  receiptFor,
  verifyProject,
} from '../../src/journal/index.js';
import {
  CANON_ENGINES,
  canonContent,
  canonTables,
  type EngineRuntime,
  section,
} from '../helpers/canon.js';

const DEMO = 'demo';

/** The §7 receipt fields. */
const RECEIPT_FIELDS = [
  'receipt_id',
  'request_ref',
  'prior_state_ref',
  'result_state_ref',
  'checks',
  'warnings',
  'uncertainty',
  'affected_dependents',
  'rollback_route',
  'acceptance_state',
  'hash_chain_parent',
  'receipt_hash',
];
/** The §7 journal-operation fields. */
const OPERATION_FIELDS = [
  'operation_id',
  'operation_type',
  'target_object',
  'prior_version',
  'candidate_version',
  'acting_actor',
  'authority_basis',
  'source_refs',
  'policy_result',
  'timestamp',
  'correlation_id',
];
/** The §5 checks every commit receipt reports, then the gate. */
const CHECKS = [
  'hash-chain',
  'information_removed',
  'source_or_authority_change',
  'certainty_raised_without_evidence',
  'suggestion_to_directive',
  'dispute_collapsed',
  'dependents_made_stale',
  'reversible',
  'within_authority',
  'stakes_gate',
];

async function allEntries(runtime: CanonryRuntime, project: string): Promise<JournalEntry[]> {
  const out: JournalEntry[] = [];
  for (;;) {
    const page = await runtime.journal.read(project, { after: out.length, limit: 1_000 });
    out.push(...page);
    if (page.length < 1_000) return out;
  }
}

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`the LCSM §1 story on ${engine.name}`, () => {
    let env: EngineRuntime;
    let runtime: CanonryRuntime;
    let story: StoryResult;
    let proposals: ProposalRecord[];
    /** The canon tables exactly as the live appends wrote them, before any rebuild. */
    let live: Record<string, unknown[]>;
    beforeAll(async () => {
      env = await engine.open();
      runtime = env.runtime;
      story = await runLcsmStory(runtime);
      proposals = await runtime.canon.reader(DEMO).proposals();
      live = await canonTables(runtime.store, DEMO);
    });
    afterAll(async () => env?.close());

    it('runs all seven events', () => {
      expect(story.steps.map((s) => s.n)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    });

    it('the board: design.identity active and current, ui.colour superseded by it', async () => {
      const reader = runtime.canon.reader(DEMO);
      const active = story.board.active ?? [];
      expect(active.map((o) => o.object_id)).toEqual(['design.identity']);
      const identity = (await reader.object('design.identity'))!;
      expect(identity).toMatchObject({
        status: 'active',
        object_type: 'decision',
        superseded_by: null,
      });
      const current = (await reader.current('design.identity'))!;
      expect(identity.current_version_ref).toBe(current.version_hash);
      expect(current.content.text).toContain('violet');
      const colour = (await reader.object('ui.colour'))!;
      expect(colour).toMatchObject({ status: 'superseded', superseded_by: 'design.identity' });
      expect((story.board.superseded ?? []).map((o) => o.object_id)).toEqual(['ui.colour']);
      // History is kept: the red positions are versions of the superseded object, not erased.
      const history = await reader.versions('ui.colour');
      expect(history.map((v) => v.version_id)).toEqual([1, 2]);
      expect(history.every((v) => /red/i.test(v.content.text))).toBe(true);
    });

    it("the assistant's blue proposal was rejected, never committed", () => {
      const blue = proposals.filter((p) => p.proposer.role === 'agent');
      expect(blue).toHaveLength(1);
      expect(blue[0]).toMatchObject({
        object_id: 'ui.colour',
        status: 'rejected',
        gate: { label: 'REQUIRE_CONFIRMATION' },
        decided_by: { id: 'alice', role: 'owner' },
      });
      expect(blue[0]!.candidate.text).toMatch(/blue/i);
      expect(blue[0]!.candidate.status).toBe('provisional');
    });

    it('the blue artifact is rejected and stale', () => {
      const artifact = story.artifacts.find(
        (a) => a.manifest.artifact_id === 'settings-blue-button',
      );
      expect(artifact).toBeDefined();
      expect(artifact!.manifest.acceptance_state).toBe('rejected');
      expect(artifact!.state).toBe('definitely_stale');
      expect(artifact!.reasons.join(' ')).toContain('superseded');
    });

    it('every commit receipt carries the §7 fields, the §5 checks and the gate check', async () => {
      const commits = (await allEntries(runtime, DEMO)).filter((e) => e.kind === 'canon.commit');
      // red, red again, violet.
      expect(commits).toHaveLength(3);
      for (const entry of commits) {
        const body = entry.body as unknown as CommitBody;
        expect(Object.keys(body.operation).sort()).toEqual([...OPERATION_FIELDS].sort());
        const receipt = (await runtime.journal.receipt(DEMO, entry.seq))!;
        expect(receipt).not.toBeNull();
        expect(Object.keys(receipt).sort()).toEqual([...RECEIPT_FIELDS].sort());
        // The stored receipt is exactly the one derived from the entry (what a rebuild reproduces).
        expect(receipt).toEqual(receiptFor(entry));
        const { receipt_hash, ...unhashed } = receipt;
        expect(receipt_hash).toBe(contentHash(unhashed));
        expect(receipt.result_state_ref).toEqual({ seq: entry.seq, hash: entry.hash });
        expect(receipt.hash_chain_parent).toBe(entry.prev_hash);
        expect(receipt.request_ref).toBe(body.proposal_id);
        expect(receipt.checks.map((c) => c.name)).toEqual(CHECKS);
        const proposal = proposals.find((p) => p.proposal_id === body.proposal_id)!;
        expect(proposal.status).toBe('committed');
        const gate = receipt.checks.find((c) => c.name === 'stakes_gate')!;
        expect(proposal.gate.event_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
        expect(gate.detail).toContain(proposal.gate.event_hash!);
        expect(gate.detail).toContain(proposal.gate.label);
        expect(body.operation.policy_result).toEqual({
          label: proposal.gate.label,
          event_hash: proposal.gate.event_hash,
          protocol_hash: proposal.gate.protocol_hash,
        });
        expect(body.operation.candidate_version).toBe(body.version.version_hash);
        expect(body.operation.target_object).toBe(proposal.object_id);
      }
      const violet = commits.at(-1)!;
      const body = violet.body as unknown as CommitBody;
      expect(body.operation).toMatchObject({
        operation_type: 'supersede',
        target_object: 'design.identity',
        prior_version: null,
        acting_actor: 'alice',
        source_refs: ['spec-v2[16:65]'],
      });
      expect(body.supersedes).toEqual(['ui.colour']);
      const gate = (await runtime.journal.receipt(DEMO, violet.seq))!.checks.find(
        (c) => c.name === 'stakes_gate',
      )!;
      expect(gate.detail).toMatch(/^S3 → HARD_STOP, approved by alice \(owner\)/);
    });

    it('the step receipts are the journal receipts of those steps', async () => {
      for (const step of story.steps) {
        for (const receipt of step.receipts) {
          const stored = await runtime.journal.receipt(DEMO, receipt.result_state_ref.seq);
          expect(stored).toEqual(receipt);
        }
      }
    });

    it('the working-set capsule holds violet, not blue as a position nor the red text', () => {
      const set = story.workingSet;
      const capsule = set.capsule;
      expect(capsule).toContain('violet');
      const current = section(capsule, 'Current notes');
      expect(current).toContain('violet');
      // The owner confirmed her own HARD_STOP proposal.
      expect(current).toContain('  S3 supersede by ');
      expect(current).toContain(', self-approved, gate HARD_STOP; source ');
      expect(current).not.toMatch(/blue/i);
      expect(set.notes.map((n) => n.object_id)).toEqual(['design.identity']);
      // Blue is nowhere a position: no note, policy, dependency, uncertainty or pending proposal.
      const positions = [
        ...set.notes,
        ...set.policies,
        ...set.dependencies,
        ...set.uncertainty,
      ].map((n) => n.text);
      positions.push(...set.contradictions.map((c) => c.text));
      expect(positions.join('\n')).not.toMatch(/blue/i);
      // Where it is mentioned at all, it is as the rejected, stale artifact.
      for (const line of capsule.split('\n').filter((l) => /blue/i.test(l))) {
        expect(line).toContain('definitely_stale, rejected');
      }
      // The superseded red positions are not in the capsule.
      expect(capsule).not.toContain('I would like a red interface');
      expect(capsule).not.toContain('Red is still preferred');
      expect(capsule).not.toMatch(/\bred\b/i);
      expect(set.excluded).toBe(1);
    });

    it('the chain verifies, also against the pinned root', async () => {
      expect((await verifyProject(runtime.journal, DEMO)).ok).toBe(true);
      const anchored = await verifyProject(runtime.journal, DEMO, {
        root: runtime.keyring.rootCertificatePem,
      });
      expect(anchored.broken).toBeNull();
      expect(anchored.ok).toBe(true);
    });

    it('rebuilding from the journal gives back the same canon content', async () => {
      const before = await canonContent(runtime.store, DEMO);
      expect(before.canon_objects).toHaveLength(2);
      expect(before.canon_versions).toHaveLength(3);
      expect(before.canon_proposals).toHaveLength(4);
      expect(before.canon_messages).toHaveLength(6);
      expect(before.canon_artifacts).toHaveLength(1);
      const entries = (await runtime.journal.head(DEMO)).seq;
      const rebuilt = await rebuildProject(runtime.journal, DEMO);
      expect(rebuilt.entries).toBe(entries);
      expect(await canonContent(runtime.store, DEMO)).toEqual(before);
      // Deleting the projection loses no truth: wiping the tables and replaying gives them back.
      for (const table of Object.keys(before)) {
        await runtime.store.run(`DELETE FROM ${table} WHERE project = $1`, [DEMO]);
      }
      expect(await runtime.canon.reader(DEMO).objects()).toEqual([]);
      await rebuildProject(runtime.journal, DEMO);
      expect(await canonContent(runtime.store, DEMO)).toEqual(before);
      expect((await verifyProject(runtime.journal, DEMO)).ok).toBe(true);
    });

    // The projection contract (journal `Projection`: "rebuild … must give exactly the live rows"):
    // the stored rows themselves, byte for byte, not only their parsed content. `live` was taken
    // before any rebuild.
    it('rebuilding from the journal leaves every canon table identical, byte for byte', async () => {
      await rebuildProject(runtime.journal, DEMO);
      const after = await canonTables(runtime.store, DEMO);
      const differing = Object.keys(live).filter(
        (table) => JSON.stringify(after[table]) !== JSON.stringify(live[table]),
      );
      expect(differing).toEqual([]);
    });
  });
}
