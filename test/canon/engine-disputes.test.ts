// Disputes keep both claims (LCSM §15: disputed state stays distinct; plural state is representable),
// on a real runtime for each storage engine: a dispute leaves the disputed statement in place and
// records each competing claim once, with who holds it, its exact archived source and the authority
// it entered under; the working set and its capsule show the object once, labelled disputed, never a
// claim as plain current canon; provenance, object reads and the board show the claims; a resolution
// is a governed mutation that records which claim stands and why (an agent's waits for an editor);
// an update that settles a dispute otherwise is flagged `dispute_collapsed`; and rebuilding from the
// journal reproduces the claims byte for byte.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import {
  archiveMessage,
  type Claim,
  type NoteVersion,
  type Principal,
  proposalInput,
  provenance,
  type SourceRef,
  workingSet,
} from '../../src/canon/index.js';
import { rebuildProject, verifyProject } from '../../src/journal/index.js';
import { boardView, objectView } from '../../src/operations/index.js';
import {
  archivedSource,
  CANON_ENGINES,
  canonState,
  canonTables,
  create,
  currentHash,
  type EngineRuntime,
  expectCode,
  note,
  PROJECT,
  principals,
  section,
  update,
} from '../helpers/canon.js';

const { owner, editor, agent } = principals();

const POSTGRES = 'We keep canon in PostgreSQL.';
const SQLITE = 'We keep canon in SQLite.';
const DISPUTED_SECTION = 'Disputed (competing claims, none is current canon)';

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`disputes keep every claim on ${engine.name}`, () => {
    let env: EngineRuntime;
    let runtime: CanonryRuntime;
    let n = 0;
    const fresh = (prefix: string) => `${prefix}.${++n}`;
    beforeAll(async () => {
      env = await engine.open();
      runtime = env.runtime;
    });
    afterAll(async () => env?.close());

    const current = async (id: string): Promise<NoteVersion> =>
      (await runtime.canon.reader(PROJECT).current(id))!;

    /** Proposes a dispute of `id`: the candidate carries the competing claim. */
    async function dispute(who: Principal, id: string, text: string, sources: SourceRef[]) {
      const base = await current(id);
      return runtime.canon.propose(who, {
        object_id: id,
        intent: 'dispute',
        base_version: base.version_hash,
        candidate: { ...base.content, text, sources, status: 'disputed' },
      });
    }

    /** An object created by the owner on a PostgreSQL source, disputed by the editor on SQLite. */
    async function disputed(prefix: string) {
      const id = fresh(prefix);
      const m1 = await archivedSource(
        runtime,
        owner,
        `Olivia: ${POSTGRES} It was settled in March.`,
        POSTGRES,
      );
      const m2 = await archivedSource(
        runtime,
        editor,
        `Eddie: no, ${SQLITE} The server never moved.`,
        SQLITE,
      );
      await create(runtime, owner, id, {
        title: 'Canon store',
        text: POSTGRES,
        sources: [m1.source],
      });
      const opened = await dispute(editor, id, SQLITE, [m2.source]);
      return { id, m1, m2, opened };
    }

    it('a dispute keeps the disputed statement and records both claims with source, actor and authority', async () => {
      const { id, m1, m2, opened } = await disputed('d.keep');
      expect(opened.proposal.gate.label).toBe('AUTO_COMMIT');
      expect(opened.proposal.claim).toEqual({
        statement: SQLITE,
        sources: [m2.source],
        confidence_state: 'asserted',
      });
      const object = (await runtime.canon.reader(PROJECT).object(id))!;
      // The disputed statement is not replaced: the object still says what it said, now disputed.
      expect(object.status).toBe('disputed');
      expect(object.text).toBe(POSTGRES);
      expect(object.source_refs).toEqual([m1.source]);
      const version = opened.committed!;
      expect(version.version_id).toBe(2);
      const claims = version.claims!;
      expect(claims.map((c) => [c.statement, c.state])).toEqual([
        [POSTGRES, 'open'],
        [SQLITE, 'open'],
      ]);
      const [original, competing] = claims as [Claim, Claim];
      expect(original.opened_in).toBe(2);
      expect(original.holders).toEqual([
        expect.objectContaining({
          principal: { id: owner.id, role: 'owner' },
          approver: null,
          sources: [m1.source],
          gate: 'AUTO_COMMIT',
          version_id: 1,
          receipt_ref: (await runtime.canon.reader(PROJECT).versions(id))[0]!.receipt_ref,
        }),
      ]);
      expect(competing.holders).toEqual([
        expect.objectContaining({
          principal: { id: editor.id, role: 'editor' },
          sources: [m2.source],
          gate: 'AUTO_COMMIT',
          gate_event: opened.proposal.gate.event_hash,
          proposal_id: opened.proposal.proposal_id,
          version_id: 2,
          // Inside the version that records it, the receipt is the version's own.
          receipt_ref: null,
        }),
      ]);
      // The projection names the receipt of every holder.
      const rows = await runtime.canon.reader(PROJECT).claims(id);
      expect(rows.map((c) => c.claim_id)).toEqual(claims.map((c) => c.claim_id));
      expect(rows[1]!.holders[0]!.receipt_ref).toBe(version.receipt_ref);
      expect(
        opened.receipt.checks.find((c) => c.name === 'dispute_claims')?.detail ?? '',
      ).toContain('disputed: 2 open claim(s)');
      // The two-note view: nothing of the disputed statement is removed, no dispute collapsed.
      expect(opened.proposal.comparison.checks.information_removed.result).toBe(false);
      expect(opened.proposal.comparison.checks.dispute_collapsed.result).toBe(false);
    });

    it('the working set shows the disputed object once, each claim once with its holders and sources, no claim as canon', async () => {
      const { id, m1, m2 } = await disputed('d.ws');
      // A third principal holds the competing claim too: a holder is added, the claim is not listed twice.
      const m3 = await archivedSource(runtime, agent, `Per the deploy log: ${SQLITE}`, SQLITE);
      // An agent's dispute of what others stand behind changes the authority it stands on: an editor confirms it.
      const asked = await dispute(agent, id, SQLITE, [m3.source]);
      expect(asked.proposal.gate.label).toBe('REQUIRE_CONFIRMATION');
      const joined = await runtime.canon.approve(editor, asked.proposal.proposal_id);
      expect(joined.committed!.claims!.map((c) => c.holders.length)).toEqual([1, 2]);
      expect(joined.committed!.claims![1]!.holders[1]).toMatchObject({
        principal: { id: agent.id, role: 'agent' },
        approver: { id: editor.id, role: 'editor' },
        gate: 'REQUIRE_CONFIRMATION',
      });
      await expectCode(dispute(agent, id, SQLITE, [m3.source]), 'CONFLICT');

      const set = await workingSet(runtime.canon, owner, { object_id: id });
      expect(set.notes).toEqual([]);
      expect(set.disputes).toHaveLength(1);
      const [entry] = set.disputes;
      const claims = joined.committed!.claims!;
      expect(entry).toEqual({
        object_id: id,
        object_type: 'fact',
        version_id: 3,
        title: 'Canon store',
        claims: [
          {
            claim_id: claims[0]!.claim_id,
            statement: POSTGRES,
            held_by: [
              {
                principal: owner.id,
                role: 'owner',
                confidence_state: 'asserted',
                sources: [m1.source],
              },
            ],
          },
          {
            claim_id: claims[1]!.claim_id,
            statement: SQLITE,
            held_by: [
              {
                principal: editor.id,
                role: 'editor',
                confidence_state: 'asserted',
                sources: [m2.source],
              },
              {
                principal: agent.id,
                role: 'agent',
                confidence_state: 'asserted',
                sources: [m3.source],
              },
            ],
          },
        ],
      });
      const span = (s: SourceRef) => `${s.message_id}[${s.span[0]}:${s.span[1]}]`;
      expect(section(set.capsule, DISPUTED_SECTION).trimEnd()).toBe(
        [
          `## ${DISPUTED_SECTION}`,
          `- ${id} v3 fact "Canon store": disputed, 2 claim(s), none is canon`,
          `  ${claims[0]!.claim_id}: "${POSTGRES}" held by olivia/owner asserted (source ${span(m1.source)})`,
          `  ${claims[1]!.claim_id}: "${SQLITE}" held by eddie/editor asserted (source ${span(m2.source)}); agent-7/agent asserted (source ${span(m3.source)})`,
        ].join('\n'),
      );
      // Neither claim is written as current canon, and each statement appears once in the capsule.
      expect(section(set.capsule, 'Current notes')).toBe('');
      expect(set.capsule.split(POSTGRES)).toHaveLength(2);
      expect(set.capsule.split(SQLITE)).toHaveLength(2);
      expect(set.contradictions.filter((c) => c.object_id === id)).toEqual([]);

      // By objective, too: the disputed object is among the disputes, not the notes.
      const byObjective = await workingSet(runtime.canon, owner, { objective: 'canon store' });
      expect(byObjective.notes.map((n) => n.object_id)).not.toContain(id);
      expect(byObjective.disputes.filter((d) => d.object_id === id)).toHaveLength(1);
    });

    it('provenance, the object read and the board show the claims', async () => {
      const { id } = await disputed('d.read');
      const walk = await provenance(runtime.canon, editor, id);
      expect(walk.epistemic).toBe('dispute');
      expect(walk.claims.map((c) => [c.statement, c.state])).toEqual([
        [POSTGRES, 'open'],
        [SQLITE, 'open'],
      ]);
      expect(walk.resolution).toBeNull();
      const view = await objectView(runtime, editor, id);
      expect(view.claims.map((c) => c.statement)).toEqual([POSTGRES, SQLITE]);
      const board = await boardView(runtime, editor);
      const onBoard = board.objects.disputed.find((o) => o.object_id === id)!;
      expect(onBoard.claims?.map((c) => c.statement)).toEqual([POSTGRES, SQLITE]);
    });

    it('a dispute that restates the disputed statement is refused, nothing written', async () => {
      const id = fresh('d.same');
      await create(runtime, owner, id, { text: POSTGRES });
      const before = await canonState(runtime);
      const e = await expectCode(
        dispute(editor, id, `  ${POSTGRES.toUpperCase()} `, []),
        'INVALID_PROPOSAL',
      );
      expect(e.details).toMatchObject({ field: 'candidate.text' });
      expect(await canonState(runtime)).toEqual(before);
    });

    it('a resolution records which claim stands and why; the others stay in history', async () => {
      const { id, m2 } = await disputed('d.resolve');
      const open = (await current(id)).claims!;
      const why = 'The deploy manifest and the server both run SQLite.';
      const done = await runtime.canon.resolve(editor, id, open[1]!.claim_id, why);
      expect(done.proposal.intent).toBe('resolve');
      expect(done.proposal.claim_id).toBe(open[1]!.claim_id);
      expect(done.proposal.gate.label).toBe('AUTO_COMMIT');
      const checks = done.proposal.comparison.checks;
      expect(checks.dispute_collapsed.result).toBe(false);
      expect(checks.dispute_collapsed.detail).toContain('resolution');
      const version = done.committed!;
      expect(version.resolution).toEqual({
        claim_id: open[1]!.claim_id,
        statement: SQLITE,
        rationale: why,
        set_aside: [open[0]!.claim_id],
      });
      expect(version.claims!.map((c) => c.state)).toEqual(['set_aside', 'stands']);
      const resolved = done.receipt.checks.find((c) => c.name === 'dispute_resolved')!;
      expect(resolved.result).toBe('pass');
      expect(resolved.detail).toContain(`${open[1]!.claim_id} stands`);
      expect(resolved.detail).toContain(why);
      const object = (await runtime.canon.reader(PROJECT).object(id))!;
      expect(object.status).toBe('active');
      expect(object.text).toBe(SQLITE);
      expect(object.source_refs).toEqual([m2.source]);
      // Provenance keeps both claims, with their final states, and says why one stands.
      const walk = await provenance(runtime.canon, owner, id);
      expect(walk.claims.map((c) => [c.statement, c.state])).toEqual([
        [POSTGRES, 'set_aside'],
        [SQLITE, 'stands'],
      ]);
      expect(walk.resolution?.rationale).toBe(why);
      expect(walk.history.map((v) => v.content.text)).toEqual([POSTGRES, POSTGRES, SQLITE]);
      // Now the standing claim is plain current canon; the set-aside one is nowhere in the capsule.
      const set = await workingSet(runtime.canon, owner, { object_id: id });
      expect(set.disputes).toEqual([]);
      expect(set.notes.map((n) => [n.object_id, n.text, n.status])).toEqual([
        [id, SQLITE, 'active'],
      ]);
      expect(set.capsule).not.toContain(POSTGRES);
      // A reader of the working set learns why the claim stands, so it does not reopen it blindly.
      expect(set.prior_mutations.find((m) => m.object_id === id)?.resolution).toEqual({
        rationale: why,
        set_aside: 1,
      });
      expect(set.capsule).toContain(`resolve (stands: ${why}; 1 claim(s) set aside)`);
      // The resolved object has no open claim to resolve again.
      await expectCode(runtime.canon.resolve(editor, id, open[0]!.claim_id, why), 'UNKNOWN_CLAIM');
      // A later dispute opens a new round with new claim ids; the old round stays in provenance.
      const again = await dispute(editor, id, POSTGRES, []);
      const round = again.committed!.claims!;
      expect(round.map((c) => c.opened_in)).toEqual([4, 4]);
      expect(round.map((c) => c.claim_id)).not.toContain(open[0]!.claim_id);
      expect((await provenance(runtime.canon, owner, id)).claims).toHaveLength(4);
    });

    it("an agent's resolution waits for an editor, who approves it", async () => {
      const { id } = await disputed('d.agent');
      const open = (await current(id)).claims!;
      const held = await runtime.canon.resolve(agent, id, open[0]!.claim_id, 'March minutes.');
      expect(held.proposal.gate.label).toBe('REQUIRE_CONFIRMATION');
      expect(held.proposal.required_role).toBe('editor');
      expect(held.committed).toBeNull();
      expect((await runtime.canon.reader(PROJECT).object(id))!.status).toBe('disputed');
      // The working set lists the pending resolution as not canon, and still both claims.
      const set = await workingSet(runtime.canon, owner, { object_id: id });
      expect(set.disputes[0]!.claims).toHaveLength(2);
      expect(set.contradictions.map((c) => c.proposal_id)).toEqual([held.proposal.proposal_id]);
      await expectCode(runtime.canon.approve(agent, held.proposal.proposal_id), 'FORBIDDEN');
      const approved = await runtime.canon.approve(editor, held.proposal.proposal_id);
      const version = approved.committed!;
      expect(version.authority).toMatchObject({
        proposer: { id: agent.id, role: 'agent' },
        approver: { id: editor.id, role: 'editor' },
      });
      expect(version.resolution).toMatchObject({
        claim_id: open[0]!.claim_id,
        rationale: 'March minutes.',
      });
      const object = (await runtime.canon.reader(PROJECT).object(id))!;
      expect([object.status, object.text]).toEqual(['active', POSTGRES]);
    });

    it('a pending resolution goes stale when the dispute changes: it is closed, not recompared', async () => {
      const { id } = await disputed('d.stale');
      const open = (await current(id)).claims!;
      const held = await runtime.canon.resolve(agent, id, open[1]!.claim_id, 'the log says so');
      const m = await archivedSource(
        runtime,
        owner,
        'Olivia: We keep canon in both.',
        'We keep canon in both.',
      );
      await dispute(owner, id, 'We keep canon in both.', [m.source]);
      const e = await expectCode(
        runtime.canon.approve(editor, held.proposal.proposal_id),
        'STALE_APPROVAL',
      );
      expect(e.details).toMatchObject({ closed: true });
      expect(
        (await runtime.canon.reader(PROJECT).proposal(held.proposal.proposal_id))!.status,
      ).toBe('rejected');
      expect((await current(id)).claims!.map((c) => c.state)).toEqual(['open', 'open', 'open']);
    });

    it('an update that settles a dispute otherwise is flagged dispute_collapsed and its claims collapse', async () => {
      const { id } = await disputed('d.collapse');
      const o = await update(runtime, editor, id, { status: 'active', text: SQLITE });
      expect(o.proposal.comparison.checks.dispute_collapsed.result).toBe(true);
      expect(o.proposal.gate.label).toBe('REQUIRE_CONFIRMATION');
      const approved = await runtime.canon.approve(owner, o.proposal.proposal_id);
      expect(approved.committed!.claims!.map((c) => c.state)).toEqual(['collapsed', 'collapsed']);
      expect(approved.committed!.resolution).toBeUndefined();
      expect(
        approved.receipt.checks.find((c) => c.name === 'dispute_claims')?.detail ?? '',
      ).toContain('collapsed without a resolution');
      // An update that keeps the object disputed keeps the claims open.
      const kept = await disputed('d.keepopen');
      const k = await update(runtime, editor, kept.id, { title: 'Where canon lives' });
      expect(k.committed!.claims!.map((c) => c.state)).toEqual(['open', 'open']);
    });

    it('bad resolution input is a typed error and writes nothing', async () => {
      const { id } = await disputed('d.bad');
      const version = await current(id);
      const claim = version.claims![1]!;
      const base = {
        object_id: id,
        intent: 'resolve',
        base_version: version.version_hash,
        candidate: { ...version.content, text: SQLITE, status: 'active' },
      };
      const plain = fresh('d.plain');
      await create(runtime, owner, plain, note({ text: POSTGRES }));
      const before = await canonState(runtime);
      const bad = (value: unknown, code: string, field: string) => {
        let caught: unknown;
        try {
          proposalInput(value);
        } catch (err) {
          caught = err;
        }
        expect(caught).toMatchObject({ code, details: { field } });
      };
      bad({ ...base, rationale: 'why' }, 'INVALID_PROPOSAL', 'claim_id');
      bad({ ...base, claim_id: 'claim_xyz', rationale: 'why' }, 'INVALID_PROPOSAL', 'claim_id');
      bad({ ...base, claim_id: claim.claim_id }, 'INVALID_PROPOSAL', 'rationale');
      bad({ ...base, claim_id: claim.claim_id, rationale: '   ' }, 'INVALID_PROPOSAL', 'rationale');
      bad({ ...base, intent: 'update', claim_id: claim.claim_id }, 'INVALID_PROPOSAL', 'claim_id');
      const input = proposalInput({ ...base, claim_id: claim.claim_id, rationale: 'why' });
      await expectCode(
        runtime.canon.propose(editor, { ...input, claim_id: `claim_${'0'.repeat(16)}` }),
        'UNKNOWN_CLAIM',
      );
      await expectCode(
        runtime.canon.propose(editor, {
          ...input,
          candidate: { ...input.candidate, text: 'Both.' },
        }),
        'INVALID_PROPOSAL',
      );
      await expectCode(
        runtime.canon.propose(editor, {
          ...input,
          candidate: { ...input.candidate, status: 'disputed' },
        }),
        'INVALID_PROPOSAL',
      );
      // A claim whose source does not quote the archive is refused like a note's.
      await expectCode(
        dispute(agent, id, 'We keep canon in flat files.', [
          { message_id: version.sources[0]!.message_id, span: [0, 5], quote: 'wrong' },
        ]),
        'SOURCE_MISSING',
      );
      // A plain object has no dispute to resolve.
      await expectCode(
        runtime.canon.propose(editor, {
          ...input,
          object_id: plain,
          base_version: await currentHash(runtime, plain),
        }),
        'UNKNOWN_CLAIM',
      );
      expect(await canonState(runtime)).toEqual(before);
    });

    it("a claim cites only what the object's readers may read (§14), nothing written otherwise", async () => {
      const id = fresh('d.plane');
      await create(runtime, owner, id, { text: POSTGRES });
      const message = await archiveMessage(runtime.canon, editor, {
        text: `Note to self: ${SQLITE}`,
        visibility: 'personal',
      });
      const start = message.text.indexOf(SQLITE);
      const before = await canonState(runtime);
      await expectCode(
        dispute(editor, id, SQLITE, [
          { message_id: message.message_id, span: [start, start + SQLITE.length], quote: SQLITE },
        ]),
        'PLANE_VIOLATION',
      );
      expect(await canonState(runtime)).toEqual(before);
    });

    it('a note made against a disputed object finds it among the disputes, not the active dependencies', async () => {
      const { id } = await disputed('d.dep');
      const dependent = fresh('d.dependent');
      await create(runtime, owner, dependent, {
        object_type: 'decision',
        text: 'Nightly exports read the canon store.',
        dependency_refs: [id],
      });
      const set = await workingSet(runtime.canon, owner, { object_id: dependent });
      // Made against the disputed version, knowing the dispute: it is a note, its dependency a dispute.
      expect(set.notes.map((n) => n.object_id)).toEqual([dependent]);
      expect(set.needs_revision).toEqual([]);
      expect(set.dependencies.map((n) => n.object_id)).not.toContain(id);
      expect(set.disputes.map((d) => d.object_id)).toEqual([id]);
      expect(section(set.capsule, 'Active dependencies')).not.toContain(POSTGRES);
      expect(section(set.capsule, DISPUTED_SECTION)).toContain(SQLITE);
    });

    it('rebuilding from the journal reproduces the claims exactly', async () => {
      const { id } = await disputed('d.rebuild');
      const open = (await current(id)).claims!;
      await runtime.canon.resolve(owner, id, open[0]!.claim_id, 'the March decision holds');
      await disputed('d.rebuild-open');
      const before = await canonTables(runtime.store);
      expect((before.canon_claims as unknown[]).length).toBeGreaterThanOrEqual(4);
      await runtime.store.run('DELETE FROM canon_claims WHERE project = $1', [PROJECT]);
      await rebuildProject(runtime.journal, PROJECT);
      expect(await canonTables(runtime.store)).toEqual(before);
      expect((await verifyProject(runtime.journal, PROJECT)).ok).toBe(true);
    });
  });
}
