// LCSM §14 planes on a real runtime, for each storage engine. An owner, an editor and an agent of one
// project share some canon; then the editor keeps a personal plane: a personal message, personal
// notes (one superseding another, one depending on a shared note, one from intake), a pending
// personal proposal and an artifact citing a personal version. Every read the owner and the agent can
// make — objects, versions, proposals, messages, artifacts, dependents, provenance, working sets and
// their capsules — is then exactly what it was before (so no id, text, quote or count leaked), direct
// lookups answer as if nothing were there, writes cannot reach it, a shared mutation names no personal
// dependent, the plane rules refuse crossing planes (nothing written), a promotion shows nothing of
// the personal past, and the journal redacts the personal entries while the chain still verifies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import {
  archiveMessage,
  artifactStatusPage,
  classifyStakes,
  intake,
  mayReadEntry,
  messageInput,
  type Principal,
  proposalInput,
  provenance,
  type RedactedEntry,
  readableEntries,
  registerArtifact,
  reviewArtifact,
  ScriptedClassifier,
  type Visibility,
  workingSet,
} from '../../src/canon/index.js';
import { type ContentHash, contentHash } from '../../src/core/index.js';
import {
  entryHash,
  type JournalEntry,
  verifyProject,
  withoutHash,
} from '../../src/journal/index.js';
import {
  archivedSource,
  CANON_ENGINES,
  canonState,
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

const SECRET = {
  message: 'Diary, between us: my salary is 91234 and I plan to negotiate in March.',
  quote: 'my salary is 91234',
  messageId: 'eddie-diary-1',
  title: 'Zanzibar compensation memo',
  text: 'Eddie earns 91234 and will negotiate a raise in March.',
  oldText: 'Eddie earned 88000 last year.',
  planText: 'Quietly move the quarterly bonus into the raise.',
  moraleMessage: 'I would like my morale check-ins kept between me and my notes.',
};
/** Ids and fragments of the personal plane that no other principal may ever receive. */
const NEVER = [
  'eddie.salary',
  'eddie.old',
  'eddie.plan',
  'eddie.sheet',
  'team.morale',
  SECRET.messageId,
  // Digits alone could turn up in a random hash: each fragment carries words.
  'salary is 91234',
  'earns 91234',
  'earned 88000',
  'Zanzibar',
  'bonus',
  'morale check-ins',
];

function expectNoLeak(value: unknown, extra: readonly string[] = []): void {
  const json = JSON.stringify(value);
  for (const s of [...NEVER, ...extra]) expect(json, `leaked ${s}`).not.toContain(s);
}

describe('plane inputs and stakes', () => {
  it('a message is project or personal; anything else is INVALID_BODY', () => {
    expect(messageInput({ text: 'hi' }, owner).visibility).toBe('project');
    expect(messageInput({ text: 'hi', visibility: 'personal' }, owner).visibility).toBe('personal');
    for (const visibility of ['working', 'procedural', 'private', null, 1]) {
      expect(() => messageInput({ text: 'hi', visibility }, owner)).toThrow(
        expect.objectContaining({ code: 'INVALID_BODY' }),
      );
    }
  });

  it('leaving the personal plane, or joining the project plane, is S2; other moves are not', () => {
    const stakes = (from: Visibility, to: Visibility) =>
      classifyStakes(note({ visibility: to }), note({ visibility: from }), 'update');
    expect(stakes('personal', 'project')).toBe('S2');
    expect(stakes('personal', 'working')).toBe('S2');
    expect(stakes('personal', 'procedural')).toBe('S2');
    expect(stakes('working', 'project')).toBe('S2');
    expect(stakes('working', 'procedural')).toBe('S1');
    expect(stakes('personal', 'personal')).toBe('S0');
  });
});

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`LCSM §14 planes on ${engine.name}`, () => {
    let env: EngineRuntime;
    let runtime: CanonryRuntime;
    const before = new Map<string, unknown>();
    const after = new Map<string, unknown>();
    /** Hashes, proposal ids and journal seqs of the personal plane. */
    const hidden = { hashes: [] as string[], proposals: [] as string[], from: 0, to: 0 };

    /** Every read a principal can make of the canon around the shared note `team.budget`. */
    async function views(who: Principal) {
      const reader = runtime.canon.readerFor(who);
      const canon = runtime.canon;
      return {
        objects: await reader.objects(),
        superseded: await reader.objects(['superseded']),
        messages: await reader.messagePage({ limit: 1000 }),
        proposals: await reader.proposals(),
        pending: await reader.proposals('pending'),
        artifacts: await artifactStatusPage(canon.readerAs(who), { limit: 1000 }),
        versions: await reader.versions('team.budget'),
        dependents: await reader.dependents('team.budget'),
        built: await reader.artifactsBuiltFrom('team.budget'),
        lookup: await reader.lookup().then((l) => [l.objects, l.versions]),
        provenance: await provenance(canon, who, 'team.budget'),
        sets: [
          await workingSet(canon, who, {}),
          await workingSet(canon, who, { objective: 'salary raise negotiate budget morale' }),
          await workingSet(canon, who, { object_id: 'team.budget' }),
        ],
      };
    }

    beforeAll(async () => {
      env = await engine.open();
      runtime = env.runtime;
      // Shared canon: a sourced budget, a goal, a working-plane note and an artifact on the budget.
      const src = await archivedSource(
        runtime,
        owner,
        'Budget review: the team budget is 40000 EUR.',
        'the team budget is 40000 EUR',
      );
      await create(runtime, owner, 'team.budget', {
        title: 'Team budget',
        text: 'The team budget is 40000 EUR.',
        sources: [src.source],
        confidence_state: 'sourced',
      });
      await create(runtime, owner, 'team.goal', { text: 'Ship the settings page by June.' });
      await create(runtime, agent, 'agent.scratch', {
        visibility: 'working',
        text: 'Draft layout for the settings page.',
      });
      await registerArtifact(runtime.canon, editor, {
        artifact_id: 'budget.sheet',
        canonical_note_versions: [
          { object_id: 'team.budget', version_hash: await currentHash(runtime, 'team.budget') },
        ],
        output_digest: contentHash('budget sheet'),
      });
      for (const who of [owner, agent]) before.set(who.id, await views(who));
      hidden.from = (await runtime.journal.head(PROJECT)).seq + 1;

      // The editor's personal plane.
      const diary = await archiveMessage(runtime.canon, editor, {
        text: SECRET.message,
        message_id: SECRET.messageId,
        visibility: 'personal',
      });
      const start = SECRET.message.indexOf(SECRET.quote);
      const old = await create(runtime, editor, 'eddie.old', {
        visibility: 'personal',
        text: SECRET.oldText,
      });
      const salary = await runtime.canon.propose(editor, {
        object_id: 'eddie.salary',
        intent: 'supersede',
        base_version: null,
        supersedes: ['eddie.old'],
        message_id: diary.message_id,
        candidate: note({
          visibility: 'personal',
          title: SECRET.title,
          text: SECRET.text,
          sources: [
            {
              message_id: diary.message_id,
              span: [start, start + SECRET.quote.length],
              quote: SECRET.quote,
            },
          ],
          dependency_refs: ['team.budget'],
          confidence_state: 'sourced',
        }),
      });
      expect(salary.committed).not.toBeNull();
      const plan = await create(runtime, editor, 'eddie.plan', {
        object_type: 'decision',
        visibility: 'personal',
        text: SECRET.planText,
        tags: ['financial'],
      });
      expect(plan.proposal).toMatchObject({ status: 'pending', required_role: 'owner' });
      await registerArtifact(runtime.canon, editor, {
        artifact_id: 'eddie.sheet',
        canonical_note_versions: [
          { object_id: 'eddie.salary', version_hash: salary.committed!.version_hash },
          { object_id: 'team.budget', version_hash: await currentHash(runtime, 'team.budget') },
        ],
        output_digest: contentHash('eddie sheet'),
      });
      const classifier = new ScriptedClassifier({
        subjects: {
          'team.morale': { title: 'Morale', object_type: 'preference', keywords: ['morale'] },
        },
      });
      const morale = await intake(runtime.canon, classifier, editor, {
        text: SECRET.moraleMessage,
        visibility: 'personal',
      });
      expect(morale.proposals.length).toBeGreaterThan(0);
      for (const p of morale.proposals) {
        expect(p.ok).toBe(true);
        if (p.ok) expect(p.outcome.proposal.candidate.visibility).toBe('personal');
      }
      hidden.to = (await runtime.journal.head(PROJECT)).seq;
      const all = runtime.canon.reader(PROJECT);
      for (const id of ['eddie.old', 'eddie.salary', 'team.morale']) {
        for (const v of await all.versions(id)) hidden.hashes.push(v.version_hash);
      }
      hidden.proposals.push(
        old.proposal.proposal_id,
        salary.proposal.proposal_id,
        plan.proposal.proposal_id,
        ...morale.proposals.flatMap((p) => (p.ok ? [p.outcome.proposal.proposal_id] : [])),
      );
      for (const who of [owner, agent]) after.set(who.id, await views(who));
    }, 120_000);
    afterAll(() => env?.close());

    it('another principal reads exactly what it read before the personal plane existed', () => {
      for (const who of [owner, agent]) expect(after.get(who.id)).toEqual(before.get(who.id));
    });

    it('no id, text, title, quote, hash or proposal of the personal plane is in any of those reads', () => {
      for (const who of [owner, agent]) {
        expectNoLeak(after.get(who.id), [...hidden.hashes, ...hidden.proposals]);
      }
    });

    it('direct lookups by another principal answer as if nothing were there', async () => {
      const reader = runtime.canon.readerFor(owner);
      expect(await reader.object('eddie.salary')).toBeNull();
      expect(await reader.current('eddie.salary')).toBeNull();
      expect(await reader.versions('eddie.salary')).toEqual([]);
      for (const hash of hidden.hashes)
        expect(await reader.version(hash as ContentHash)).toBeNull();
      for (const id of hidden.proposals) expect(await reader.proposal(id)).toBeNull();
      expect(await reader.message(SECRET.messageId)).toBeNull();
      expect(await reader.artifact('eddie.sheet')).toBeNull();
      expect(await reader.artifactsBuiltFrom('eddie.salary')).toEqual([]);
      await expectCode(provenance(runtime.canon, owner, 'eddie.salary'), 'UNKNOWN_OBJECT');
      await expectCode(
        workingSet(runtime.canon, agent, { object_id: 'eddie.salary' }),
        'UNKNOWN_OBJECT',
      );
    });

    it('the holder reads all of its personal plane, with its sources and what it replaced', async () => {
      const reader = runtime.canon.readerFor(editor);
      expect((await reader.message(SECRET.messageId))?.visibility).toBe('personal');
      const ids = (await reader.objects()).map((o) => o.object_id);
      expect(ids).toEqual(expect.arrayContaining(['eddie.salary', 'eddie.old', 'team.morale']));
      expect((await reader.object('team.morale'))?.visibility).toBe('personal');
      expect(await reader.dependents('team.budget')).toEqual(['eddie.salary']);
      const walk = await provenance(runtime.canon, editor, 'eddie.salary');
      expect(walk.why.sources).toEqual([
        expect.objectContaining({ quote: SECRET.quote, actor: editor.id, speaker: 'user' }),
      ]);
      expect(walk.replaced.superseded_objects.map((o) => o.object_id)).toEqual(['eddie.old']);
      const set = await workingSet(runtime.canon, editor, { objective: 'salary raise' });
      expect(set.notes.map((n) => n.object_id)).toContain('eddie.salary');
      expect(set.capsule).toContain(SECRET.quote);
      const ownerSet = after.get(owner.id) as Awaited<ReturnType<typeof views>>;
      expect(set.excluded).toBe(ownerSet.sets[0]!.excluded + 1);
      expect(
        (await artifactStatusPage(runtime.canon.readerAs(editor), { limit: 1000 })).map(
          (a) => a.manifest.artifact_id,
        ),
      ).toEqual(['budget.sheet', 'eddie.sheet']);
      expect((await reader.proposals('pending')).map((p) => p.object_id)).toEqual(['eddie.plan']);
    });

    it('a held-back personal proposal waits for its holder: others cannot see it to approve it', async () => {
      const [pending] = await runtime.canon.readerFor(editor).proposals('pending');
      await expectCode(runtime.canon.approve(owner, pending!.proposal_id), 'UNKNOWN_PROPOSAL');
      await expectCode(runtime.canon.reject(owner, pending!.proposal_id, 'no'), 'UNKNOWN_PROPOSAL');
      await expectCode(runtime.canon.approve(editor, pending!.proposal_id), 'FORBIDDEN');
    });

    it('writes by another principal cannot reach the personal plane and learn nothing of it', async () => {
      const before = await canonState(runtime);
      const taken = await expectCode(create(runtime, owner, 'eddie.salary'), 'CONFLICT');
      expect(taken.details).toBeUndefined();
      // The answer repeats the id the caller chose, and says nothing else.
      expect(taken.message).toBe('eddie.salary is not available; choose another id');
      await expectCode(
        runtime.canon.propose(owner, {
          object_id: 'eddie.salary',
          intent: 'update',
          base_version: hidden.hashes[1] as ContentHash,
          candidate: note(),
        }),
        'UNKNOWN_OBJECT',
      );
      await expectCode(
        create(runtime, owner, 'x.cite', {
          sources: [{ message_id: SECRET.messageId, span: [0, 5], quote: 'Diary' }],
        }),
        'SOURCE_MISSING',
      );
      await expectCode(
        create(runtime, owner, 'x.msg', {}, { message_id: SECRET.messageId }),
        'UNKNOWN_MESSAGE',
      );
      await expectCode(
        create(runtime, owner, 'x.dep', { dependency_refs: ['eddie.salary'] }),
        'UNKNOWN_OBJECT',
      );
      await expectCode(
        runtime.canon.propose(owner, {
          object_id: 'x.sup',
          intent: 'supersede',
          base_version: null,
          supersedes: ['eddie.salary'],
          candidate: note(),
        }),
        'UNKNOWN_OBJECT',
      );
      await expectCode(
        runtime.canon.restore(owner, 'eddie.salary', hidden.hashes[0] as ContentHash),
        'UNKNOWN_OBJECT',
      );
      await expectCode(
        registerArtifact(runtime.canon, owner, {
          artifact_id: 'x.art',
          canonical_note_versions: [{ object_id: 'eddie.salary', version_hash: hidden.hashes[1] }],
          output_digest: contentHash('x'),
        }),
        'UNKNOWN_VERSION',
      );
      const artifactTaken = await expectCode(
        registerArtifact(runtime.canon, owner, {
          artifact_id: 'eddie.sheet',
          canonical_note_versions: [
            { object_id: 'team.budget', version_hash: await currentHash(runtime, 'team.budget') },
          ],
          output_digest: contentHash('x'),
        }),
        'CONFLICT',
      );
      expect(artifactTaken.details).toBeUndefined();
      await expectCode(
        reviewArtifact(runtime.canon, owner, 'eddie.sheet', 'accepted'),
        'UNKNOWN_ARTIFACT',
      );
      await expectCode(
        archiveMessage(runtime.canon, owner, { text: 'hello', message_id: SECRET.messageId }),
        'CONFLICT',
      );
      expect(await canonState(runtime)).toEqual(before);
    });

    it('crossing planes is refused with PLANE_VIOLATION and writes nothing', async () => {
      const before = await canonState(runtime);
      const cite = {
        message_id: SECRET.messageId,
        span: [
          SECRET.message.indexOf(SECRET.quote),
          SECRET.message.indexOf(SECRET.quote) + SECRET.quote.length,
        ] as [number, number],
        quote: SECRET.quote,
      };
      const cases: (() => Promise<unknown>)[] = [
        // A project note citing, coming from or depending on the personal plane.
        () => create(runtime, editor, 'p.cite', { sources: [cite] }),
        () => create(runtime, editor, 'p.from', {}, { message_id: SECRET.messageId }),
        () => create(runtime, editor, 'p.dep', { dependency_refs: ['eddie.salary'] }),
        () =>
          create(runtime, editor, 'p.work', {
            visibility: 'working',
            dependency_refs: ['eddie.salary'],
          }),
        // Replacing across planes, either way.
        () =>
          runtime.canon.propose(editor, {
            object_id: 'p.sup',
            intent: 'supersede',
            base_version: null,
            supersedes: ['eddie.salary'],
            candidate: note(),
          }),
        () =>
          runtime.canon.propose(editor, {
            object_id: 'p.mine',
            intent: 'supersede',
            base_version: null,
            supersedes: ['team.goal'],
            candidate: note({ visibility: 'personal' }),
          }),
        // A shared note never becomes personal.
        () => update(runtime, owner, 'team.goal', { visibility: 'personal' }),
      ];
      for (const work of cases) {
        const err = await expectCode(work(), 'PLANE_VIOLATION');
        expectNoLeak({ details: err.details }, []);
      }
      expect(await canonState(runtime)).toEqual(before);
      // A personal note may cite the project's messages and depend on shared notes.
      const budgetSrc = (await runtime.canon.readerFor(editor).object('team.budget'))!.source_refs;
      const fine = await create(runtime, editor, 'eddie.fine', {
        visibility: 'personal',
        sources: budgetSrc,
        dependency_refs: ['team.goal'],
      });
      expect(fine.committed?.content.visibility).toBe('personal');
    });

    it('a mutation of shared canon names no personal dependent, and the gate does not turn on one', async () => {
      const out = await update(runtime, owner, 'team.budget', {
        text: 'The team budget is 45000 EUR.',
      });
      const stale = out.proposal.comparison.checks.dependents_made_stale;
      expect(stale.items).toEqual(['budget.sheet']);
      expect(stale.detail).toBe('1 artifact(s) and 0 object(s) depend on the current version');
      expect(out.receipt.affected_dependents).toEqual([
        {
          id: 'budget.sheet',
          kind: 'artifact',
          depth: 1,
          state: 'definitely_stale',
          cause: 'team.budget changed, now v2',
        },
      ]);
      expectNoLeak(out, hidden.hashes);
      // The holder still learns that its own artifact went stale.
      const mine = await artifactStatusPage(runtime.canon.readerAs(editor), { limit: 1000 });
      expect(mine.find((a) => a.manifest.artifact_id === 'eddie.sheet')?.state).toBe(
        'definitely_stale',
      );
      expectNoLeak(await workingSet(runtime.canon, owner, { objective: 'budget salary' }));
      // What was built on the old version: the owner sees the shared artifact, the holder both.
      const built = async (who: Principal) =>
        (await provenance(runtime.canon, who, 'team.budget')).built_from_old;
      expect(await built(owner)).toEqual([{ artifact_id: 'budget.sheet', version_id: 1 }]);
      expect(await built(editor)).toEqual([
        { artifact_id: 'budget.sheet', version_id: 1 },
        { artifact_id: 'eddie.sheet', version_id: 1 },
      ]);
      expect(
        (await provenance(runtime.canon, editor, 'team.budget')).stale_if_changed.objects,
      ).toEqual(['eddie.salary']);
      expect(
        (await provenance(runtime.canon, owner, 'team.budget')).stale_if_changed.objects,
      ).toEqual([]);
    });

    it("a promotion is the holder's explicit, gated proposal and shows nothing of the personal past", async () => {
      const mineText = 'Use a violet accent. The old palette was my own mistake.';
      const made = await create(runtime, agent, 'agent.accent', {
        object_type: 'preference',
        visibility: 'personal',
        text: mineText,
      });
      const v1 = made.committed!.version_hash;
      // Leaving out visibility keeps the object's: no silent promotion.
      const raw = {
        object_id: 'agent.accent',
        intent: 'update',
        base_version: v1,
        candidate: { object_type: 'preference', title: 't', text: 'x' },
      };
      expect(proposalInput(raw, { visibility: 'personal' }).candidate.visibility).toBe('personal');
      const promoted = await update(runtime, agent, 'agent.accent', {
        visibility: 'project',
        text: 'Use a violet accent.',
      });
      expect(promoted.proposal).toMatchObject({ status: 'pending', required_role: 'editor' });
      expect(promoted.proposal.comparison.stakes).toBe('S2');
      const seen = await runtime.canon.readerFor(owner).proposal(promoted.proposal.proposal_id);
      expect(seen?.comparison.current).toEqual({
        version_hash: null,
        content: null,
        authority: { principal: agent.id, role: 'agent' },
      });
      expect(seen?.comparison.checks.information_removed).toMatchObject({
        result: true,
        items: [],
      });
      expect(JSON.stringify(seen)).not.toContain('my own mistake');
      const approved = await runtime.canon.approve(owner, promoted.proposal.proposal_id);
      expect(approved.committed).toMatchObject({ version_id: 2 });
      expect(JSON.stringify(approved.receipt)).not.toContain('my own mistake');
      const walk = await provenance(runtime.canon, owner, 'agent.accent');
      expect(walk.history.map((v) => v.version_id)).toEqual([2]);
      expect(walk.replaced.previous_version).toBeNull();
      expect(walk.restorable).toEqual([]);
      expect(JSON.stringify(walk)).not.toContain('my own mistake');
      expect((await runtime.canon.readerFor(agent).versions('agent.accent')).length).toBe(2);
      await expectCode(runtime.canon.restore(owner, 'agent.accent', v1), 'UNKNOWN_VERSION');
      await expectCode(runtime.canon.restore(agent, 'agent.accent', v1), 'PLANE_VIOLATION');
    });

    it('the journal redacts personal entries for others, whole entries re-hash and the chain links', async () => {
      const entries = await runtime.journal.read(PROJECT, { after: 0, limit: 1000 });
      const seen = await readableEntries(runtime.canon, owner, entries);
      expect(seen.length).toBe(entries.length);
      for (const [i, e] of seen.entries()) {
        if (i > 0) expect(e.prev_hash).toBe(seen[i - 1]!.hash);
        expect(e.hash).toBe(entries[i]!.hash);
        if ('redacted' in e) {
          expect(Object.keys(e).sort()).toEqual([
            'format',
            'hash',
            'prev_hash',
            'project',
            'redacted',
            'seq',
          ]);
        } else {
          expect(e).toEqual(entries[i]);
          expect(entryHash(withoutHash(e as JournalEntry))).toBe(e.hash);
        }
      }
      const redacted = seen.filter((e): e is RedactedEntry => 'redacted' in e).map((e) => e.seq);
      // Exactly the personal activity (and the agent's personal accent v1), nothing else.
      const personal = [];
      for (let seq = hidden.from; seq <= hidden.to; seq++) personal.push(seq);
      // Then eddie.fine and the agent's personal accent v1: a proposal and a commit each.
      expect(redacted.slice(0, personal.length)).toEqual(personal);
      expect(redacted.length).toBe(personal.length + 4);
      expectNoLeak(seen, [...hidden.hashes, ...hidden.proposals, 'my own mistake']);
      // The holder reads its own entries whole; the entry check agrees with the page.
      const mine = await readableEntries(runtime.canon, editor, entries);
      for (const seq of personal) expect(mine[seq - 1]).toEqual(entries[seq - 1]);
      for (const seq of personal) {
        expect(await mayReadEntry(runtime.canon, owner, entries[seq - 1]!)).toBe(false);
        expect(await mayReadEntry(runtime.canon, editor, entries[seq - 1]!)).toBe(true);
      }
      expect((await verifyProject(runtime.journal, PROJECT)).ok).toBe(true);
    });
  });
}
