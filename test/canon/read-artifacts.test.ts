// Artifacts as a principal reads them, for each storage engine: who may read an artifact depends on
// every version it cites (one personal version makes it its holder's, §14), so a naive reader asks
// for each artifact's versions one by one. These tests pin down what each principal sees, and that
// the reads cost a fixed number of statements however many artifacts and citations there are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanonReader, type Principal, registerArtifact } from '../../src/canon/index.js';
import { contentHash } from '../../src/core/index.js';
import type { Queryable } from '../../src/store/index.js';
import {
  CANON_ENGINES,
  create,
  currentHash,
  type EngineRuntime,
  PROJECT,
  principals,
} from '../helpers/canon.js';

const { owner, editor, agent } = principals();
/** Shared artifacts, each citing every shared note; and the editor's, citing one personal note too. */
const SHARED_ARTIFACTS = 12;
const PERSONAL_ARTIFACTS = 5;
const SHARED_NOTES = 4;

const sharedIds = Array.from({ length: SHARED_ARTIFACTS }, (_, i) => `shared.${i}`);
const personalIds = Array.from({ length: PERSONAL_ARTIFACTS }, (_, i) => `mine.${i}`);

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`reading artifacts (${engine.name})`, () => {
    let env: EngineRuntime;
    /** Statements a reader ran, by reader. */
    let statements = 0;

    const reader = (who: Principal): CanonReader => {
      const store = env.runtime.journal.store;
      const counting: Pick<Queryable, 'all'> = {
        all: (sql, params) => {
          statements++;
          return store.all(sql, params);
        },
      };
      return env.runtime.canon.readerFor(who, counting);
    };
    /** What `read` returns, and how many statements it took. */
    const counted = async <T>(
      read: () => Promise<T>,
    ): Promise<{ value: T; statements: number }> => {
      const before = statements;
      const value = await read();
      return { value, statements: statements - before };
    };

    beforeAll(async () => {
      env = await engine.open();
      const { runtime } = env;
      const shared: { object_id: string; version_hash: string }[] = [];
      for (let i = 0; i < SHARED_NOTES; i++) {
        const id = `team.note${i}`;
        await create(runtime, owner, id, { title: `Note ${i}`, text: `Shared note ${i}.` });
        shared.push({ object_id: id, version_hash: await currentHash(runtime, id) });
      }
      await create(runtime, editor, 'eddie.private', {
        title: 'Private',
        text: 'Only the editor reads this.',
        visibility: 'personal',
      });
      const personal = {
        object_id: 'eddie.private',
        version_hash: await currentHash(runtime, 'eddie.private'),
      };
      for (const id of sharedIds) {
        await registerArtifact(runtime.canon, editor, {
          artifact_id: id,
          canonical_note_versions: shared,
          output_digest: contentHash(id),
        });
      }
      for (const id of personalIds) {
        await registerArtifact(runtime.canon, editor, {
          artifact_id: id,
          canonical_note_versions: [...shared, personal],
          output_digest: contentHash(id),
        });
      }
    });
    afterAll(() => env?.close());

    it('each principal sees the shared artifacts, and only the holder its own, in one read', async () => {
      const everything = [...sharedIds, ...personalIds].sort();
      for (const [who, expected] of [
        [owner, [...sharedIds].sort()],
        [agent, [...sharedIds].sort()],
        [editor, everything],
      ] as const) {
        const { value, statements: ran } = await counted(() => reader(who).artifacts());
        expect(value.map((m) => m.artifact_id)).toEqual(expected);
        // The artifacts, then every version they cite: 17 artifacts × 4–5 citations, two statements.
        expect(ran).toBe(2);
      }
    });

    it('artifacts by id: unknown and unreadable ids are left out, at a fixed cost', async () => {
      const ids = [...sharedIds, ...personalIds, 'no.such'];
      const asAgent = await counted(() => reader(agent).artifactsById(ids));
      expect([...asAgent.value.keys()].sort()).toEqual([...sharedIds].sort());
      expect(asAgent.statements).toBe(2);
      const asEditor = await reader(editor).artifactsById(ids);
      expect([...asEditor.keys()].sort()).toEqual([...sharedIds, ...personalIds].sort());
      expect((await reader(agent).artifact('mine.0')) === null).toBe(true);
      expect((await reader(editor).artifact('mine.0'))?.artifact_id).toBe('mine.0');
    });

    it('what was built from a note, as each principal may read it', async () => {
      for (const [who, expected] of [
        [agent, [...sharedIds].sort()],
        [editor, [...sharedIds, ...personalIds].sort()],
      ] as const) {
        const { value, statements: ran } = await counted(() =>
          reader(who).artifactsBuiltFrom('team.note0'),
        );
        expect([...value].sort()).toEqual(expected);
        // The inputs, the artifacts, the versions they cite.
        expect(ran).toBe(3);
      }
      expect(await reader(agent).artifactsBuiltFrom('eddie.private')).toEqual([]);
      expect((await reader(editor).artifactsBuiltFrom('eddie.private')).sort()).toEqual(
        [...personalIds].sort(),
      );
    });

    it('artifacts within an audience: what the viewer may read and the audience may name, two reads', async () => {
      const ids = [...sharedIds, ...personalIds];
      const holder = { shared: false, holder: editor.id };
      for (const [who, audience, expected] of [
        [editor, { shared: true }, sharedIds],
        [editor, holder, ids],
        [agent, holder, sharedIds],
      ] as const) {
        const { value, statements: ran } = await counted(() =>
          reader(who).artifactsWithin(ids, audience),
        );
        expect([...value].sort()).toEqual([...expected].sort());
        expect(ran).toBe(2);
      }
    });

    it('audiences in order, one read for all', async () => {
      const manifests = await env.runtime.canon.reader(PROJECT).artifacts();
      expect(manifests).toHaveLength(SHARED_ARTIFACTS + PERSONAL_ARTIFACTS);
      const { value, statements: ran } = await counted(() =>
        reader(agent).artifactAudiences(manifests),
      );
      expect(ran).toBe(1);
      manifests.forEach((m, i) => {
        expect(value[i]).toEqual(
          m.artifact_id.startsWith('mine.')
            ? { shared: false, holder: editor.id }
            : { shared: true },
        );
      });
    });
  });
}
