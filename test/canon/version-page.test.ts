// An object's versions are read a page at a time, chosen in SQL by who may read them: another
// principal's personal versions of the object lying between the ones a page shows are never read
// into the process, on both engines. The provenance walk shows the latest versions only, however
// old the object, and still answers what it replaced and which artifact was built on an old version
// from indexes, not from its whole history, and lists the first notes resting on a hub. A store
// made before versions had a holder and objects a superseded_by column is given both, filled from
// its records, when this code opens it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type NoteVersion,
  type PageQuery,
  PROVENANCE_DEPENDENTS,
  PROVENANCE_HISTORY,
  provenance,
} from '../../src/canon/index.js';
import { versionPageSql } from '../../src/canon/page.js';
import {
  CANON_ENGINES,
  create,
  type EngineRuntime,
  note,
  PROJECT,
  principals,
  update,
} from '../helpers/canon.js';
import {
  counting,
  expectIndexedReads,
  reopenedWithoutHolder,
  scenarioArtifact,
} from '../helpers/page-bound.js';

/** The scenario's shared note: created superseding `ui.old`, then changed this many times. */
const LONG_UPDATES = 60;
/** Versions added to it between two walks of its provenance. */
const AGED = 20;
/** The editor's draft: personal for this many versions, then promoted, then changed by the owner. */
const PERSONAL = 30;
const SHARED_AFTER = 9;

/** Version numbers `first`..`last`. */
const range = (first: number, last: number) =>
  Array.from({ length: last - first + 1 }, (_, i) => first + i);

/** What a page shows of `readable` (version numbers, oldest first), from the scenario alone. */
function expected(readable: readonly number[], q: PageQuery): number[] {
  const ordered = q.order === 'newest' ? [...readable].reverse() : [...readable];
  return ordered
    .filter((n) => q.after === undefined || n > q.after)
    .filter((n) => q.before === undefined || n < q.before)
    .slice(0, q.limit);
}

