// A page of artifacts is chosen in SQL in id order by who may read it, and its §10 states are
// computed from what the page's artifacts name alone: another principal's personal artifacts lying
// between the ones a page shows are never read into the process, nor is the rest of canon — on both
// engines. A store made before artifacts had a holder is given one, filled from the versions each
// cites, when this code opens it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ArtifactPageQuery,
  artifactStatusPage,
  type Principal,
} from '../../src/canon/index.js';
import { artifactPageSql } from '../../src/canon/page.js';
import {
  CANON_ENGINES,
  type EngineRuntime,
  PROJECT,
  principals,
  update,
} from '../helpers/canon.js';
import {
  counting,
  expectIndexedReads,
  reopenedWithoutHolder,
  scenarioArtifact,
  scenarioNote,
} from '../helpers/page-bound.js';

/** What the scenario made: who holds it (null: the project), and the §10 state it must show. */
interface Made {
  readonly id: string;
  readonly holder: string | null;
  state: string;
}

/** What a page shows a viewer (null: the operator), from the scenario alone, in byte order. */
function expected(made: readonly Made[], viewer: string | null, q: ArtifactPageQuery): Made[] {
  return made
    .filter((m) => viewer === null || m.holder === null || m.holder === viewer)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .filter((m) => q.after === undefined || m.id > q.after)
    .slice(0, q.limit);
}

/** Rows a page may read per artifact on it: its manifest, the one version its audience needs, the
 * one object it cites, that object's pinned and current versions, and a cascade's state. */
const PER_ARTIFACT = 6;

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`a page of artifacts, bounded, on ${engine.name}`, () => {
    const who = principals();
    const made: Made[] = [];
    let e: EngineRuntime;

    async function note(p: Principal, id: string, personal: boolean, deps: string[] = []) {
      await scenarioNote(e.runtime, p, id, personal, { dependency_refs: deps });
    }

    async function artifact(p: Principal, id: string, on: string, holder: string | null) {
      await scenarioArtifact(e.runtime, p, id, on);
      made.push({ id, holder, state: 'current' });
    }

    const stateOf = (id: string, state: string) => {
      const m = made.find((x) => x.id === id);
      if (m) m.state = state;
    };

    beforeAll(async () => {
      e = await engine.open();
      await note(who.owner, 'n.shared', false);
      await note(who.owner, 'n.olivia', true);
      await note(who.editor, 'n.eddie', true);
      await note(who.owner, 'n.base', false);
      await note(who.owner, 'n.top', false, ['n.base']);
      await artifact(who.owner, 'a.1', 'n.shared', null);
      for (let i = 0; i < 60; i++)
        await artifact(who.editor, `b.${String(i).padStart(3, '0')}`, 'n.eddie', who.editor.id);
      // Byte order, not a linguistic one: '-' < '.' < '_'.
      await artifact(who.owner, 'c_x', 'n.shared', null);
      await artifact(who.owner, 'c-x', 'n.shared', null);
      await artifact(who.owner, 'c.x', 'n.top', null);
      await artifact(who.owner, 'k.own', 'n.olivia', who.owner.id);
      for (let i = 0; i < 60; i++)
        await artifact(who.editor, `n.${String(i).padStart(3, '0')}`, 'n.eddie', who.editor.id);
      // What the artifacts on n.shared were built on says something else now: definitely stale.
      await update(e.runtime, who.owner, 'n.shared', { text: 'Something else.' });
      for (const id of ['a.1', 'c_x', 'c-x']) stateOf(id, 'definitely_stale');
      // n.top is current, but what it stands on moved: the cascade reached c.x through it.
      await update(e.runtime, who.owner, 'n.base', { text: 'The base moved.' });
      stateOf('c.x', 'possibly_stale');
      await artifact(who.owner, 'z.1', 'n.shared', null);
    }, 240_000);
    afterAll(() => e?.close());

    const QUERIES: ArtifactPageQuery[] = [
      { limit: 3 },
      { limit: 2, after: 'a.1' },
      { limit: 4, after: 'c-x' },
      { limit: 2, after: 'k.own' },
      { limit: 1, after: 'z.1' },
    ];

    for (const [name, viewer] of [
      ['the owner', who.owner],
      ['the operator', null],
    ] as const) {
      it.each(QUERIES)(
        `${name} reads %o and its states from at most its limit of artifacts`,
        async (q) => {
          const { db, seen } = counting(e.runtime.store);
          const reader =
            viewer === null
              ? e.runtime.canon.reader(PROJECT, db)
              : e.runtime.canon.readerFor(viewer, db);
          const page = await artifactStatusPage(reader, q);
          expect(page.map((a) => [a.manifest.artifact_id, a.state])).toEqual(
            expected(made, viewer?.id ?? null, q).map((m) => [m.id, m.state]),
          );
          expect(seen.from('canon_artifacts')).toBeLessThanOrEqual(q.limit);
          expect(seen.rows).toBeLessThanOrEqual(PER_ARTIFACT * q.limit);
        },
      );
    }

    it.runIf(engine.name === 'sqlite')(
      "reads each page's ranges from an index, never by scanning the project's artifacts",
      async () => {
        for (const q of QUERIES) {
          for (const viewer of [who.owner.id, null]) {
            const { sql, params } = artifactPageSql(q, viewer);
            const range =
              viewer !== null
                ? 'canon_artifacts_holder (project=? AND holder=?'
                : 'sqlite_autoindex_canon_artifacts_1 (project=?';
            await expectIndexedReads(
              e.runtime.store,
              'canon_artifacts',
              sql,
              [PROJECT, ...params],
              range,
            );
          }
        }
      },
    );

    it('the editor reads its own personal artifacts among the shared ones, a page at a time', async () => {
      const all: string[] = [];
      let after: string | undefined;
      for (let n = 0; n < 100; n++) {
        const { db, seen } = counting(e.runtime.store);
        const page = await artifactStatusPage(e.runtime.canon.readerFor(who.editor, db), {
          limit: 7,
          ...(after === undefined ? {} : { after }),
        });
        expect(seen.from('canon_artifacts')).toBeLessThanOrEqual(7);
        all.push(...page.map((a) => a.manifest.artifact_id));
        if (page.length < 7) break;
        after = page.at(-1)?.manifest.artifact_id;
      }
      expect(all).toEqual(expected(made, who.editor.id, { limit: made.length }).map((m) => m.id));
      expect(new Set(all).size).toBe(all.length);
    });

    it('a store whose artifacts had no holder gets one from the versions they cite when opened', async () => {
      const { again, holders } = await reopenedWithoutHolder(
        e,
        'canon_artifacts',
        'artifact_id',
        ['canon_artifacts_holder'],
        'canon-artifacts-holder',
      );
      expect(holders).toEqual(new Map(made.map((m) => [m.id, m.holder])));
      const page = await artifactStatusPage(again.canon.readerFor(who.owner), {
        limit: 5,
        after: 'b.010',
      });
      expect(page.map((a) => a.manifest.artifact_id)).toEqual(
        expected(made, who.owner.id, { limit: 5, after: 'b.010' }).map((m) => m.id),
      );
    });
  });
}
