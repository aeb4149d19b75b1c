// The board shows the first `limit` of each group — objects by status, pending proposals, artifacts
// — each with its total and whether more exist, as the principal may read them: its work does not
// grow with the project. Another principal's personal rows, and rows past a group's first `limit`,
// are never read into the process, and its totals are read from the few rows of counts canon's
// projection keeps — on both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countsSql } from '../../src/canon/counts.js';
import type { ObjectStatus, Principal } from '../../src/canon/index.js';
import { RENDER } from '../../src/cli/canon/render.js';
import { boardOf } from '../../src/operations/index.js';
import { CANON_ENGINES, type EngineRuntime, PROJECT, principals } from '../helpers/canon.js';
import { counting, scenarioArtifact, scenarioNote } from '../helpers/page-bound.js';

type Group = 'pending' | 'artifacts' | ObjectStatus;

/** What the scenario made: its group, who alone may read it (null: the project), its order key. */
interface Made {
  readonly id: string;
  readonly group: Group;
  readonly holder: string | null;
  /** Id order for objects and artifacts, journal order for pending proposals. */
  readonly key: string | number;
}

const GROUPS: readonly Group[] = [
  'active',
  'provisional',
  'disputed',
  'superseded',
  'retired',
  'pending',
  'artifacts',
];

