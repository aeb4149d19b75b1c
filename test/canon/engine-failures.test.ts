// LCSM §13 failure tests on a real runtime, for each storage engine. Each failure is refused with a
// typed error and leaves canon as it was: objects, versions, proposals and the journal head are
// identical before and after — except where the refusal is itself journaled (a recomparison, a
// refused proposal), and then objects and versions are identical.
//
// Partial commit is provoked three real ways: (1) a projection that fails inside the append
// transaction, placed before canon's (a crash between the journal append and the pointer move) and
// after it (the pointer moved, then the crash); (2) a row of the real database that makes canon's
// own projection fail midway (the version insert collides), so the journal entries already inserted
// in that transaction must vanish with it; (3) the store closed while a proposal is in flight.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import {
  archiveMessage,
  CANON_PROJECTION,
  Canon,
  CanonReader,
  type CommitBody,
  intake,
  type Principal,
  type ProposalOutcome,
  proposalInput,
  registerArtifact,
  ScriptedClassifier,
  type SourceRef,
} from '../../src/canon/index.js';
import {
  CanonryError,
  type ContentHash,
  canonicalize,
  contentHash,
  isCanonryError,
} from '../../src/core/index.js';
import {
  Journal,
  type JournalEntry,
  type Projection,
  rebuildProject,
  verifyProject,
} from '../../src/journal/index.js';
import type { SqlValue, Store } from '../../src/store/index.js';
import {
  archivedSource,
  CANON_ENGINES,
  canonContent,
  canonState,
  create,
  currentHash,
  type EngineRuntime,
  expectCode,
  note,
  PROJECT,
  principals,
  settle,
  update,
} from '../helpers/canon.js';

const { owner, editor, agent } = principals();

/** Objects, versions, proposals and head unchanged. */
async function expectUnchanged(
  runtime: CanonryRuntime,
  before: Awaited<ReturnType<typeof canonState>>,
  project = PROJECT,
): Promise<void> {
  expect(await canonState(runtime, project)).toEqual(before);
}

/** Objects and versions unchanged (the refusal itself was journaled). */
async function expectCanonUnmoved(
  runtime: CanonryRuntime,
  before: Awaited<ReturnType<typeof canonState>>,
  project = PROJECT,
): Promise<void> {
  const after = await canonState(runtime, project);
  expect(after.objects).toEqual(before.objects);
  expect(after.versions).toEqual(before.versions);
}

