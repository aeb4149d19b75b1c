// The board's totals are counts canon's projection keeps (canon_counts), not counts of rows read
// when asked: they must follow every move a project makes — notes created, superseded, retired,
// disputed, resolved and restored, shared by their holder, proposals held, approved and rejected,
// artifacts registered and re-registered — for each reader as its planes allow (LCSM §14), equal
// the same counts after the journal is replayed, be filled on a store from before they were kept,
// and a count forced wrong is a projection that differs from a replay. On both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  archiveMessage,
  type ObjectStatus,
  type Principal,
  type ProposalOutcome,
  registerArtifact,
} from '../../src/canon/index.js';
import { contentHash } from '../../src/core/index.js';
import { rebuildProject, verifyProjections } from '../../src/journal/index.js';
import { boardOf } from '../../src/operations/index.js';
import {
  CANON_ENGINES,
  create,
  currentHash,
  type EngineRuntime,
  PROJECT,
  principals,
  update,
} from '../helpers/canon.js';

/** What the scenario holds: each object's status, each proposal's, each artifact; and who holds it. */
interface Truth {
  readonly objects: Map<string, { status: ObjectStatus; holder: string | null }>;
  readonly proposals: Map<string, { status: string; holder: string | null }>;
  readonly artifacts: Map<string, { holder: string | null }>;
}

const STATUSES: readonly ObjectStatus[] = [
  'active',
  'provisional',
  'disputed',
  'superseded',
  'retired',
];