/** A group as the board should show it to `viewer` (null: the operator), from the scenario alone. */
function expected(made: readonly Made[], viewer: string | null, group: Group, limit: number) {
  const readable = made
    .filter((m) => m.group === group)
    .filter((m) => viewer === null || m.holder === null || m.holder === viewer)
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    ids: readable.slice(0, limit).map((m) => m.id),
    count: { total: readable.length, more: readable.length > limit },
  };
}

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`the board, bounded, on ${engine.name}`, () => {
    const who = principals();
    const made: Made[] = [];
    let e: EngineRuntime;

    async function note(p: Principal, id: string, personal: boolean, status: ObjectStatus) {
      await scenarioNote(e.runtime, p, id, personal, { status });
      made.push({ id, group: status, holder: personal ? p.id : null, key: id });
    }

    /** An agent's decision: it waits for a person. */
    async function suggest(id: string, personal: boolean) {
      const outcome = await scenarioNote(e.runtime, who.agent, id, personal, {
        text: `The agent suggests ${id}.`,
      });
      const holder = personal ? who.agent.id : null;
      made.push({ id, group: 'pending', holder, key: outcome.proposal.seq });
    }

    async function artifact(p: Principal, id: string, on: string, holder: string | null) {
      await scenarioArtifact(e.runtime, p, id, on);
      made.push({ id, group: 'artifacts', holder, key: id });
    }

    const board = async (viewer: Principal | null, limit: number) => {
      const { db, seen } = counting(e.runtime.store);
      const reader =
        viewer === null
          ? e.runtime.canon.reader(PROJECT, db)
          : e.runtime.canon.readerFor(viewer, db);
      return { board: await boardOf(reader, e.runtime.canon.now(), limit), rows: seen.rows, seen };
    };

    function expectBoard(b: Awaited<ReturnType<typeof board>>['board'], viewer: string | null) {
      for (const group of GROUPS) {
        const want = expected(made, viewer, group, b.limit);
        const shown =
          group === 'pending'
            ? b.pending.map((p) => p.object_id)
            : group === 'artifacts'
              ? b.artifacts.map((a) => a.manifest.artifact_id)
              : b.objects[group].map((o) => o.object_id);
        const count =
          group === 'pending' || group === 'artifacts' ? b.counts[group] : b.counts.objects[group];
        expect([group, shown, count]).toEqual([group, want.ids, want.count]);
      }
    }

    beforeAll(async () => {
      e = await engine.open();
      for (let i = 0; i < 5; i++) await note(who.owner, `a.${i}`, false, 'active');
      for (let i = 0; i < 2; i++) await note(who.owner, `p.${i}`, false, 'provisional');
      await note(who.owner, 'k.own', true, 'active');
      for (let i = 0; i < 40; i++)
        await note(who.editor, `e.${String(i).padStart(3, '0')}`, true, 'active');
      for (let i = 0; i < 4; i++) await suggest(`g.${i}`, false);
      for (let i = 0; i < 20; i++) await suggest(`h.${String(i).padStart(3, '0')}`, true);
      for (let i = 0; i < 4; i++) await artifact(who.owner, `art.${i}`, 'a.0', null);
      for (let i = 0; i < 20; i++)
        await artifact(who.editor, `arte.${String(i).padStart(3, '0')}`, 'e.000', who.editor.id);
    }, 240_000);
    afterAll(() => e?.close());

    it('each group holds its first rows, its total and whether more exist, for each reader', async () => {
      for (const [viewer, id] of [
        [who.owner, who.owner.id],
        [who.editor, who.editor.id],
        [who.agent, who.agent.id],
        [null, null],
      ] as const) {
        for (const limit of [1, 3, 50]) expectBoard((await board(viewer, limit)).board, id);
      }
    });

    it('the CLI renders each group with its total and the paged command that reads on', async () => {
      const { board: b } = await board(who.owner, 3);
      const lines = RENDER.getBoard!(b) as string[];
      const active = expected(made, who.owner.id, 'active', 3);
      const pending = expected(made, who.owner.id, 'pending', 3);
      const lastPending = made.find((m) => m.id === pending.ids.at(-1))!.key;
      expect(lines).toContain(`## active (first 3 of ${active.count.total})`);
      expect(lines).toContain(
        `… ${active.count.total - 3} more: canonry canon objects --status active --after ${active.ids.at(-1)}`,
      );
      expect(lines).toContain(
        `## provisional (${expected(made, who.owner.id, 'provisional', 3).count.total})`,
      );
      expect(lines.filter((l) => l.includes('--status provisional'))).toEqual([]);
      expect(lines).toContain(`## pending proposals (first 3 of ${pending.count.total})`);
      expect(lines).toContain(
        `… ${pending.count.total - 3} more: canonry canon proposals --status pending --after ${lastPending}`,
      );
      expect(lines).toContain('… 1 more: canonry canon artifacts --after art.2');
    });

    it('reads no more rows when the project grows past the first rows of each group', async () => {
      const limit = 3;
      const before = { owner: await board(who.owner, limit), operator: await board(null, limit) };
      expect(before.owner.seen.from('canon_objects')).toBeLessThanOrEqual(
        5 * (limit + 1) + 2 * 5 + (limit + 1),
      );
      // More of everything: others' personal rows in between, and the owner's after its pages.
      for (let i = 40; i < 80; i++)
        await note(who.editor, `e.${String(i).padStart(3, '0')}`, true, 'active');
      for (let i = 5; i < 25; i++) await note(who.owner, `z.${i}`, false, 'active');
      for (let i = 20; i < 40; i++) await suggest(`h.${String(i).padStart(3, '0')}`, true);
      for (let i = 4; i < 14; i++) await suggest(`g.${i}`, false);
      for (let i = 4; i < 14; i++) await artifact(who.owner, `art.z${i}`, 'a.0', null);
      for (let i = 20; i < 40; i++)
        await artifact(who.editor, `arte.${String(i).padStart(3, '0')}`, 'e.000', who.editor.id);
      const after = { owner: await board(who.owner, limit), operator: await board(null, limit) };
      expectBoard(after.owner.board, who.owner.id);
      expectBoard(after.operator.board, null);
      expect(after.owner.board.counts.objects.active.total).toBe(26);
      expect(after.owner.rows).toBe(before.owner.rows);
      expect(after.operator.rows).toBe(before.operator.rows);
    });

    it('reads its totals from the counts canon keeps: a few rows, however many it counts', async () => {
      for (const viewer of [who.owner, who.editor, null]) {
        const { seen } = await board(viewer, 3);
        // A row per kind and status at most (5 object statuses, 3 proposal statuses, artifacts):
        // the operator's scope once, a principal's the project's and its own.
        expect(seen.from('canon_counts')).toBeLessThanOrEqual(viewer === null ? 9 : 18);
      }
    });

    it('works out the §10 states of the artifacts it shows, not of the one read to know there are more', async () => {
      const limit = 3;
      const statements: { sql: string; params: readonly unknown[] }[] = [];
      const store = e.runtime.store;
      const db = {
        all: <R extends object>(sql: string, params: readonly unknown[] = []) => {
          statements.push({ sql, params });
          return store.all<R>(sql, params as never);
        },
      };
      const b = await boardOf(
        e.runtime.canon.readerFor(who.owner, db),
        e.runtime.canon.now(),
        limit,
      );
      const readable = made
        .filter((m) => m.group === 'artifacts' && (m.holder === null || m.holder === who.owner.id))
        .map((m) => m.id)
        .sort();
      expect(b.artifacts.map((a) => a.manifest.artifact_id)).toEqual(readable.slice(0, limit));
      expect(b.counts.artifacts.more).toBe(true);
      const past = readable[limit]!;
      const states = statements.filter((s) => s.sql.includes('canon_dependency_states'));
      expect(states.some((s) => s.params.includes(readable[0]))).toBe(true);
      expect(statements.filter((s) => s.params.includes(past))).toEqual([]);
    });

    // The totals were counts over index ranges (covering indexes, their plans asserted here); they
    // are now a read of the kept counts, asserted the same way: each range a search of the counts'
    // primary key by project, scope and holder, never a scan and never the counted tables.
    it.runIf(engine.name === 'sqlite')(
      'reads the kept counts as ranges of their primary key, never the rows they count',
      async () => {
        for (const viewer of [who.owner.id, null]) {
          const { sql, params } = countsSql(viewer);
          const plan = await e.runtime.store.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, [
            PROJECT,
            ...params,
          ]);
          const reads = plan.map((r) => r.detail).filter((d) => /SCAN|SEARCH/.test(d));
          expect(reads.length).toBe(viewer === null ? 1 : 2);
          for (const read of reads)
            expect(read).toMatch(
              /^SEARCH canon_counts USING INDEX sqlite_autoindex_canon_counts_1 \(project=\? AND scope=\? AND holder=\?\)$/,
            );
        }
      },
    );
  });
}
