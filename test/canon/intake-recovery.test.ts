// Intake that recovers (LCSM §4): a message whose classification failed — the model down, its answer
// refused — is journaled as such (`canon.classification_failed`: code, a clipped, credential-free
// reason), listed as unclassified (personal messages only to their speaker, §14) and classified
// again once the model is back, exactly once even when two processes retry at the same time. Also:
// the first message of a project with no configuration proposes; classifier subjects are journaled
// and survive a rebuild; restore by version number; message ids with the characters source systems
// use. On SQLite files and PostgreSQL, through ModelClassifier over a ScriptedModel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Classifier,
  classifierSettings,
  importClassifierConfig,
  intake,
  ModelClassifier,
  putSubjects,
  reclassify,
  removeSubject,
  ScriptedClassifier,
  unclassifiedMessages,
} from '../../src/canon/index.js';
import { sha256Hex } from '../../src/core/index.js';
import { rebuildProject, upgradeProjections, verifyProject } from '../../src/journal/index.js';
import { modelError, ScriptedModel } from '../../src/models/index.js';
import {
  CANON_ENGINES,
  canonTables,
  create,
  type EngineRuntime,
  expectCode,
  PROJECT,
  principals,
  settle,
  update,
} from '../helpers/canon.js';
import { decisionAnswer } from '../helpers/model-answers.js';
import { type HeldLock, holdLock } from '../helpers/pg-locks.js';

const SECRET = 'sk-live-0123456789abcdef';

/**
 * A model classifier over a scripted model: while `state.down` it cannot be reached (MODEL_UNAVAILABLE,
 * naming a credential it must never leak); while `state.garbage` it answers nonsense; otherwise it
 * drafts the whole message as a decision (`release.<8 hex of its text>`).
 */
function modelClassifier(state: { down: boolean; garbage: boolean; calls: number }): Classifier {
  const model = new ScriptedModel(
    [
      {
        match: /./,
        respond: (request) => {
          state.calls++;
          if (state.down) {
            throw modelError(
              'MODEL_UNAVAILABLE',
              `connect ECONNREFUSED https://bot:${SECRET}@model.test/v1 (Authorization: Bearer ${SECRET})`,
              'scripted',
            );
          }
          if (state.garbage) return `not json at all ${SECRET} ${'x'.repeat(5000)}`;
          const user = request.messages.at(-1)!.content;
          const text = (JSON.parse(user) as { message: { text: string } }).message.text;
          const id = `release.${sha256Hex(text).slice(0, 8)}`;
          return decisionAnswer(text, id);
        },
      },
    ],
    'scripted',
  );
  return new ModelClassifier(model);
}

const INTAKE_TABLES = ['canon_intake', 'canon_classifier'] as const;