/** The totals `viewer` (null: the operator) may read, from the scenario alone. */
function totals(truth: Truth, viewer: string | null) {
  const may = (holder: string | null) => viewer === null || holder === null || holder === viewer;
  const objects = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<ObjectStatus, number>;
  for (const o of truth.objects.values()) if (may(o.holder)) objects[o.status]++;
  const proposals: Record<string, number> = { pending: 0, committed: 0, rejected: 0 };
  for (const p of truth.proposals.values()) if (may(p.holder)) proposals[p.status]!++;
  const artifacts = [...truth.artifacts.values()].filter((a) => may(a.holder)).length;
  return { objects, proposals, artifacts };
}

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`the board's kept totals on ${engine.name}`, () => {
    const who = principals();
    const truth: Truth = { objects: new Map(), proposals: new Map(), artifacts: new Map() };
    let e: EngineRuntime;

    /** A proposal the scenario made, with the status and holder it must have. */
    function proposed(outcome: ProposalOutcome, status: string, holder: string | null) {
      expect(outcome.proposal.status).toBe(status);
      truth.proposals.set(outcome.proposal.proposal_id, { status, holder });
    }

    async function note(p: Principal, id: string, personal: boolean, status: ObjectStatus) {
      const holder = personal ? p.id : null;
      const outcome = await create(e.runtime, p, id, {
        title: id,
        text: `The value of ${id}.`,
        visibility: personal ? 'personal' : 'project',
        status,
      });
      proposed(outcome, 'committed', holder);
      truth.objects.set(id, { status, holder });
    }

    async function artifact(p: Principal, id: string, on: string, holder: string | null) {
      await registerArtifact(e.runtime.canon, p, {
        artifact_id: id,
        canonical_note_versions: [
          { object_id: on, version_hash: await currentHash(e.runtime, on) },
        ],
        output_digest: contentHash({ id, on }),
      });
      truth.artifacts.set(id, { holder });
    }

    /** Moves `id` by a proposal of `intent` on its current version, committed at once. */
    async function move(p: Principal, id: string, intent: 'retire' | 'dispute', to: ObjectStatus) {
      const current = (await e.runtime.canon.reader(PROJECT).current(id))!;
      const outcome = await e.runtime.canon.propose(p, {
        object_id: id,
        intent,
        base_version: current.version_hash,
        candidate: {
          ...current.content,
          ...(intent === 'dispute' ? { text: `Not ${id}.`, status: 'disputed' as const } : {}),
        },
      });
      proposed(outcome, 'committed', truth.objects.get(id)!.holder);
      truth.objects.get(id)!.status = to;
    }

    /** The counts as the board and the reader give them, for `viewer`. */
    async function read(viewer: Principal | null) {
      const reader =
        viewer === null ? e.runtime.canon.reader(PROJECT) : e.runtime.canon.readerFor(viewer);
      const board = await boardOf(reader, e.runtime.canon.now(), 2);
      const counts = await reader.counts();
      return {
        objects: Object.fromEntries(STATUSES.map((s) => [s, board.counts.objects[s].total])),
        proposals: {
          pending: board.counts.pending.total,
          committed: counts.proposals.get('committed') ?? 0,
          rejected: counts.proposals.get('rejected') ?? 0,
        },
        artifacts: board.counts.artifacts.total,
        pendingFromReader: counts.proposals.get('pending') ?? 0,
      };
    }

    const viewers = () =>
      [
        [who.owner, who.owner.id],
        [who.editor, who.editor.id],
        [who.agent, who.agent.id],
        [who.viewer, who.viewer.id],
        [null, null],
      ] as const;

    async function expectTruth() {
      for (const [viewer, id] of viewers()) {
        const want = totals(truth, id);
        const { pendingFromReader, ...got } = await read(viewer);
        expect([id, got]).toEqual([id, want]);
        expect(pendingFromReader).toBe(want.proposals.pending);
      }
    }

    /** Every reader's counts, as read: what a rebuild or a migration must leave as it found. */
    async function snapshot() {
      const out: unknown[] = [];
      for (const [viewer] of viewers()) out.push(await read(viewer));
      return out;
    }

    beforeAll(async () => {
      e = await engine.open();
    }, 60_000);
    afterAll(() => e?.close());

    it('creates, status moves, promotions, proposals and artifacts move the totals as they happen', async () => {
      for (let i = 0; i < 6; i++) await note(who.owner, `a.${i}`, false, 'active');
      await note(who.owner, 'p.0', false, 'provisional');
      for (let i = 0; i < 3; i++) await note(who.editor, `e.${i}`, true, 'active');
      await note(who.editor, 'e.prov', true, 'provisional');
      for (let i = 0; i < 2; i++) await note(who.owner, `o.${i}`, true, 'active');
      await expectTruth();

      // Supersede: a.0 by s.0 (shared), and the editor's e.0 by its own e.new (personal).
      const s0 = await e.runtime.canon.propose(who.owner, {
        object_id: 's.0',
        intent: 'supersede',
        base_version: null,
        supersedes: ['a.0'],
        candidate: { ...(await e.runtime.canon.reader(PROJECT).current('a.0'))!.content },
      });
      proposed(s0, 'committed', null);
      truth.objects.set('s.0', { status: 'active', holder: null });
      truth.objects.get('a.0')!.status = 'superseded';
      const e0 = (await e.runtime.canon.reader(PROJECT).current('e.0'))!;
      const eNew = await e.runtime.canon.propose(who.editor, {
        object_id: 'e.new',
        intent: 'supersede',
        base_version: null,
        supersedes: ['e.0'],
        candidate: { ...e0.content, text: 'The new value of e.0.' },
      });
      proposed(eNew, 'committed', who.editor.id);
      truth.objects.set('e.new', { status: 'active', holder: who.editor.id });
      truth.objects.get('e.0')!.status = 'superseded';
      await expectTruth();

      // Retire, dispute, resolve, restore.
      await move(who.owner, 'a.1', 'retire', 'retired');
      await move(who.editor, 'e.1', 'retire', 'retired');
      await move(who.editor, 'a.2', 'dispute', 'disputed');
      await move(who.owner, 'a.3', 'dispute', 'disputed');
      await expectTruth();
      const claims = (await e.runtime.canon.reader(PROJECT).current('a.2'))!.claims!;
      const resolved = await e.runtime.canon.resolve(
        who.owner,
        'a.2',
        claims[1]!.claim_id,
        'It stands.',
      );
      proposed(resolved, 'committed', null);
      truth.objects.get('a.2')!.status = 'active';
      const first = (await e.runtime.canon.reader(PROJECT).versions('a.1'))[0]!;
      const restored = await e.runtime.canon.restore(who.owner, 'a.1', first.version_hash);
      proposed(restored, 'committed', null);
      truth.objects.get('a.1')!.status = 'active';
      await expectTruth();

      // A personal note its holder shares moves from its holder's count to the project's.
      const shared = await update(e.runtime, who.owner, 'o.1', { visibility: 'project' });
      proposed(shared, 'committed', null);
      truth.objects.get('o.1')!.holder = null;
      await expectTruth();

      // An agent's proposals wait; one is approved, one rejected, the rest stay pending.
      const held: ProposalOutcome[] = [];
      for (let i = 0; i < 4; i++) {
        const outcome = await create(e.runtime, who.agent, `g.${i}`, {
          title: `g.${i}`,
          text: `The agent suggests g.${i}.`,
          object_type: 'decision',
          visibility: i < 2 ? 'project' : 'personal',
        });
        proposed(outcome, 'pending', i < 2 ? null : who.agent.id);
        held.push(outcome);
      }
      await expectTruth();
      const approved = await e.runtime.canon.approve(who.owner, held[0]!.proposal.proposal_id);
      expect(approved.proposal.status).toBe('committed');
      truth.proposals.get(held[0]!.proposal.proposal_id)!.status = 'committed';
      truth.objects.set('g.0', { status: 'active', holder: null });
      await e.runtime.canon.reject(who.owner, held[1]!.proposal.proposal_id, 'Not now.');
      truth.proposals.get(held[1]!.proposal.proposal_id)!.status = 'rejected';
      // The agent withdraws its own personal one.
      await e.runtime.canon.reject(who.agent, held[3]!.proposal.proposal_id, 'Withdrawn.');
      truth.proposals.get(held[3]!.proposal.proposal_id)!.status = 'rejected';
      await expectTruth();

      // Artifacts: shared, the editor's and the owner's personal ones; one re-registered on a
      // shared note becomes the project's, one re-registered on the same note stays where it was.
      for (let i = 0; i < 3; i++) await artifact(who.owner, `art.${i}`, 'a.4', null);
      for (let i = 0; i < 3; i++) await artifact(who.editor, `arte.${i}`, 'e.2', who.editor.id);
      await artifact(who.owner, 'arto.0', 'o.0', who.owner.id);
      await expectTruth();
      await artifact(who.editor, 'arte.0', 'a.4', null);
      await artifact(who.editor, 'arte.1', 'e.2', who.editor.id);
      await expectTruth();
    }, 240_000);

    it('a batch of proposals moves the totals as the same proposals one by one would', async () => {
      const current = (await e.runtime.canon.reader(PROJECT).current('a.5'))!;
      await e.runtime.canon.proposeBatch(who.owner, [
        {
          object_id: 'b.0',
          intent: 'create',
          base_version: null,
          candidate: { ...current.content, title: 'b.0', text: 'The value of b.0.' },
        },
        {
          object_id: 'b.1',
          intent: 'supersede',
          base_version: null,
          supersedes: ['a.5'],
          candidate: { ...current.content, title: 'b.1', text: 'The value of b.1.' },
        },
      ]);
      truth.objects.set('b.0', { status: 'active', holder: null });
      truth.objects.set('b.1', { status: 'active', holder: null });
      truth.objects.get('a.5')!.status = 'superseded';
      const proposals = await e.runtime.canon.reader(PROJECT).proposalPage({
        status: 'committed',
        order: 'newest',
        limit: 2,
      });
      expect(proposals.map((p) => p.object_id).sort()).toEqual(['b.0', 'b.1']);
      for (const p of proposals)
        truth.proposals.set(p.proposal_id, { status: 'committed', holder: null });
      await expectTruth();
    });

    it('a batch checked again after the head moved (its items rehearsed in the append) counts each item once', async () => {
      const { journal } = e.runtime;
      const appendAll = journal.appendAll;
      // Between planning and appending, a message lands: the append's precondition rehearses the
      // batch's entries in a savepoint it rolls back, before the same entries are projected.
      journal.appendAll = async (...args: Parameters<typeof appendAll>) => {
        journal.appendAll = appendAll;
        await archiveMessage(e.runtime.canon, who.editor, { text: 'Meanwhile, a message.' });
        return appendAll.apply(journal, args);
      };
      const current = (await e.runtime.canon.reader(PROJECT).current('b.0'))!;
      const { outcomes } = await e.runtime.canon.proposeBatch(who.owner, [
        {
          object_id: 'c.0',
          intent: 'create',
          base_version: null,
          candidate: { ...current.content, title: 'c.0', text: 'The value of c.0.' },
        },
        {
          object_id: 'c.1',
          intent: 'supersede',
          base_version: null,
          supersedes: ['b.0'],
          candidate: { ...current.content, title: 'c.1', text: 'The value of c.1.' },
        },
      ]);
      expect(journal.appendAll).toBe(appendAll);
      expect(outcomes.map((o) => o.proposal.status)).toEqual(['committed', 'committed']);
      for (const o of outcomes)
        truth.proposals.set(o.proposal.proposal_id, { status: 'committed', holder: null });
      truth.objects.set('c.0', { status: 'active', holder: null });
      truth.objects.set('c.1', { status: 'active', holder: null });
      truth.objects.get('b.0')!.status = 'superseded';
      await expectTruth();
    });

    it('a rebuild from the journal leaves every total as it was, and the projection check agrees', async () => {
      // The counts kept as the project moved, one transaction at a time, are the table a replay
      // makes: none left at zero (a replay nets them out), none off.
      expect(
        await e.runtime.store.all('SELECT * FROM canon_counts WHERE project = $1 AND n <= 0', [
          PROJECT,
        ]),
      ).toEqual([]);
      expect((await verifyProjections(e.runtime.journal, PROJECT)).mismatch).toBeNull();
      const before = await snapshot();
      await rebuildProject(e.runtime.journal, PROJECT);
      expect(await snapshot()).toEqual(before);
      await expectTruth();
      expect(await verifyProjections(e.runtime.journal, PROJECT)).toMatchObject({
        mismatch: null,
      });
    });

    it('a count forced wrong is a table that differs from a replay', async () => {
      const { checked } = await verifyProjections(e.runtime.journal, PROJECT);
      expect(checked).toContain('canon_counts');
      await e.runtime.store.run(
        `UPDATE canon_counts SET n = n + 1 WHERE project = $1 AND scope = 'shared' AND kind = 'object' AND status = 'active'`,
        [PROJECT],
      );
      expect((await verifyProjections(e.runtime.journal, PROJECT)).mismatch).toBe('canon_counts');
      // A count that was lost altogether is found too; a rebuild puts both right.
      await e.runtime.store.run(
        `DELETE FROM canon_counts WHERE project = $1 AND scope = 'personal' AND holder = $2`,
        [PROJECT, who.editor.id],
      );
      expect((await verifyProjections(e.runtime.journal, PROJECT)).mismatch).toBe('canon_counts');
      await rebuildProject(e.runtime.journal, PROJECT);
      expect((await verifyProjections(e.runtime.journal, PROJECT)).mismatch).toBeNull();
      await expectTruth();
    });

    it('a store from before the counts were kept gets them from its rows when opened', async () => {
      const before = await snapshot();
      const { store } = e.runtime;
      await store.exec('DROP TABLE canon_counts');
      await store.run('DELETE FROM canonry_migrations WHERE name = $1', ['canon-counts']);
      const again = await e.another();
      const readAgain = async (viewer: Principal | null) => {
        const reader =
          viewer === null ? again.canon.reader(PROJECT) : again.canon.readerFor(viewer);
        return boardOf(reader, again.canon.now(), 2);
      };
      for (const [viewer, id] of viewers()) {
        const want = totals(truth, id);
        const board = await readAgain(viewer);
        expect([
          id,
          Object.fromEntries(STATUSES.map((s) => [s, board.counts.objects[s].total])),
        ]).toEqual([id, want.objects]);
        expect([id, board.counts.pending.total, board.counts.artifacts.total]).toEqual([
          id,
          want.proposals.pending,
          want.artifacts,
        ]);
      }
      expect(await snapshot()).toEqual(before);
      // The filled table is the one a replay makes (no count of zero, none missing).
      expect((await verifyProjections(again.journal, PROJECT)).mismatch).toBeNull();
    });
  });
}