const numbers = (versions: readonly NoteVersion[]) => versions.map((v) => v.version_id);

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`an object's versions, bounded, on ${engine.name}`, () => {
    const who = principals();
    let e: EngineRuntime;

    beforeAll(async () => {
      e = await engine.open();
      const { runtime } = e;
      await create(runtime, who.owner, 'ui.old', { title: 'ui.old', text: 'The old interface.' });
      const made = await runtime.canon.propose(who.owner, {
        object_id: 'ui.long',
        intent: 'supersede',
        base_version: null,
        supersedes: ['ui.old'],
        candidate: note({ title: 'ui.long', text: 'Version 1 of the interface.' }),
      });
      expect(made.proposal.status).toBe('committed');
      await scenarioArtifact(runtime, who.owner, 'a.first', 'ui.long');
      for (let n = 2; n <= LONG_UPDATES + 1; n++) {
        const out = await update(runtime, who.owner, 'ui.long', {
          text: `Version ${n} of the interface.`,
        });
        expect(out.proposal.status).toBe('committed');
      }
      await create(runtime, who.editor, 'eddie.draft', {
        title: 'eddie.draft',
        text: 'Draft 1.',
        visibility: 'personal',
      });
      await scenarioArtifact(runtime, who.editor, 'a.draft', 'eddie.draft');
      for (let n = 2; n <= PERSONAL; n++)
        await update(runtime, who.editor, 'eddie.draft', { text: `Draft ${n}.` });
      const promoted = await update(runtime, who.editor, 'eddie.draft', {
        visibility: 'project',
        text: 'The draft, shared.',
      });
      expect(promoted.proposal.status).toBe('committed');
      for (let n = 1; n <= SHARED_AFTER; n++)
        await update(runtime, who.owner, 'eddie.draft', { text: `Shared ${n}.` });
    }, 120_000);

    afterAll(() => e?.close());

    const total = PERSONAL + 1 + SHARED_AFTER;
    const readableBy = {
      owner: range(PERSONAL + 1, total),
      editor: range(1, total),
    };

    it.each([
      { limit: 10 },
      { limit: 10, order: 'newest' },
      { limit: 7, after: PERSONAL + 3 },
      { limit: 5, order: 'newest', before: total - 2 },
      { limit: 100, before: PERSONAL + 4 },
      { limit: 3, order: 'newest', before: PERSONAL + 1 },
    ] as PageQuery[])(
      'pages the versions a principal may read, visiting no other: %o',
      async (q) => {
        for (const [viewer, readable] of Object.entries(readableBy) as [
          'owner' | 'editor',
          number[],
        ][]) {
          const { db, seen } = counting(e.runtime.store);
          const page = await e.runtime.canon
            .readerFor(who[viewer], db)
            .versionPage('eddie.draft', q);
          expect(numbers(page), viewer).toEqual(expected(readable, q));
          expect(seen.from('canon_versions')).toBeLessThanOrEqual(q.limit);
        }
        // The operator reads them all, the same way.
        const all = await e.runtime.canon.reader(PROJECT).versionPage('eddie.draft', q);
        expect(numbers(all)).toEqual(expected(range(1, total), q));
      },
    );

    it('counts, and finds by number, only the versions a principal may read', async () => {
      const owner = e.runtime.canon.readerFor(who.owner);
      const editor = e.runtime.canon.readerFor(who.editor);
      expect(await owner.versionCount('eddie.draft')).toBe(SHARED_AFTER + 1);
      expect(await editor.versionCount('eddie.draft')).toBe(total);
      expect(await e.runtime.canon.reader(PROJECT).versionCount('ui.long')).toBe(LONG_UPDATES + 1);
      expect(await owner.versionNumbered('eddie.draft', 1)).toBeNull();
      expect((await editor.versionNumbered('eddie.draft', 1))?.content.text).toBe('Draft 1.');
      expect((await owner.versionNumbered('eddie.draft', total))?.content.text).toBe(
        `Shared ${SHARED_AFTER}.`,
      );
      expect(await owner.versionNumbered('eddie.draft', total + 1)).toBeNull();
    });

    it.runIf(engine.name === 'sqlite')(
      "reads each page of an object's versions from an index range of that object",
      async () => {
        for (const viewer of [who.owner.id, null]) {
          const { sql, params } = versionPageSql('eddie.draft', { limit: 5, after: 3 }, viewer);
          await expectIndexedReads(
            e.runtime.store,
            'canon_versions',
            sql,
            [PROJECT, ...params],
            viewer === null
              ? 'sqlite_autoindex_canon_versions_1 (project=? AND object_id=? AND version_id>?)'
              : 'canon_versions_holder (project=? AND object_id=? AND holder=? AND version_id>?)',
          );
        }
      },
    );

    it(`walks the provenance of a long-lived note over its latest ${PROVENANCE_HISTORY} versions, and still finds what it replaced and what was built on its first`, async () => {
      const walkOf = async () => {
        const { db, seen } = counting(e.runtime.store);
        const walk = await provenance(e.runtime.canon, who.owner, 'ui.long', db);
        return { walk, rows: seen.from('canon_versions') };
      };
      const before = await walkOf();
      for (let n = 1; n <= AGED; n++)
        await update(e.runtime, who.owner, 'ui.long', { text: `Aged ${n}.` });
      const { walk, rows } = await walkOf();
      const last = LONG_UPDATES + 1 + AGED;
      expect(numbers(walk.history)).toEqual(range(last - PROVENANCE_HISTORY + 1, last));
      expect(walk.versions).toBe(last);
      expect(walk.restorable.map((r) => r.version_id)).toEqual(
        range(last - PROVENANCE_HISTORY + 1, last - 1),
      );
      expect(walk.replaced.previous_version?.version_id).toBe(last - 1);
      // Superseded by version 1 and built on version 1: both older than the history shown.
      expect(walk.replaced.superseded_objects.map((o) => o.object_id)).toEqual(['ui.old']);
      expect(walk.built_from_old).toEqual([{ artifact_id: 'a.first', version_id: 1 }]);
      expect(walk.current_since.version_id).toBe(last);
      // The versions read do not grow with the note's age: the same before and after it aged.
      expect(before.walk.versions).toBe(LONG_UPDATES + 1);
      expect(rows).toBe(before.rows);
      expect(rows).toBeLessThan(LONG_UPDATES + 1);
    });

    it("walks a note's provenance as a principal may read it: the versions it may, counted", async () => {
      const ownerWalk = await provenance(e.runtime.canon, who.owner, 'eddie.draft');
      expect(numbers(ownerWalk.history)).toEqual(readableBy.owner);
      expect(ownerWalk.versions).toBe(SHARED_AFTER + 1);
      // The artifact the editor built on its personal first version is the editor's alone.
      expect(ownerWalk.built_from_old).toEqual([]);
      const editorWalk = await provenance(e.runtime.canon, who.editor, 'eddie.draft');
      expect(editorWalk.versions).toBe(total);
      expect(numbers(editorWalk.history)).toEqual(range(1, total).slice(-PROVENANCE_HISTORY));
      expect(editorWalk.built_from_old).toEqual([{ artifact_id: 'a.draft', version_id: 1 }]);
    });

    it(`lists the first ${PROVENANCE_DEPENDENTS} notes resting on a hub a principal may read, and says it cut`, async () => {
      const { runtime } = e;
      await create(runtime, who.owner, 'hub', { title: 'hub', text: 'Everything rests on it.' });
      const shared = range(0, PROVENANCE_DEPENDENTS).map(
        (n) => `dep.${String(n).padStart(3, '0')}`,
      );
      for (const id of shared)
        await create(runtime, who.owner, id, { title: id, dependency_refs: ['hub'] });
      // The editor's own, between the first two in byte order.
      await create(runtime, who.editor, 'dep.0005', {
        title: 'dep.0005',
        visibility: 'personal',
        dependency_refs: ['hub'],
      });
      await scenarioArtifact(runtime, who.owner, 'a.hub', 'hub');
      const owner = await provenance(runtime.canon, who.owner, 'hub');
      expect(owner.stale_if_changed.objects).toEqual(shared.slice(0, PROVENANCE_DEPENDENTS));
      expect(owner.stale_if_changed.artifacts.map((a) => a.manifest.artifact_id)).toEqual([
        'a.hub',
      ]);
      expect(owner.stale_if_changed.cut).toBe(true);
      const editor = await provenance(runtime.canon, who.editor, 'hub');
      expect(editor.stale_if_changed.objects).toEqual(
        [shared[0], 'dep.0005', ...shared.slice(1)].slice(0, PROVENANCE_DEPENDENTS),
      );
      // A note with fewer lists them all.
      const few = await provenance(runtime.canon, who.owner, 'ui.long');
      expect(few.stale_if_changed).toMatchObject({ objects: [], cut: false });
    });

    it('restores a version named by its number, however old', async () => {
      const restored = await e.runtime.canon.restore(who.owner, 'ui.long', 1);
      expect(restored.proposal.status).toBe('committed');
      const now = await e.runtime.canon.reader(PROJECT).current('ui.long');
      expect(now?.content.text).toBe('Version 1 of the interface.');
      expect(now?.version_id).toBe(LONG_UPDATES + AGED + 2);
    });

    it('a store whose versions had no holder and objects no superseded_by gets both from its records when opened', async () => {
      const { store } = e.runtime;
      await store.exec('DROP INDEX canon_objects_superseded');
      await store.exec('ALTER TABLE canon_objects DROP COLUMN superseded_by');
      await store.run('DELETE FROM canonry_migrations WHERE name = $1', [
        'canon-objects-superseded-by',
      ]);
      const { again, holders } = await reopenedWithoutHolder(
        e,
        'canon_versions',
        "object_id || '@' || version_id",
        ['canon_versions_holder'],
        'canon-versions-holder',
      );
      for (const n of range(1, total))
        expect(holders.get(`eddie.draft@${n}`), `v${n}`).toBe(n <= PERSONAL ? who.editor.id : null);
      for (const n of range(1, LONG_UPDATES + AGED + 2))
        expect(holders.get(`ui.long@${n}`)).toBeNull();
      const superseded = await again.store.all<{ object_id: string; superseded_by: string }>(
        'SELECT object_id, superseded_by FROM canon_objects WHERE project = $1 AND superseded_by IS NOT NULL',
        [PROJECT],
      );
      expect(superseded).toEqual([{ object_id: 'ui.old', superseded_by: 'ui.long' }]);
      const page = await again.canon
        .readerFor(who.owner)
        .versionPage('eddie.draft', { limit: 3, order: 'newest' });
      expect(numbers(page)).toEqual([total, total - 1, total - 2]);
      const walk = await provenance(again.canon, who.owner, 'ui.long');
      expect(walk.replaced.superseded_objects.map((o) => o.object_id)).toEqual(['ui.old']);
    });
  });
}