async function intakeRows(env: EngineRuntime, project = PROJECT) {
  const out: Record<string, unknown[]> = {};
  for (const table of INTAKE_TABLES) {
    out[table] = await env.runtime.store.all(
      `SELECT * FROM ${table} WHERE project = $1 ORDER BY ${table === 'canon_intake' ? 'message_id' : 'seq'}`,
      [project],
    );
  }
  return out;
}

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`intake recovers (${engine.name})`, () => {
    let env: EngineRuntime;
    beforeAll(async () => {
      env = await engine.open();
    });
    afterAll(() => env?.close());
    const { owner, editor, agent, viewer } = principals();

    it('an outage is journaled, listed, and the message classified once the model is back', async () => {
      const { runtime } = env;
      const state = { down: true, garbage: false, calls: 0 };
      const classifier = modelClassifier(state);
      const text = 'We decided to release on Tuesdays.';
      const id = 'out-1';
      await expectCode(
        intake(runtime.canon, classifier, owner, { text, message_id: id }),
        'MODEL_UNAVAILABLE',
      );
      // A retry while still down: a second failure, counted.
      await expectCode(
        intake(runtime.canon, classifier, owner, { text, message_id: id }),
        'MODEL_UNAVAILABLE',
      );
      const listed = await unclassifiedMessages(runtime.canon, owner, { limit: 100 });
      const mine = listed.find((u) => u.message.message_id === id);
      expect(mine?.failure).toMatchObject({
        message_id: id,
        code: 'MODEL_UNAVAILABLE',
        classifier: 'model:scripted',
        attempts: 2,
        issues: [],
      });
      // The reason is kept, clipped and without the credential the error named.
      expect(mine!.failure!.detail).toContain('ECONNREFUSED');
      const entries = await runtime.journal.read(PROJECT, { after: 0, limit: 1000 });
      const failures = entries.filter((e) => e.kind === 'canon.classification_failed');
      expect(failures.map((e) => (e.body as { message_id: string }).message_id)).toEqual([id, id]);
      expect(JSON.stringify(failures)).not.toContain(SECRET);
      expect(JSON.stringify(listed)).not.toContain(SECRET);
      expect(await runtime.canon.reader(PROJECT).proposals()).toHaveLength(0);

      state.down = false;
      const result = await reclassify(runtime.canon, classifier, owner, id);
      expect(result.classification.outcome).toBe('proposed_decision');
      expect(result.proposals).toHaveLength(1);
      expect(result.proposals[0]).toMatchObject({ ok: true });
      const made = result.proposals[0]!.ok ? result.proposals[0]!.outcome.proposal.object_id : '';
      expect(await runtime.canon.reader(PROJECT).object(made)).toMatchObject({
        text,
        object_type: 'decision',
      });
      expect(
        (await unclassifiedMessages(runtime.canon, owner, { limit: 100 })).map(
          (u) => u.message.message_id,
        ),
      ).not.toContain(id);

      // Again: its first intake, no classifier call, nothing written.
      const head = await runtime.journal.head(PROJECT);
      const calls = state.calls;
      const again = await reclassify(runtime.canon, classifier, owner, id);
      expect(again.proposals.map((p) => p.ok && p.outcome.proposal.proposal_id)).toEqual(
        result.proposals.map((p) => p.ok && p.outcome.proposal.proposal_id),
      );
      expect(state.calls).toBe(calls);
      expect(await runtime.journal.head(PROJECT)).toEqual(head);
    });

    it('refused output is journaled with its first reasons, each clipped', async () => {
      const { runtime } = env;
      const state = { down: false, garbage: true, calls: 0 };
      const id = 'bad-1';
      const err = await expectCode(
        intake(runtime.canon, modelClassifier(state), owner, {
          text: 'We decided to freeze on Fridays.',
          message_id: id,
        }),
        'CLASSIFIER_FAILED',
      );
      expect(err.details).toMatchObject({ message_id: id });
      const [u] = (await unclassifiedMessages(runtime.canon, owner, { limit: 100 })).filter(
        (x) => x.message.message_id === id,
      );
      expect(u!.failure!.code).toBe('CLASSIFIER_FAILED');
      expect(u!.failure!.issues.length).toBeGreaterThan(0);
      expect(u!.failure!.issues.length).toBeLessThanOrEqual(5);
      for (const issue of u!.failure!.issues) expect(issue.length).toBeLessThanOrEqual(160);
      expect(u!.failure!.detail.length).toBeLessThanOrEqual(300);
      expect(JSON.stringify(u)).not.toContain('x'.repeat(200));
      expect(JSON.stringify(u)).not.toContain(SECRET);
    });

    it('lists archive-only messages too; personal ones only to their speaker; only the speaker retries', async () => {
      const { runtime } = env;
      const project = 'planes-intake';
      const p = principals(project);
      const state = { down: true, garbage: false, calls: 0 };
      const classifier = modelClassifier(state);
      await intake(runtime.canon, classifier, p.editor, {
        text: 'We decided to keep my notes private.',
        message_id: 'eddie:diary#1',
        visibility: 'personal',
      }).catch(() => undefined);
      await intake(runtime.canon, classifier, p.owner, {
        text: 'We decided to meet weekly.',
        message_id: 'olivia/1',
      }).catch(() => undefined);
      const ids = async (who: typeof owner) =>
        (await unclassifiedMessages(runtime.canon, who, { limit: 100 })).map(
          (u) => u.message.message_id,
        );
      expect(await ids(p.editor)).toEqual(['eddie:diary#1', 'olivia/1']);
      expect(await ids(p.owner)).toEqual(['olivia/1']);
      expect(await ids(p.viewer)).toEqual(['olivia/1']);
      // The personal message does not exist for others; a shared one is its speaker's to retry.
      state.down = false;
      await expectCode(
        reclassify(runtime.canon, classifier, p.owner, 'eddie:diary#1'),
        'UNKNOWN_MESSAGE',
      );
      await expectCode(reclassify(runtime.canon, classifier, p.editor, 'olivia/1'), 'FORBIDDEN');
      await expectCode(
        reclassify(runtime.canon, classifier, p.owner, 'no-such'),
        'UNKNOWN_MESSAGE',
      );
      const mine = await reclassify(runtime.canon, classifier, p.editor, 'eddie:diary#1');
      expect(mine.proposals[0]).toMatchObject({
        ok: true,
        outcome: { proposal: { candidate: { visibility: 'personal' } } },
      });
      expect(await ids(p.editor)).toEqual(['olivia/1']);
    });

    it('two processes retrying one message at once: one classification, one set of proposals', async () => {
      const { runtime } = env;
      const other = await env.another();
      const state = { down: true, garbage: false, calls: 0 };
      const id = 'race-1';
      await expectCode(
        intake(runtime.canon, modelClassifier(state), editor, {
          text: 'We decided to race on Mondays.',
          message_id: id,
        }),
        'MODEL_UNAVAILABLE',
      );
      state.down = false;
      const outcome = await settle([
        reclassify(runtime.canon, modelClassifier(state), editor, id),
        reclassify(other.canon, modelClassifier(state), editor, id),
        reclassify(runtime.canon, modelClassifier(state), editor, id),
      ]);
      expect(outcome.codes).toEqual([]);
      expect(outcome.other).toEqual([]);
      const keys = await runtime.store.all(
        'SELECT seq FROM journal_entries WHERE project = $1 AND idempotency_key = $2',
        [PROJECT, `classification:${id}`],
      );
      expect(keys).toHaveLength(1);
      const proposals = (await runtime.canon.reader(PROJECT).proposals()).filter(
        (p) => p.message_id === id,
      );
      expect(proposals).toHaveLength(1);
      const ids = new Set(
        outcome.ok.flatMap((r) => r.proposals.map((p) => p.ok && p.outcome.proposal.proposal_id)),
      );
      expect([...ids]).toEqual([proposals[0]!.proposal_id]);
    });

    // On PostgreSQL the first intake can be held after its claim, outside any transaction (a lock
    // on canon_objects stops its first read of a draft's object); on one SQLite file a lock would
    // stop the other process's every write too.
    it.skipIf(engine.name !== 'postgres')(
      'a retry from another process while the first intake is still proposing waits for its proposals',
      async () => {
        const { runtime } = env;
        const other = await env.another();
        const state = { down: false, garbage: false, calls: 0 };
        const id = 'race-held';
        const text = 'We decided to hold releases on Fridays.';
        let lock: HeldLock | undefined;
        // The first intake's classifier takes the lock once it has its answer: the claim is then
        // journaled, and the intake waits at its first draft.
        const inner = modelClassifier(state);
        const holding: Classifier = {
          name: inner.name,
          classify: async (input) => {
            const answer = await inner.classify(input);
            lock = holdLock(runtime.store, 'LOCK TABLE canon_objects IN ACCESS EXCLUSIVE MODE');
            await lock.held;
            return answer;
          },
        };
        const first = intake(runtime.canon, holding, editor, { text, message_id: id });
        const claimed = async () =>
          (
            await runtime.store.all(
              'SELECT seq FROM journal_entries WHERE project = $1 AND idempotency_key = $2',
              [PROJECT, `classification:${id}`],
            )
          ).length === 1;
        while (!(await claimed())) await new Promise((r) => setTimeout(r, 10));
        let answered = false;
        const retry = intake(other.canon, modelClassifier(state), editor, { text, message_id: id });
        retry.then(
          () => {
            answered = true;
          },
          () => {
            answered = true;
          },
        );
        await new Promise((r) => setTimeout(r, 400));
        // The claim is taken and no proposal made yet: an answer now would say it made none.
        const early = answered;
        lock?.release();
        await lock?.done;
        expect(early).toBe(false);
        const [a, b] = await Promise.all([first, retry]);
        const ids = (r: Awaited<typeof first>) =>
          r.proposals.map((p) => (p.ok ? p.outcome.proposal.proposal_id : p.code));
        expect(ids(a)).toHaveLength(1);
        expect(ids(b)).toEqual(ids(a));
        // A later retry reports the same, from the intake's record, without waiting.
        const again = await intake(other.canon, modelClassifier(state), editor, {
          text,
          message_id: id,
        });
        expect(ids(again)).toEqual(ids(a));
      },
    );

    it('an intake whose classifier met canon as another process left it after classifying the same message reports that classification', async () => {
      const { runtime } = env;
      const other = await env.another();
      const state = { down: false, garbage: false, calls: 0 };
      const id = 'race-late';
      const text = 'We decided to ship the late build on Thursdays.';
      let winnerDone!: () => void;
      const done = new Promise<void>((r) => {
        winnerDone = r;
      });
      // This intake reads canon only after the other has classified the message and proposed: its
      // scripted draft creates a note that exists by then, and is refused.
      const inner = modelClassifier(state);
      const late: Classifier = {
        name: inner.name,
        classify: async (input) => {
          await done;
          const canon = await other.canon
            .reader(PROJECT)
            .objects(['active', 'provisional', 'disputed']);
          return inner.classify({ ...input, canon });
        },
      };
      const slow = intake(other.canon, late, editor, { text, message_id: id });
      await new Promise((r) => setTimeout(r, 50));
      const first = await intake(runtime.canon, modelClassifier(state), editor, {
        text,
        message_id: id,
      });
      winnerDone();
      const second = await slow;
      const ids = (r: typeof first) =>
        r.proposals.map((p) => (p.ok ? p.outcome.proposal.proposal_id : p.code));
      expect(ids(first)).toHaveLength(1);
      expect(ids(second)).toEqual(ids(first));
      expect(second.classification).toEqual(first.classification);
      // Nothing says the message failed: it did not.
      const failures = await runtime.store.all(
        "SELECT seq FROM journal_entries WHERE project = $1 AND kind = 'canon.classification_failed' AND body LIKE $2",
        [PROJECT, `%${id}%`],
      );
      expect(failures).toEqual([]);
    });

    it('first run: no configuration, a decision becomes a proposal with a derived id', async () => {
      const { runtime } = env;
      const project = 'first-run';
      const { owner: o } = principals(project);
      const classifier = await runtime.classifierFor(project);
      expect(classifier.name).toBe('scripted');
      const said = await intake(runtime.canon, classifier, o, {
        text: 'We decided to ship on Fridays.',
      });
      expect(said.classification.outcome).toBe('proposed_decision');
      expect(said.proposals).toHaveLength(1);
      expect(said.proposals[0]).toMatchObject({
        ok: true,
        outcome: {
          proposal: {
            object_id: 'decision.ship-on-fridays',
            intent: 'create',
            status: 'committed',
            candidate: { object_type: 'decision', title: 'Ship on Fridays' },
          },
        },
      });
      // Said again in other words that derive the same id: an update, not a copy.
      const again = await intake(runtime.canon, classifier, o, {
        text: "We've decided: ship on Fridays!",
      });
      expect(again.proposals[0]).toMatchObject({
        ok: true,
        outcome: { proposal: { object_id: 'decision.ship-on-fridays', intent: 'update' } },
      });
      // A supersede cue replaces the derived decision it names.
      const moved = await intake(runtime.canon, classifier, o, {
        text: 'From now on we ship on Mondays, not on Fridays.',
      });
      expect(moved.proposals[0]).toMatchObject({
        ok: true,
        outcome: {
          proposal: { intent: 'supersede', supersedes: ['decision.ship-on-fridays'] },
        },
      });
      expect((await runtime.canon.reader(project).object('decision.ship-on-fridays'))?.status).toBe(
        'superseded',
      );
      // Facts need a subject: kept as a source, nothing proposed.
      const fact = await intake(runtime.canon, classifier, o, {
        text: 'According to the review, the build takes 4 minutes.',
      });
      expect([fact.classification.outcome, fact.proposals.length]).toEqual(['source', 0]);
    });

    it('subjects are journaled, used by intake, and survive a rebuild byte for byte', async () => {
      const { runtime } = env;
      const project = 'subjects';
      const p = principals(project);
      await expectCode(
        putSubjects(runtime.canon, p.agent, {
          subjects: { 'ui.colour': { title: 'C', object_type: 'preference', keywords: ['red'] } },
        }),
        'FORBIDDEN',
      );
      for (const bad of [
        null,
        { subjects: {} },
        { subjects: { 'Not An Id': { title: 'x', object_type: 'fact', keywords: [] } } },
        { subjects: { 'ui.colour': { title: 'x', object_type: 'colour', keywords: [] } } },
        { subjects: { 'ui.colour': { title: 'x', object_type: 'fact', keywords: [' '] } } },
        { subjects: {}, rules: [] },
      ]) {
        await expectCode(putSubjects(runtime.canon, p.editor, bad), 'INVALID_BODY');
      }
      expect((await classifierSettings(runtime.canon, project)).source).toBe('default');

      // Two editors at once: neither change is lost.
      const both = await settle([
        putSubjects(runtime.canon, p.editor, {
          subjects: {
            'ui.colour': {
              title: 'Interface colour',
              object_type: 'preference',
              keywords: ['red', 'blue', 'colour'],
            },
          },
        }),
        putSubjects(runtime.canon, p.owner, {
          subjects: {
            'release.day': { title: 'Release day', object_type: 'decision', keywords: ['ship'] },
          },
        }),
      ]);
      expect(both.codes).toEqual([]);
      const settings = await classifierSettings(runtime.canon, project);
      expect(Object.keys(settings.config.subjects).sort()).toEqual(['release.day', 'ui.colour']);
      expect(settings.source).toBe('api');

      const classifier = await runtime.classifierFor(project);
      const said = await intake(runtime.canon, classifier, p.owner, {
        text: 'I would like a blue colour for the app.',
      });
      expect(said.proposals[0]).toMatchObject({
        ok: true,
        outcome: { proposal: { object_id: 'ui.colour' } },
      });
      await expectCode(removeSubject(runtime.canon, p.editor, 'no.such'), 'UNKNOWN_SUBJECT');
      await removeSubject(runtime.canon, p.editor, 'release.day');
      expect(
        Object.keys((await classifierSettings(runtime.canon, project)).config.subjects),
      ).toEqual(['ui.colour']);
      // An import never overrides what a project already has.
      expect(await importClassifierConfig(runtime.canon, project, { subjects: {} })).toBe(false);

      const before = await intakeRows(env, project);
      const tables = await canonTables(runtime.store, project);
      await runtime.store.run('DELETE FROM canon_classifier WHERE project = $1', [project]);
      await rebuildProject(runtime.journal, project);
      expect(await intakeRows(env, project)).toEqual(before);
      expect(await canonTables(runtime.store, project)).toEqual(tables);
      expect((await verifyProject(runtime.journal, project)).ok).toBe(true);
    });

    it('the intake table is rebuilt byte for byte, and an older store is rebuilt on open', async () => {
      const { runtime } = env;
      const before = await intakeRows(env);
      expect(before.canon_intake!.length).toBeGreaterThan(2);
      await runtime.store.run('DELETE FROM canon_intake WHERE project = $1', [PROJECT]);
      await rebuildProject(runtime.journal, PROJECT);
      expect(await intakeRows(env)).toEqual(before);

      // A store from before the table (its canon tables written by an earlier projection version):
      // opening it rebuilds them from the journal, classifications and failures alike.
      await runtime.store.run('DELETE FROM canon_intake WHERE project = $1', [PROJECT]);
      await runtime.store.run('DELETE FROM journal_projection_versions');
      const upgrade = await upgradeProjections(runtime.journal);
      expect(upgrade.changed.map((c) => c.name)).toContain('canon');
      expect(upgrade.failed).toEqual([]);
      expect(await intakeRows(env)).toEqual(before);
    });

    it('restore by version number, as by hash', async () => {
      const { runtime } = env;
      const id = 'restore.number';
      await create(runtime, owner, id, { text: 'One.' });
      await update(runtime, owner, id, { text: 'Two.' });
      await update(runtime, owner, id, { text: 'Three.' });
      const back = await runtime.canon.restore(owner, id, 1);
      expect(back.committed).toMatchObject({ version_id: 4, content: { text: 'One.' } });
      const versions = await runtime.canon.reader(PROJECT).versions(id);
      expect(back.proposal.restore_version).toBe(versions[0]!.version_hash);
      await expectCode(runtime.canon.restore(owner, id, 9), 'UNKNOWN_VERSION');
      await expectCode(runtime.canon.restore(owner, id, 0), 'UNKNOWN_VERSION');
      await expectCode(runtime.canon.restore(viewer, id, 2), 'FORBIDDEN');
    });

    it('message ids take the characters source systems use, in the archive and the journal', async () => {
      const { runtime } = env;
      const id = 'slack:C01/p#12@x';
      const result = await intake(runtime.canon, new ScriptedClassifier(), agent, {
        text: 'We decided to page on-call for every outage.',
        message_id: id,
        role: 'agent',
      });
      expect(result.message.message_id).toBe(id);
      expect(result.proposals[0]).toMatchObject({ ok: true });
      expect((await runtime.canon.reader(PROJECT).message(id))?.text).toContain('page on-call');
      const key = await runtime.journal.entryByKey(PROJECT, `classification:${id}`);
      expect((key!.body as { message_id: string }).message_id).toBe(id);
      for (const bad of ['a b', 'a?b', 'x'.repeat(101), '', 'a%2Fb', 'ä']) {
        await expectCode(
          intake(runtime.canon, new ScriptedClassifier(), owner, { text: 'x', message_id: bad }),
          'INVALID_BODY',
        );
      }
    });
  });
}

describe('a classification that is not journaled as a failure', () => {
  it('a bug in a classifier (not an outage, not refused output) is not recorded as one', async () => {
    const env = await CANON_ENGINES[0]!.open();
    try {
      const { owner } = principals();
      const broken: Classifier = {
        name: 'broken',
        classify: async () => {
          throw new TypeError('a bug');
        },
      };
      await expect(
        intake(env.runtime.canon, broken, owner, { text: 'Anything.', message_id: 'bug-1' }),
      ).rejects.toThrow('a bug');
      const entries = await env.runtime.journal.read(PROJECT, { after: 0, limit: 100 });
      expect(entries.map((e) => e.kind)).toEqual(['canon.message']);
      const [u] = await unclassifiedMessages(env.runtime.canon, owner, { limit: 100 });
      expect(u).toMatchObject({ message: { message_id: 'bug-1' }, failure: null });
    } finally {
      await env.close();
    }
  });
});
