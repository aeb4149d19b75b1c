// A working set and a provenance walk read what they show — current canon, the pending proposals,
// and by id the versions, proposals, cascade states and artifacts of the set — never the project's
// history: the rows handed to the reader are the same when the project has four times the history
// (versions of other notes, committed and rejected proposals, notes created and retired, artifacts
// on other notes, another principal's personal notes). The answers are the scenario's own, for each
// principal (§14: another's personal notes, artifacts and retirements are absent, even from counts),
// on both engines. On SQLite, every statement they issue reads an index range narrower than the
// project's (never the whole project's rows of a table).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type NoteContent,
  type Principal,
  type ProposalOutcome,
  type ProposalRecord,
  provenance,
  registerArtifact,
  type WorkingSetRequest,
  workingSet,
} from '../../src/canon/index.js';
import { contentHash } from '../../src/core/index.js';
import {
  CANON_ENGINES,
  create,
  currentHash,
  type EngineRuntime,
  note,
  PROJECT,
  principals,
  update,
} from '../helpers/canon.js';
import { counting } from '../helpers/page-bound.js';

const who = principals();
/** Notes of other subjects whose history grows. */
const FILLERS = 4;
/** Rounds of history before the first reading; the second reading has four times as many. */
const ROUNDS = 4;

/** What the scenario made, from which every expectation is derived. */
interface Scenario {
  /** The commit that made each note's current version. */
  readonly madeBy: Map<string, ProposalRecord>;
  /** The pending proposal that contradicts db.engine. */
  pending?: ProposalRecord;
  /** Shared notes retired or superseded, and the editor's own retired ones. */
  retired: number;
  editorRetired: number;
}

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(
    `working sets and provenance, bounded, on ${engine.name}`,
    () => {
      let e: EngineRuntime;
      const made: Scenario = { madeBy: new Map(), retired: 0, editorRetired: 0 };
      let round = 0;

      const committed = (outcome: ProposalOutcome) => {
        expect(outcome.proposal.status).toBe('committed');
        made.madeBy.set(outcome.proposal.object_id, outcome.proposal);
        return outcome;
      };
      const add = async (p: Principal, id: string, content: Partial<NoteContent>) =>
        committed(await create(e.runtime, p, id, { title: id, ...content }));
      const artifact = async (p: Principal, id: string, on: string) =>
        registerArtifact(e.runtime.canon, p, {
          artifact_id: id,
          canonical_note_versions: [
            { object_id: on, version_hash: await currentHash(e.runtime, on) },
          ],
          output_digest: contentHash({ id }),
        });
      const retire = async (p: Principal, id: string) => {
        const current = (await e.runtime.canon.reader(p.project).current(id))!;
        const outcome = await e.runtime.canon.propose(p, {
          object_id: id,
          intent: 'retire',
          base_version: current.version_hash,
          candidate: current.content,
        });
        expect(outcome.proposal.status).toBe('committed');
      };

      /** History that no working set on db.engine shows, except as the count of what was retired. */
      async function grow(rounds: number) {
        for (let k = 0; k < rounds; k++, round++) {
          await update(e.runtime, who.owner, `h.${round % FILLERS}`, {
            text: `Filler ${round % FILLERS} holds value ${round}.`,
          });
          const suggestion = await update(e.runtime, who.agent, 'db.engine', {
            text: `The database engine is version ${round}.`,
          });
          expect(suggestion.proposal.status).toBe('pending');
          await e.runtime.canon.reject(who.owner, suggestion.proposal.proposal_id, 'not now');
          await add(who.owner, `gone.${round}`, { text: `A note of round ${round}.` });
          await retire(who.owner, `gone.${round}`);
          made.retired++;
          await artifact(who.owner, `art.h.${round}`, `h.${round % FILLERS}`);
          await add(who.editor, `e.p.${round}`, { text: 'Private.', visibility: 'personal' });
        }
      }

      beforeAll(async () => {
        e = await engine.open();
        const { owner, editor, agent } = who;
        await add(owner, 'os.base', { title: 'Server OS', text: 'The servers run Debian 12.' });
        await add(owner, 'db.driver', {
          title: 'Driver',
          text: 'Connections use the pg driver.',
          dependency_refs: ['os.base'],
        });
        await add(owner, 'db.mysql', { title: 'Old store', text: 'Data lives in MySQL.' });
        await artifact(owner, 'art.mysql', 'db.mysql');
        committed(
          await e.runtime.canon.propose(owner, {
            object_id: 'db.engine',
            intent: 'supersede',
            base_version: null,
            supersedes: ['db.mysql'],
            candidate: note({
              title: 'Database engine',
              text: 'The database engine is PostgreSQL 15.',
              dependency_refs: ['db.driver'],
            }),
          }),
        );
        made.retired++;
        await add(owner, 'db.replica', { title: 'Replica', text: 'A replica follows it.' });
        await update(e.runtime, owner, 'db.replica', { dependency_refs: ['db.engine'] }).then(
          committed,
        );
        await artifact(owner, 'art.engine', 'db.engine');
        committed(
          await update(e.runtime, owner, 'db.engine', {
            text: 'The database engine is PostgreSQL 16.',
          }),
        );
        await artifact(owner, 'art.current', 'db.engine');
        await add(owner, 'db.pool', {
          title: 'Connection pool',
          text: 'The pool holds 20 connections.',
          dependency_refs: ['db.engine'],
        });
        await artifact(owner, 'art.pool', 'db.pool');
        await add(owner, 'policy.review', {
          object_type: 'constraint',
          title: 'Review rule',
          text: 'Every schema change is reviewed by a person.',
        });
        await add(owner, 'q.backup', {
          object_type: 'question',
          title: 'Backups',
          text: 'How often are backups taken?',
        });
        await add(owner, 'old.cache', { text: 'Responses are cached for an hour.' });
        await artifact(owner, 'art.cache', 'old.cache');
        await retire(owner, 'old.cache');
        made.retired++;
        await add(owner, 'promo.sale', {
          text: 'The sale runs until 2020.',
          effective_until: '2020-01-01T00:00:00Z',
        });
        await artifact(owner, 'art.promo', 'promo.sale');
        for (let i = 0; i < FILLERS; i++) {
          await add(owner, `h.${i}`, { title: `Filler ${i}`, text: `Filler ${i} holds value 0.` });
          await artifact(owner, `art.f.${i}`, `h.${i}`);
        }
        await add(editor, 'e.note', {
          text: 'Eddie keeps his own note on it.',
          visibility: 'personal',
          dependency_refs: ['db.engine'],
        });
        await artifact(editor, 'art.eddie', 'e.note');
        await add(editor, 'e.gone', { text: 'Eddie retired this.', visibility: 'personal' });
        await retire(editor, 'e.gone');
        made.editorRetired++;
        const pending = await update(e.runtime, agent, 'db.engine', {
          text: 'The database engine is SQLite.',
        });
        expect(pending.proposal.status).toBe('pending');
        made.pending = pending.proposal;
        await grow(ROUNDS);
      }, 600_000);
      afterAll(() => e?.close());

      const read = async <T>(work: (db: ReturnType<typeof counting>['db']) => Promise<T>) => {
        const { db, seen } = counting(e.runtime.store);
        return { answer: await work(db), rows: seen.rows };
      };
      const setOf = (viewer: Principal, request: WorkingSetRequest) =>
        read((db) => workingSet(e.runtime.canon, viewer, request, db));
      const walk = (viewer: Principal) =>
        read((db) => provenance(e.runtime.canon, viewer, 'db.engine', db));

      /** The prior mutation the scenario made for each note: its commit, from the version before. */
      const mutation = (id: string, from: number | null, to: number) => {
        const p = made.madeBy.get(id)!;
        return {
          object_id: id,
          from_version: from,
          to_version: to,
          intent: p.intent,
          restored_version: null,
          resolution: null,
          gate: p.gate.label,
          stakes: p.comparison.stakes,
          authorized_by: `${who.owner.id} (${who.owner.role})`,
        };
      };
      const ARTIFACTS = {
        'art.cache': ['definitely_stale', ['old.cache retired']],
        'art.current': ['current', []],
        'art.eddie': ['current', []],
        'art.engine': ['definitely_stale', ['db.engine changed, now v2']],
        'art.mysql': ['definitely_stale', ['db.mysql superseded by db.engine']],
        'art.pool': ['current', []],
        // Out of effect, its note is no longer current canon: listed, the pin itself unmoved.
        'art.promo': ['current', []],
      } as const;
      const artifactsFor = (ids: readonly (keyof typeof ARTIFACTS)[]) =>
        ids.map((id) => ({
          artifact_id: id,
          title: id,
          state: ARTIFACTS[id][0],
          acceptance: 'proposed',
          reasons: ARTIFACTS[id][1],
        }));

      function expectSetOnEngine(
        set: Awaited<ReturnType<typeof workingSet>>,
        viewer: Principal,
        objective: boolean,
      ) {
        const editor = viewer.id === who.editor.id;
        const ids = (rows: readonly { object_id: string }[]) => rows.map((r) => r.object_id);
        expect(ids(set.notes)).toEqual(
          objective
            ? ['db.engine', 'db.pool']
            : ['db.engine', 'db.driver', 'db.pool', ...(editor ? ['e.note'] : [])],
        );
        expect(ids(set.policies)).toEqual(['policy.review']);
        expect(ids(set.dependencies)).toEqual(objective ? ['db.driver'] : ['os.base']);
        expect(ids(set.uncertainty)).toEqual(['q.backup']);
        expect(set.disputes).toEqual([]);
        expect(set.needs_revision.map((n) => [n.object_id, n.depth, n.cause, n.path])).toEqual(
          objective
            ? []
            : [['db.replica', 1, 'db.engine moved v1 → v2', ['db.engine', 'db.replica']]],
        );
        expect(set.contradictions).toEqual([
          {
            proposal_id: made.pending!.proposal_id,
            object_id: 'db.engine',
            status: 'pending',
            text: 'The database engine is SQLite.',
            needs: made.pending!.required_role,
          },
        ]);
        expect(set.prior_mutations).toEqual(
          objective
            ? [mutation('db.engine', 1, 2), mutation('db.pool', null, 1)]
            : [
                mutation('db.engine', 1, 2),
                mutation('db.driver', null, 1),
                mutation('db.pool', null, 1),
                mutation('db.replica', 1, 2),
                ...(editor
                  ? [{ ...mutation('e.note', null, 1), authorized_by: 'eddie (editor)' }]
                  : []),
              ],
        );
        expect(set.artifacts).toEqual(
          artifactsFor([
            'art.cache',
            'art.current',
            ...(editor && !objective ? (['art.eddie'] as const) : []),
            'art.engine',
            'art.mysql',
            'art.pool',
            'art.promo',
          ]),
        );
        expect(set.excluded).toBe(made.retired + (editor ? made.editorRetired : 0));
        expect([set.expired, set.not_yet_effective, set.lapsed_dependencies]).toEqual([1, 0, []]);
      }

      function expectWalk(p: Awaited<ReturnType<typeof provenance>>, viewer: Principal) {
        const editor = viewer.id === who.editor.id;
        expect(p.depends_on).toEqual([
          { object_id: 'db.driver', status: 'active', effective: 'in_effect' },
        ]);
        expect(p.replaced.superseded_objects.map((o) => [o.object_id, o.superseded_by])).toEqual([
          ['db.mysql', 'db.engine'],
        ]);
        expect(p.replaced.previous_version?.version_id).toBe(1);
        expect(p.history.map((v) => v.version_id)).toEqual([1, 2]);
        expect(p.restorable.map((v) => v.version_id)).toEqual([1]);
        expect(p.built_from_old).toEqual([{ artifact_id: 'art.engine', version_id: 1 }]);
        expect(p.stale_if_changed.artifacts.map((a) => [a.manifest.artifact_id, a.state])).toEqual([
          ['art.current', 'current'],
        ]);
        expect(p.stale_if_changed.objects).toEqual([
          'db.pool',
          'db.replica',
          ...(editor ? ['e.note'] : []),
        ]);
        expect(p.authorized_by.stakes).toBe(made.madeBy.get('db.engine')!.comparison.stakes);
        expect(p.dependency_state).toBeNull();
      }

      it.runIf(engine.name === 'sqlite')(
        'reads each table from an index range narrower than the project, never a whole project range',
        async () => {
          for (const viewer of [who.owner, PROJECT] as const) {
            const statements: { sql: string; params: unknown[] }[] = [];
            const store = e.runtime.store;
            const db = new Proxy(store, {
              get(target, key, receiver) {
                if (key !== 'all') return Reflect.get(target, key, receiver);
                return (sql: string, params: unknown[] = []) => {
                  statements.push({ sql, params });
                  return target.all(sql, params as never);
                };
              },
            });
            await workingSet(e.runtime.canon, viewer, { object_id: 'db.engine' }, db);
            await workingSet(e.runtime.canon, viewer, { objective: 'database engine' }, db);
            await provenance(e.runtime.canon, viewer, 'db.engine', db);
            expect(statements.length).toBeGreaterThan(0);
            const wide: string[] = [];
            for (const { sql, params } of statements) {
              const plan = await store.all<{ detail: string }>(
                `EXPLAIN QUERY PLAN ${sql}`,
                params as never,
              );
              for (const { detail } of plan)
                if (/^SCAN canon_|^SEARCH canon_\w+ USING .*\(project=\?\)$/.test(detail))
                  wide.push(`${detail}: ${sql.replace(/\s+/g, ' ')}`);
            }
            expect(wide).toEqual([]);
          }
        },
      );

      it('reads no more rows when the project has four times the history, and answers the same', async () => {
        const viewers = [who.owner, who.editor, who.viewer];
        const requests: WorkingSetRequest[] = [
          { object_id: 'db.engine' },
          { objective: 'Which database engine, and its connection pool?' },
        ];
        // The editor's own personal notes are part of what it reads (its current canon), so its
        // rows grow with them; the others never read them.
        const reading = async () => {
          const rows: number[] = [];
          for (const viewer of viewers) {
            const counted = (n: number) => viewer.id !== who.editor.id && rows.push(n);
            for (const request of requests) {
              const { answer, rows: n } = await setOf(viewer, request);
              expectSetOnEngine(answer, viewer, request.objective !== undefined);
              counted(n);
            }
            const { answer, rows: n } = await walk(viewer);
            expectWalk(answer, viewer);
            counted(n);
          }
          return rows;
        };
        const before = await reading();
        for (const n of before) expect(n).toBeGreaterThan(0);
        await grow(3 * ROUNDS);
        expect(await reading()).toEqual(before);
      });
    },
  );
}