const sync = (work: () => unknown) => Promise.resolve().then(work);

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`LCSM §13 failure tests on ${engine.name}`, () => {
    let env: EngineRuntime;
    let runtime: CanonryRuntime;
    let n = 0;
    const fresh = (prefix: string) => `${prefix}.${++n}`;
    beforeAll(async () => {
      env = await engine.open();
      runtime = env.runtime;
    });
    afterAll(async () => env?.close());

    describe('authority spoof', () => {
      const valid = {
        object_id: 'spoof.x',
        intent: 'create',
        base_version: null,
        candidate: note(),
      };
      it.each([
        'actor',
        'authority',
        'role',
        'principal',
        'approved_by',
        'approver',
        'authorized_by',
      ])('a proposal payload claiming %s → AUTHORITY_FROM_PAYLOAD', async (field) => {
        const before = await canonState(runtime);
        const err = await expectCode(
          sync(() => proposalInput({ ...valid, [field]: { id: 'olivia', role: 'owner' } })),
          'AUTHORITY_FROM_PAYLOAD',
        );
        expect(err.details).toEqual({ field });
        await expectCode(
          sync(() =>
            proposalInput({ ...valid, candidate: { ...valid.candidate, [field]: 'owner' } }),
          ),
          'AUTHORITY_FROM_PAYLOAD',
        );
        await expectUnchanged(runtime, before);
      });

      it('a claim hidden in a source reference → AUTHORITY_FROM_PAYLOAD', async () => {
        await expectCode(
          sync(() =>
            proposalInput({
              ...valid,
              candidate: {
                ...valid.candidate,
                sources: [{ message_id: 'm', span: [0, 1], quote: 'x', role: 'owner' }],
              },
            }),
          ),
          'AUTHORITY_FROM_PAYLOAD',
        );
      });

      it('an agent message with role user (or system) → AUTHORITY_FROM_PAYLOAD, nothing archived', async () => {
        const classifier = new ScriptedClassifier({
          subjects: {
            'ui.palette': { title: 'Palette', object_type: 'preference', keywords: ['palette'] },
          },
        });
        const before = await canonState(runtime);
        for (const role of ['user', 'system']) {
          await expectCode(
            intake(runtime.canon, classifier, agent, {
              text: 'We have decided: the palette is red.',
              role,
            }),
            'AUTHORITY_FROM_PAYLOAD',
          );
          await expectCode(
            archiveMessage(runtime.canon, agent, { text: 'I am the user.', role }),
            'AUTHORITY_FROM_PAYLOAD',
          );
        }
        await expectCode(
          archiveMessage(runtime.canon, agent, { text: 'hi', actor: 'olivia' }),
          'AUTHORITY_FROM_PAYLOAD',
        );
        await expectUnchanged(runtime, before);
      });

      it("an agent's words claiming ownership are still an agent's proposal", async () => {
        const classifier = new ScriptedClassifier({
          subjects: {
            'ui.accent': { title: 'Accent', object_type: 'preference', keywords: ['accent'] },
          },
        });
        const result = await intake(runtime.canon, classifier, agent, {
          text: 'As the owner, I have decided the accent must be gold.',
        });
        expect(result.message).toMatchObject({ role: 'agent', actor: agent.id });
        expect(result.proposals.length).toBeGreaterThan(0);
        for (const p of result.proposals) {
          expect(p.ok).toBe(true);
          if (!p.ok) continue;
          expect(p.outcome.proposal.proposer).toEqual(agent);
          expect(p.outcome.proposal.candidate.status).toBe('provisional');
          if (p.outcome.committed) {
            expect(p.outcome.committed.authority).toMatchObject({
              proposer: { id: agent.id, role: 'agent' },
              approver: null,
            });
          }
        }
      });
    });

    describe('stale approval', () => {
      it('approving after the object moved → STALE_APPROVAL, a new comparison, then an approval that names the new base works', async () => {
        const id = fresh('sa.obj');
        await create(runtime, owner, id, { text: 'The release train is weekly.' });
        const v1 = await currentHash(runtime, id);
        const pending = await update(runtime, agent, id, {
          object_type: 'decision',
          text: 'The release train is weekly. Hotfixes ship daily.',
        });
        expect(pending.proposal).toMatchObject({ status: 'pending', base_version: v1 });
        const moved = await update(runtime, owner, id, {
          text: 'The release train is biweekly.',
        });
        const v2 = moved.committed!.version_hash;

        const before = await canonState(runtime);
        const err = await expectCode(
          runtime.canon.approve(editor, pending.proposal.proposal_id),
          'STALE_APPROVAL',
        );
        expect(err.details).toMatchObject({ base_version: v2 });
        await expectCanonUnmoved(runtime, before);
        // The recomparison is journaled: one entry, and the proposal now compares against v2.
        const after = await canonState(runtime);
        expect(after.head.seq).toBe(before.head.seq + 1);
        const [entry] = await runtime.journal.read(PROJECT, { after: before.head.seq });
        expect(entry!.kind).toBe('canon.recompare');
        const recompared = (await runtime.canon
          .reader(PROJECT)
          .proposal(pending.proposal.proposal_id))!;
        expect(recompared.status).toBe('pending');
        expect(recompared.base_version).toBe(v2);
        expect(recompared.comparison.current.version_hash).toBe(v2);
        expect(recompared.comparison.current.content?.text).toBe('The release train is biweekly.');
        expect(recompared.comparison.checks.information_removed.items).toEqual([
          'the release train is biweekly.',
        ]);
        expect(recompared.approval_requires_base).toBe(v2);

        // The same request again does not commit: the approver has to name the new base.
        const unacknowledged = await canonState(runtime);
        await expectCode(
          runtime.canon.approve(editor, pending.proposal.proposal_id),
          'BASE_NOT_ACKNOWLEDGED',
        );
        expect(await canonState(runtime)).toEqual(unacknowledged);
        const approved = await runtime.canon.approve(editor, pending.proposal.proposal_id, {
          base_version: v2,
        });
        expect(approved.proposal.status).toBe('committed');
        expect(approved.committed).toMatchObject({ version_id: 3, parent_version_hash: v2 });
        expect((await verifyProject(runtime.journal, PROJECT)).ok).toBe(true);
      });

      // Superseding an object moves canon without giving it a new version; an approval of an
      // update made before that is stale too, and must not silently bring the object back.
      it('approving after the object was superseded → STALE_APPROVAL, the supersede stands', async () => {
        const id = fresh('sa.superseded');
        await create(runtime, owner, id, { object_type: 'preference', text: 'Rounded corners.' });
        const pending = await update(runtime, agent, id, {
          object_type: 'decision',
          text: 'Rounded corners everywhere.',
        });
        expect(pending.proposal.status).toBe('pending');
        const replacement = fresh('sa.replacement');
        await runtime.canon.propose(owner, {
          object_id: replacement,
          intent: 'supersede',
          base_version: null,
          supersedes: [id],
          candidate: note({ object_type: 'preference', text: 'Square corners.' }),
        });
        const before = await canonState(runtime);
        const outcome = await runtime.canon.approve(editor, pending.proposal.proposal_id).then(
          () => 'committed',
          (err: unknown) => (err instanceof CanonryError ? err.code : err),
        );
        expect((await runtime.canon.reader(PROJECT).object(id))!).toMatchObject({
          status: 'superseded',
          superseded_by: replacement,
        });
        expect(outcome).toBe('STALE_APPROVAL');
        await expectCanonUnmoved(runtime, before);
      });

      // The recomparison must judge the same mutation: the stakes of a supersede count the types it
      // replaces, and a suggestion stays a suggestion, whenever it is compared.
      it('the recomparison keeps the stakes and modality of the original proposal', async () => {
        const target = fresh('sa.fact');
        const replaced = fresh('sa.decision');
        await create(runtime, owner, target, { text: 'Caching is on.' });
        await create(runtime, owner, replaced, { object_type: 'decision', text: 'We cache.' });
        const o = await runtime.canon.propose(
          agent,
          {
            object_id: target,
            intent: 'supersede',
            base_version: await currentHash(runtime, target),
            supersedes: [replaced],
            candidate: note({ text: 'Caching is on. It is a decision now.' }),
          },
          { fromSuggestion: true },
        );
        expect(o.proposal.comparison.stakes).toBe('S2');
        await update(runtime, owner, target, { title: 'Caching' });
        await expectCode(runtime.canon.approve(editor, o.proposal.proposal_id), 'STALE_APPROVAL');
        const again = (await runtime.canon.reader(PROJECT).proposal(o.proposal.proposal_id))!;
        expect(again.comparison.stakes).toBe('S2');
        expect(again.gate.label).toBe(o.proposal.gate.label);
      });
    });

    describe('missing source', () => {
      const propose = (who: Principal, source: SourceRef) =>
        runtime.canon.propose(who, {
          object_id: fresh('ms.obj'),
          intent: 'create',
          base_version: null,
          candidate: note({ confidence_state: 'sourced', sources: [source] }),
        });

      it('a quote that does not match the archived span → SOURCE_MISSING', async () => {
        const { message_id } = await archivedSource(runtime, owner, 'The budget is 10k.');
        const before = await canonState(runtime);
        await expectCode(
          propose(owner, { message_id, span: [0, 18], quote: 'The budget is 99k.' }),
          'SOURCE_MISSING',
        );
        await expectUnchanged(runtime, before);
      });

      it('an unknown message id → SOURCE_MISSING', async () => {
        const before = await canonState(runtime);
        await expectCode(
          propose(owner, { message_id: 'msg_nowhere', span: [0, 4], quote: 'None' }),
          'SOURCE_MISSING',
        );
        await expectUnchanged(runtime, before);
      });

      it('a span beyond the end of the message → SOURCE_MISSING', async () => {
        const text = 'The deadline is Friday.';
        const { message_id } = await archivedSource(runtime, owner, text);
        const before = await canonState(runtime);
        await expectCode(
          propose(owner, { message_id, span: [30, 40], quote: 'Saturday' }),
          'SOURCE_MISSING',
        );
        // The quote equals what slice() returns when the end is clipped: still outside the message.
        await expectCode(
          propose(owner, { message_id, span: [0, text.length + 20], quote: text }),
          'SOURCE_MISSING',
        );
        await expectUnchanged(runtime, before);
      });

      it("another project's message → SOURCE_MISSING", async () => {
        const stranger = principals('elsewhere').owner;
        const { source } = await archivedSource(runtime, stranger, 'Elsewhere, the limit is 5.');
        const before = await canonState(runtime);
        await expectCode(propose(owner, source), 'SOURCE_MISSING');
        await expectUnchanged(runtime, before);
      });
    });

    describe('stale base_version', () => {
      it('an update against an old version → CONFLICT with the current version', async () => {
        const id = fresh('sb.obj');
        await create(runtime, owner, id);
        const v1 = await currentHash(runtime, id);
        await update(runtime, owner, id, { text: 'Moved on.' });
        const v2 = await currentHash(runtime, id);
        const before = await canonState(runtime);
        const err = await expectCode(
          runtime.canon.propose(owner, {
            object_id: id,
            intent: 'update',
            base_version: v1,
            candidate: note({ text: 'Based on v1.' }),
          }),
          'CONFLICT',
        );
        expect(err.details).toEqual({ current_version: v2 });
        await expectUnchanged(runtime, before);
      });

      it('a create of an existing object, or an update with no base → CONFLICT', async () => {
        const id = fresh('sb.exists');
        await create(runtime, owner, id);
        const before = await canonState(runtime);
        await expectCode(create(runtime, owner, id), 'CONFLICT');
        await expectCode(
          runtime.canon.propose(owner, {
            object_id: id,
            intent: 'update',
            base_version: null,
            candidate: note(),
          }),
          'CONFLICT',
        );
        await expectUnchanged(runtime, before);
      });
    });

    describe('partial commit', () => {
      /** A projection that fails inside the append transaction, recording what it saw there. */
      const crashing = (seen: { pointer: string | null }[]): Projection => ({
        name: 'test-crash',
        kinds: ['canon.commit'],
        tables: [],
        async apply(tx, entry: JournalEntry) {
          const body = entry.body as unknown as CommitBody;
          const object = await new CanonReader(tx, entry.project).object(body.version.note_id);
          seen.push({ pointer: object?.current_version_ref ?? null });
          throw new CanonryError('STORE_UNAVAILABLE', 'simulated crash inside the commit');
        },
      });

      it.each([
        ['between the journal append and the pointer move', 'before'],
        ['after the pointer moved, before the transaction commits', 'after'],
      ] as const)('a crash %s leaves nothing', async (_, where) => {
        const id = fresh('pc.crash');
        await create(runtime, owner, id, { text: 'Version one.' });
        const v1 = await currentHash(runtime, id);
        const seen: { pointer: string | null }[] = [];
        const crash = crashing(seen);
        const journal = new Journal(runtime.store, {
          projections: where === 'before' ? [crash, CANON_PROJECTION] : [CANON_PROJECTION, crash],
        });
        const faulty = new Canon({ journal, kernel: runtime.kernel, gate: runtime.canon.gate });
        const before = await canonState(runtime);
        const entriesBefore = await runtime.store.all(
          'SELECT seq FROM journal_entries WHERE project = $1',
          [PROJECT],
        );
        await expectCode(
          faulty.propose(owner, {
            object_id: id,
            intent: 'update',
            base_version: v1,
            candidate: note({ text: 'Version two.' }),
          }),
          'STORE_UNAVAILABLE',
        );
        // It failed midway: the proposal and commit entries were inserted in that transaction and,
        // with `after`, the pointer had moved inside it.
        expect(seen.length).toBeGreaterThan(0);
        if (where === 'before') expect(seen[0]!.pointer).toBe(v1);
        else expect(seen[0]!.pointer).not.toBe(v1);
        await expectUnchanged(runtime, before);
        expect(
          await runtime.store.all('SELECT seq FROM journal_entries WHERE project = $1', [PROJECT]),
        ).toEqual(entriesBefore);
        expect((await verifyProject(runtime.journal, PROJECT)).ok).toBe(true);
        // The same mutation through the healthy journal then commits.
        const ok = await update(runtime, owner, id, { text: 'Version two.' });
        expect(ok.committed?.version_id).toBe(2);
      });

      it("canon's own projection failing midway (a colliding version row) leaves nothing", async () => {
        const id = fresh('pc.collide');
        await create(runtime, owner, id, { text: 'Version one.' });
        // A stray row where version 2 will go (a corrupted projection): the commit's insert fails
        // after its journal entries and receipts were written in the same transaction.
        await runtime.store.run(
          'INSERT INTO canon_versions (project, object_id, version_id, version_hash, seq, record) VALUES ($1, $2, 2, $3, 0, $4)',
          [PROJECT, id, `sha256:${'e'.repeat(64)}`, '{}'],
        );
        const before = await canonState(runtime);
        let caught: unknown;
        try {
          await update(runtime, owner, id, { text: 'Version two.' });
        } catch (err) {
          caught = err;
        }
        expect(caught).toBeDefined();
        // The engine's constraint violation: SQLITE_CONSTRAINT_PRIMARYKEY or SQLSTATE 23505.
        expect(String((caught as { code?: unknown }).code)).toMatch(
          /^(SQLITE_CONSTRAINT_PRIMARYKEY|23505)$/,
        );
        await expectUnchanged(runtime, before);
        expect((await verifyProject(runtime.journal, PROJECT)).ok).toBe(true);
        // Rebuilding repairs the projection; the mutation then commits.
        await rebuildProject(runtime.journal, PROJECT);
        const ok = await update(runtime, owner, id, { text: 'Version two.' });
        expect(ok.committed?.version_id).toBe(2);
      });

      it('the store closed while a proposal is in flight → STORE_UNAVAILABLE, nothing written', async () => {
        // What the runtime could not write once its store was closed under it (the audit's records,
        // the unsigned head) is reported, as that failure and nothing else.
        const background: unknown[] = [];
        const own = await engine.open({ onError: (err) => background.push(err) });
        try {
          const rt = own.runtime;
          const id = 'pc.closed';
          await create(rt, owner, id, { text: 'Version one.' });
          await rt.canon.journal.store.all('SELECT 1 AS one');
          const before = await canonState(rt);
          const inFlight = update(rt, owner, id, { text: 'Version two.' });
          await rt.store.close();
          const outcome = await Promise.race([
            inFlight.then(
              () => 'committed',
              (err: unknown) => err,
            ),
            sleep(10_000).then(() => 'never settled'),
          ]);
          expect(outcome).toBeInstanceOf(CanonryError);
          expect((outcome as CanonryError).code).toBe('STORE_UNAVAILABLE');
          // A new runtime on the same database sees exactly the state before.
          const reopened = await createCanonry({
            dataDir: own.dataDir,
            db: own.db,
            logLevel: 'silent',
          });
          try {
            await expectUnchanged(reopened, before);
            expect((await verifyProject(reopened.journal, PROJECT)).ok).toBe(true);
          } finally {
            await reopened.close();
          }
        } finally {
          await own.close();
        }
        expect(background.filter((err) => !isCanonryError(err, 'STORE_UNAVAILABLE'))).toEqual([]);
      });
    });

    describe('duplicate operation', () => {
      it('the same message_id archived twice → one archive entry', async () => {
        const id = fresh('dup-msg');
        const first = await archiveMessage(runtime.canon, owner, { text: 'Once.', message_id: id });
        const head = await runtime.journal.head(PROJECT);
        const again = await archiveMessage(runtime.canon, owner, { text: 'Once.', message_id: id });
        expect(again).toEqual(first);
        // The same id with other content is a client error, not a silent drop of the new text.
        await expectCode(
          archiveMessage(runtime.canon, owner, {
            text: 'A different text under the same id.',
            message_id: id,
          }),
          'CONFLICT',
        );
        expect(await runtime.journal.head(PROJECT)).toEqual(head);
        const concurrent = await Promise.all(
          Array.from({ length: 6 }, () =>
            archiveMessage(runtime.canon, owner, { text: 'Once.', message_id: `${id}-c` }),
          ),
        );
        expect(new Set(concurrent.map((m) => m.seq)).size).toBe(1);
        for (const key of [id, `${id}-c`]) {
          const entries = await runtime.store.all(
            'SELECT seq FROM journal_entries WHERE project = $1 AND idempotency_key = $2',
            [PROJECT, `message:${key}`],
          );
          expect(entries).toHaveLength(1);
          const rows = await runtime.store.all(
            'SELECT seq FROM canon_messages WHERE project = $1 AND message_id = $2',
            [PROJECT, key],
          );
          expect(rows).toHaveLength(1);
        }
        expect((await runtime.canon.reader(PROJECT).message(id))!.text).toBe('Once.');
      });

      // A retried request (same message_id) is the same operation: archiving is idempotent, and so
      // must be what intake does with it — no second proposal, no second version.
      it('the same message sent twice through intake → one archive entry, one mutation', async () => {
        const classifier = new ScriptedClassifier({
          subjects: {
            'ui.border': { title: 'Border', object_type: 'preference', keywords: ['border'] },
          },
        });
        const input = { text: 'I would like a thin border.', message_id: fresh('dup-intake') };
        const first = await intake(runtime.canon, classifier, owner, input);
        expect(first.proposals.map((p) => p.ok && p.outcome.proposal.status)).toEqual([
          'committed',
        ]);
        const before = await canonState(runtime);
        const again = await intake(runtime.canon, classifier, owner, input);
        expect(again.message).toEqual(first.message);
        const reader = runtime.canon.reader(PROJECT);
        expect({
          versions: (await reader.versions('ui.border')).length,
          proposals: (await reader.proposals()).filter((p) => p.message_id === input.message_id)
            .length,
        }).toEqual({ versions: 1, proposals: 1 });
        await expectUnchanged(runtime, before);
      });

      it('concurrent duplicate approvals → exactly one commit, the other PROPOSAL_CLOSED', async () => {
        const id = fresh('dup.approve');
        const o = await create(runtime, agent, id, { object_type: 'decision' });
        expect(o.proposal.status).toBe('pending');
        const result = await settle([
          runtime.canon.approve(editor, o.proposal.proposal_id),
          runtime.canon.approve(owner, o.proposal.proposal_id),
        ]);
        expect(result.other).toEqual([]);
        expect(result.ok).toHaveLength(1);
        expect(await runtime.canon.reader(PROJECT).versions(id)).toHaveLength(1);
        expect(result.codes).toEqual(['PROPOSAL_CLOSED']);
      });

      // approve() reads the proposal (pending), then the object. If a rival approval commits in
      // between, the late one sees the object moved and journals a recomparison — which must not
      // reopen a proposal that has already committed, nor let it commit a second time.
      it('an approval that loses a race does not reopen the committed proposal', async () => {
        const id = fresh('dup.reopen');
        const o = await create(runtime, agent, id, { object_type: 'decision' });
        let release!: () => void;
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        // A slow connection: the first read answers, then the next waits for the rival's commit.
        let reads = 0;
        const store = runtime.store;
        const slowStore: Store = {
          capabilities: store.capabilities,
          description: store.description,
          async all<T extends object>(sql: string, params?: readonly SqlValue[]) {
            const rows = await store.all<T>(sql, params);
            if (++reads === 1) await held;
            return rows;
          },
          values: (sql, params) => store.values(sql, params),
          run: (sql, params) => store.run(sql, params),
          exec: (sql) => store.exec(sql),
          transaction: (work, options) => store.transaction(work, options),
          close: async () => undefined,
        };
        const slow = new Canon({
          journal: new Journal(slowStore, { projections: [CANON_PROJECTION] }),
          kernel: runtime.kernel,
          gate: runtime.canon.gate,
        });
        const late = slow.approve(owner, o.proposal.proposal_id).then(
          () => 'committed',
          (err: unknown) => (err instanceof CanonryError ? err.code : err),
        );
        await sleep(50);
        const winner = await runtime.canon.approve(editor, o.proposal.proposal_id);
        expect(winner.proposal.status).toBe('committed');
        release();
        const lateOutcome = await late;
        const reader = runtime.canon.reader(PROJECT);
        const status = (await reader.proposal(o.proposal.proposal_id))!.status;
        const third = await runtime.canon.approve(editor, o.proposal.proposal_id).then(
          () => 'committed again',
          (err: unknown) => (err instanceof CanonryError ? err.code : err),
        );
        expect({
          late: lateOutcome,
          status,
          third,
          versions: (await reader.versions(id)).length,
        }).toEqual({
          late: 'PROPOSAL_CLOSED',
          status: 'committed',
          third: 'PROPOSAL_CLOSED',
          versions: 1,
        });
      });

      it('a repeated approval → PROPOSAL_CLOSED, nothing written', async () => {
        const o = await create(runtime, agent, fresh('dup.again'), { object_type: 'decision' });
        await runtime.canon.approve(editor, o.proposal.proposal_id);
        const before = await canonState(runtime);
        await expectCode(runtime.canon.approve(editor, o.proposal.proposal_id), 'PROPOSAL_CLOSED');
        await expectCode(
          runtime.canon.reject(editor, o.proposal.proposal_id, 'late'),
          'PROPOSAL_CLOSED',
        );
        await expectUnchanged(runtime, before);
      });

      it('an approval racing a rejection → exactly one wins, the other PROPOSAL_CLOSED', async () => {
        const id = fresh('dup.race');
        const o = await create(runtime, agent, id, { object_type: 'decision' });
        const result = await settle<unknown>([
          runtime.canon.approve(editor, o.proposal.proposal_id),
          runtime.canon.reject(owner, o.proposal.proposal_id, 'no'),
        ]);
        expect(result.other).toEqual([]);
        expect(result.ok).toHaveLength(1);
        expect(result.codes).toEqual(['PROPOSAL_CLOSED']);
        const p = (await runtime.canon.reader(PROJECT).proposal(o.proposal.proposal_id))!;
        const versions = await runtime.canon.reader(PROJECT).versions(id);
        expect(versions).toHaveLength(p.status === 'committed' ? 1 : 0);
      });
    });

    describe('conflicting writers on one object', () => {
      const racers = async (
        runtimes: readonly CanonryRuntime[],
        id: string,
        base: ContentHash | null,
        each: number,
      ) =>
        settle<ProposalOutcome>(
          runtimes.flatMap((rt, r) =>
            Array.from({ length: each }, (_, i) =>
              rt.canon.propose(owner, {
                object_id: id,
                intent: base ? 'update' : 'create',
                base_version: base,
                candidate: note({ text: `Writer ${r}-${i} wins.` }),
              }),
            ),
          ),
        );

      const expectOneWinner = async (
        result: Awaited<ReturnType<typeof racers>>,
        total: number,
        id: string,
        versions: number,
      ) => {
        expect(result.other).toEqual([]);
        expect(result.ok).toHaveLength(1);
        expect(result.codes).toEqual(Array(total - 1).fill('CONFLICT'));
        const winner = result.ok[0]!;
        expect(winner.proposal.status).toBe('committed');
        const reader = runtime.canon.reader(PROJECT);
        expect(await reader.versions(id)).toHaveLength(versions);
        expect((await reader.current(id))!.content.text).toBe(winner.proposal.candidate.text);
        // The losers journaled nothing: no proposal of theirs exists.
        const proposals = (await reader.proposals()).filter((p) => p.object_id === id);
        expect(proposals).toHaveLength(versions);
        expect((await verifyProject(runtime.journal, PROJECT)).ok).toBe(true);
      };

      it('12 concurrent updates against one base_version → one commits, 11 CONFLICT', async () => {
        const id = fresh('cw.update');
        await create(runtime, owner, id);
        const base = await currentHash(runtime, id);
        const result = await racers([runtime], id, base, 12);
        await expectOneWinner(result, 12, id, 2);
      });

      it('8 concurrent creates of one id → one commits, 7 CONFLICT', async () => {
        const id = fresh('cw.create');
        const result = await racers([runtime], id, null, 8);
        await expectOneWinner(result, 8, id, 1);
      });

      it('two independent runtimes on the same database → one commits in all', async () => {
        const other = await env.another();
        const id = fresh('cw.two');
        await create(runtime, owner, id);
        const base = await currentHash(runtime, id);
        const result = await racers([runtime, other], id, base, 6);
        await expectOneWinner(result, 12, id, 2);
        expect(await canonContent(other.store)).toEqual(await canonContent(runtime.store));
      });

      it('two concurrent approvals of rival pending proposals → one commits', async () => {
        const id = fresh('cw.pending');
        await create(runtime, owner, id);
        const base = await currentHash(runtime, id);
        const pending = await Promise.all(
          [1, 2].map((i) =>
            runtime.canon.propose(agent, {
              object_id: id,
              intent: 'update',
              base_version: base,
              candidate: note({ object_type: 'decision', text: `Rival ${i}.` }),
            }),
          ),
        );
        expect(pending.map((p) => p.proposal.status)).toEqual(['pending', 'pending']);
        const result = await settle(
          pending.map((p) => runtime.canon.approve(editor, p.proposal.proposal_id)),
        );
        expect(result.ok).toHaveLength(1);
        expect(result.codes).toHaveLength(1);
        expect(['CONFLICT', 'STALE_APPROVAL']).toContain(result.codes[0]);
        expect(await runtime.canon.reader(PROJECT).versions(id)).toHaveLength(2);
      });

      // Superseding writes the replaced object too: two supersedes of one object must not both win.
      it('two concurrent supersedes of one object → one commits, the other CONFLICT', async () => {
        const old = fresh('cw.old');
        await create(runtime, owner, old, { object_type: 'preference', text: 'Teal.' });
        const result = await settle(
          ['cw.new-a', 'cw.new-b'].map((id) =>
            runtime.canon.propose(owner, {
              object_id: fresh(id),
              intent: 'supersede',
              base_version: null,
              supersedes: [old],
              candidate: note({ object_type: 'preference', text: `${id} replaces teal.` }),
            }),
          ),
        );
        expect(result.other).toEqual([]);
        const object = (await runtime.canon.reader(PROJECT).object(old))!;
        expect(object.status).toBe('superseded');
        expect(result.ok).toHaveLength(1);
        expect(result.codes).toEqual(['CONFLICT']);
        expect(object.superseded_by).toBe(result.ok[0]!.proposal.object_id);
      });

      it('a supersede naming its own object is refused, nothing written', async () => {
        const id = fresh('cw.self');
        await create(runtime, owner, id, { object_type: 'preference', text: 'Itself.' });
        const before = await canonState(runtime);
        const outcome = await runtime.canon
          .propose(owner, {
            object_id: id,
            intent: 'supersede',
            base_version: await currentHash(runtime, id),
            supersedes: [id],
            candidate: note({ object_type: 'preference', text: 'Itself, replaced by itself.' }),
          })
          .then(
            () => 'committed',
            (err: unknown) => (err instanceof CanonryError ? err.code : err),
          );
        // Committing would leave the object superseded by itself: gone from current canon.
        expect((await runtime.canon.reader(PROJECT).object(id))!.superseded_by).toBeNull();
        expect(['INVALID_PROPOSAL', 'CONFLICT']).toContain(outcome);
        await expectUnchanged(runtime, before);
      });

      it('superseding an already superseded object → UNKNOWN_OBJECT, nothing written', async () => {
        const old = fresh('cw.gone');
        await create(runtime, owner, old, { object_type: 'preference' });
        await runtime.canon.propose(owner, {
          object_id: fresh('cw.first'),
          intent: 'supersede',
          base_version: null,
          supersedes: [old],
          candidate: note({ object_type: 'preference' }),
        });
        const before = await canonState(runtime);
        await expectCode(
          runtime.canon.propose(owner, {
            object_id: fresh('cw.second'),
            intent: 'supersede',
            base_version: null,
            supersedes: [old],
            candidate: note({ object_type: 'preference' }),
          }),
          'UNKNOWN_OBJECT',
        );
        await expectUnchanged(runtime, before);
      });
    });

    describe('broken chain', () => {
      it('a tampered canon.commit body in the real database → verifyProject names its seq', async () => {
        const project = 'tamper';
        const o = principals(project).owner;
        await create(runtime, o, 'tp.obj', { text: 'The price is 10.' });
        const committed = await update(runtime, o, 'tp.obj', { text: 'The price is 12.' });
        await create(runtime, o, 'tp.after', { text: 'Later entry.' });
        expect((await verifyProject(runtime.journal, project)).ok).toBe(true);
        const seq = committed.receipt.result_state_ref.seq;
        const [row] = await runtime.store.all<{ kind: string; body: string }>(
          'SELECT kind, body FROM journal_entries WHERE project = $1 AND seq = $2',
          [project, seq],
        );
        expect(row!.kind).toBe('canon.commit');
        const body = JSON.parse(row!.body) as CommitBody;
        const forged = {
          ...body,
          version: {
            ...body.version,
            content: { ...body.version.content, text: 'The price is 1.' },
          },
        };
        await runtime.store.run(
          'UPDATE journal_entries SET body = $1 WHERE project = $2 AND seq = $3',
          [canonicalize(forged), project, seq],
        );
        const report = await verifyProject(runtime.journal, project, {
          root: runtime.keyring.rootCertificatePem,
        });
        expect(report.ok).toBe(false);
        expect(report.broken).toMatchObject({ seq, reason: 'body-changed' });
      });

      // Rebuilding is how a corrupted cache is repaired (§7): it must not launder a tampered entry
      // into canon, so it refuses a chain that does not verify.
      it('rebuildProject refuses to replay a tampered chain into canon', async () => {
        const project = 'tamper-rebuild';
        const o = principals(project).owner;
        const committed = await create(runtime, o, 'tr.obj', { text: 'The price is 10.' });
        const seq = committed.receipt.result_state_ref.seq;
        const [row] = await runtime.store.all<{ body: string }>(
          'SELECT body FROM journal_entries WHERE project = $1 AND seq = $2',
          [project, seq],
        );
        const body = JSON.parse(row!.body) as CommitBody;
        const forged = {
          ...body,
          version: { ...body.version, content: { ...body.version.content, text: 'Free.' } },
        };
        await runtime.store.run(
          'UPDATE journal_entries SET body = $1 WHERE project = $2 AND seq = $3',
          [canonicalize(forged), project, seq],
        );
        const before = await canonContent(runtime.store, project);
        await expectCode(rebuildProject(runtime.journal, project), 'CHAIN_BROKEN');
        expect(await canonContent(runtime.store, project)).toEqual(before);
        expect((await runtime.canon.reader(project).object('tr.obj'))!.text).toBe(
          'The price is 10.',
        );
      });
    });

    describe('corrupted projection', () => {
      it('edited objects, a deleted version and a flipped proposal → rebuildProject repairs them', async () => {
        const project = 'corrupt';
        const p = principals(project);
        await create(runtime, p.owner, 'cp.obj', { text: 'The quota is 5.' });
        await update(runtime, p.owner, 'cp.obj', { text: 'The quota is 6.' });
        const pending = await create(runtime, p.agent, 'cp.plan', { object_type: 'decision' });
        const good = await canonContent(runtime.store, project);
        const [row] = await runtime.store.all<{ record: string }>(
          'SELECT record FROM canon_objects WHERE project = $1 AND object_id = $2',
          [project, 'cp.obj'],
        );
        const record = JSON.parse(row!.record) as Record<string, unknown>;
        await runtime.store.run(
          "UPDATE canon_objects SET status = 'retired', record = $1 WHERE project = $2 AND object_id = $3",
          [
            JSON.stringify({ ...record, text: 'The quota is 500.', status: 'retired' }),
            project,
            'cp.obj',
          ],
        );
        await runtime.store.run(
          'DELETE FROM canon_versions WHERE project = $1 AND object_id = $2 AND version_id = 1',
          [project, 'cp.obj'],
        );
        await runtime.store.run(
          "UPDATE canon_proposals SET status = 'committed' WHERE project = $1 AND proposal_id = $2",
          [project, pending.proposal.proposal_id],
        );
        const reader = runtime.canon.reader(project);
        expect((await reader.object('cp.obj'))!.text).toBe('The quota is 500.');
        expect(await reader.versions('cp.obj')).toHaveLength(1);
        // The journal itself is intact: the corruption is in the projection only.
        expect((await verifyProject(runtime.journal, project)).ok).toBe(true);
        await rebuildProject(runtime.journal, project);
        expect(await canonContent(runtime.store, project)).toEqual(good);
        expect((await reader.object('cp.obj'))!).toMatchObject({
          text: 'The quota is 6.',
          status: 'active',
        });
      });
    });

    describe('cross-project retrieval', () => {
      it("one project's objects, versions, proposals and messages are invisible to another", async () => {
        const a = principals('proj-a');
        const b = principals('proj-b');
        const made = await create(runtime, a.owner, 'shared.name', { text: 'A says alpha.' });
        const pendingA = await create(runtime, a.agent, 'shared.plan', { object_type: 'decision' });
        const { source } = await archivedSource(runtime, a.owner, 'A-only evidence.');
        const hashA = made.committed!.version_hash;
        const readerB = runtime.canon.reader('proj-b');
        const before = await canonState(runtime, 'proj-b');
        expect(await readerB.object('shared.name')).toBeNull();
        expect(await readerB.version(hashA)).toBeNull();
        expect(await readerB.proposal(pendingA.proposal.proposal_id)).toBeNull();
        expect(await readerB.message(source.message_id)).toBeNull();
        await expectCode(
          runtime.canon.approve(b.owner, pendingA.proposal.proposal_id),
          'UNKNOWN_PROPOSAL',
        );
        await expectCode(
          runtime.canon.propose(b.owner, {
            object_id: 'b.obj',
            intent: 'create',
            base_version: null,
            candidate: note({ sources: [source] }),
          }),
          'SOURCE_MISSING',
        );
        await expectCode(
          registerArtifact(runtime.canon, b.owner, {
            artifact_id: 'b-art',
            canonical_note_versions: [{ object_id: 'shared.name', version_hash: hashA }],
            output_digest: contentHash('b'),
          }),
          'UNKNOWN_VERSION',
        );
        await expectCode(runtime.canon.restore(b.owner, 'shared.name', hashA), 'UNKNOWN_OBJECT');
        await expectUnchanged(runtime, before, 'proj-b');
      });
    });
  });
}
