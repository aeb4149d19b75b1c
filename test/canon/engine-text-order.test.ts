// Canon's id order on every engine, PostgreSQL with a linguistic default collation (ICU en-US) among
// them: ids that differ only by punctuation ('a-b', 'a.b', 'a_b', 'a1', 'ab') list, cascade and
// make working sets in byte order — JavaScript's `<` — as on SQLite, so a receipt (hashed into the
// chain) names the same path whichever engine committed it, and a board reads the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import { registerArtifact, workingSet } from '../../src/canon/index.js';
import { compareCodeUnits, contentHash } from '../../src/core/index.js';
import {
  CANON_ENGINES,
  create,
  currentHash,
  type EngineRuntime,
  LINGUISTIC_CANON_ENGINE,
  PROJECT,
  principals,
  update,
} from '../helpers/canon.js';
import { engineTitle } from '../helpers/stores.js';

const { owner } = principals();

/** Object ids a linguistic collation orders unlike byte order ('_' < '-' < '.' < digits there). */
const IDS = ['a', 'a-b', 'a.b', 'a1', 'a_b', 'ab', 'b', '0z'];
const BYTE_ORDER = [...IDS].sort(compareCodeUnits);

for (const engine of [...CANON_ENGINES, LINGUISTIC_CANON_ENGINE]) {
  describe.skipIf(!engine.available)(`canon's id order on ${engineTitle(engine)}`, () => {
    let env: EngineRuntime;
    let runtime: CanonryRuntime;
    beforeAll(async () => {
      env = await engine.open();
      runtime = env.runtime;
    });
    afterAll(async () => env?.close());

    const fact = (id: string, deps: string[] = []) =>
      create(runtime, owner, id, {
        title: `Note ${id}`,
        text: `Note ${id}.`,
        dependency_refs: deps,
      });

    it('lists objects and artifacts in byte order', async () => {
      const p = (id: string) => `list.${id}`;
      for (const id of IDS) await fact(p(id));
      const reader = runtime.canon.reader(PROJECT);
      const listed = (await reader.objects())
        .map((o) => o.object_id)
        .filter((id) => id.startsWith('list.'));
      expect(listed).toEqual(BYTE_ORDER.map(p));
      for (const id of IDS) {
        await registerArtifact(runtime.canon, owner, {
          artifact_id: `doc.${id}`,
          canonical_note_versions: [
            { object_id: p('a'), version_hash: await currentHash(runtime, p('a')) },
          ],
          output_digest: contentHash({ id }),
        });
      }
      const docs = (await reader.artifacts())
        .map((a) => a.artifact_id)
        .filter((id) => id.startsWith('doc.'));
      expect(docs).toEqual(BYTE_ORDER.map((id) => `doc.${id}`));
      expect(await reader.artifactsBuiltFrom(p('a'))).toEqual(BYTE_ORDER.map((id) => `doc.${id}`));
    });

    it('reads the pending proposals under an id prefix: exactly those whose id starts with it', async () => {
      const { agent } = principals();
      // Pending: an agent's decision is beyond its authority. Ids around the prefix 'pp.a.' in
      // both orders ('/' follows '.' in bytes; a linguistic collation ignores punctuation first).
      const ids = ['pp.a', 'pp.a-b', 'pp.a.b', 'pp.a.c.d', 'pp.a/x', 'pp.a0', 'pp.a_b', 'pp.ab'];
      for (const id of ids) {
        const made = await create(runtime, agent, id, { object_type: 'decision' });
        expect(made.proposal.status).toBe('pending');
      }
      const reader = runtime.canon.reader(PROJECT);
      const under = async (prefix: string) =>
        (await reader.pendingUnder(prefix)).map((p) => p.object_id);
      expect(await under('pp.a.')).toEqual(['pp.a.b', 'pp.a.c.d']);
      expect(await under('pp.a')).toEqual(ids);
      expect(await under('pp.a_')).toEqual(['pp.a_b']);
      expect(await under('pp.b')).toEqual([]);
    });

    it("a diamond's join is reached through the first of its parents in byte order", async () => {
      // 'a-b' < 'a_b' in bytes, 'a_b' < 'a-b' in en-US: the path (and cause) the receipt and the
      // projection record for the join must not depend on the engine.
      await fact('dia.src');
      await fact('dia.a_b', ['dia.src']);
      await fact('dia.a-b', ['dia.src']);
      await fact('dia.join', ['dia.a_b', 'dia.a-b']);
      const moved = await update(runtime, owner, 'dia.src', { text: 'The source moved.' });
      const join = moved.receipt.affected_dependents.find(
        (d) => typeof d !== 'string' && d.id === 'dia.join',
      );
      expect(join).toMatchObject({ depth: 2, cause: 'dia.src moved v1 → v2 (through dia.a-b)' });
      const state = await runtime.canon.reader(PROJECT).dependencyState('note', 'dia.join');
      expect(state?.path).toEqual(['dia.src', 'dia.a-b', 'dia.join']);
    });

    it('a working set breaks ties between notes in byte order', async () => {
      const project = 'ws-order';
      const { owner: o } = principals(project);
      for (const id of [...IDS].reverse()) {
        await create(runtime, o, `ws.${id}`, { title: `Note ${id}`, text: `Note ${id}.` });
      }
      // Nothing in canon is named by the objective: every note scores 0 and is at version 1.
      const set = await workingSet(runtime.canon, o, { objective: 'resume', limit: 5 });
      expect(set.notes.map((n) => n.object_id)).toEqual(
        BYTE_ORDER.slice(0, 5).map((id) => `ws.${id}`),
      );
    });
  });
}
