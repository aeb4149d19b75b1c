// The graph around one note (LCSM §10, §14): what it rests on, every live note resting on it however
// far down, and the artifacts built on them, each with the state the last cascade left — exactly the
// scenario's own closure, as each principal may read it, on both engines. Its work is bounded by
// the nodes asked for: a note with more dependents than that cuts the graph (said so), and the rows
// read do not grow when the project does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type NoteGraph,
  noteGraph,
  type Principal,
  registerArtifact,
} from '../../src/canon/index.js';
import { RENDER } from '../../src/cli/canon/render.js';
import { contentHash } from '../../src/core/index.js';
import {
  CANON_ENGINES,
  create,
  currentHash,
  type EngineRuntime,
  expectCode,
  PROJECT,
  principals,
  update,
} from '../helpers/canon.js';
import { counting } from '../helpers/page-bound.js';

/** A note the scenario made: what it rests on, who alone may read it (null: the project), whether live. */
interface Made {
  readonly deps: readonly string[];
  readonly holder: string | null;
  live: boolean;
}

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`the graph around a note, on ${engine.name}`, () => {
    const who = principals();
    const notes = new Map<string, Made>();
    const artifacts = new Map<string, { on: string; holder: string | null }>();
    let e: EngineRuntime;

    async function fact(p: Principal, id: string, deps: string[], personal = false) {
      const outcome = await create(e.runtime, p, id, {
        title: id,
        text: `The value of ${id}.`,
        dependency_refs: deps,
        visibility: personal ? 'personal' : 'project',
      });
      expect(outcome.proposal.status).toBe('committed');
      notes.set(id, { deps, holder: personal ? p.id : null, live: true });
    }

    async function artifact(p: Principal, id: string, on: string, holder: string | null) {
      await registerArtifact(e.runtime.canon, p, {
        artifact_id: id,
        canonical_note_versions: [
          { object_id: on, version_hash: await currentHash(e.runtime, on) },
        ],
        output_digest: contentHash({ id }),
      });
      artifacts.set(id, { on, holder });
    }

    const readable = (holder: string | null, viewer: string | null) =>
      viewer === null || holder === null || holder === viewer;

    /** The graph as the scenario says `viewer` should see it, uncut. */
    function expected(focus: string, viewer: string | null) {
      const drawn = [focus, ...notes.get(focus)!.deps];
      const edges = notes.get(focus)!.deps.map((d) => `note:${d}→note:${focus}`);
      const below = [focus];
      const seen = new Set([focus]);
      for (let id = below.shift(); id !== undefined; id = below.shift()) {
        for (const [other, m] of notes) {
          if (!m.live || !readable(m.holder, viewer) || !m.deps.includes(id)) continue;
          edges.push(`note:${id}→note:${other}`);
          if (seen.has(other)) continue;
          seen.add(other);
          drawn.push(other);
          below.push(other);
        }
      }
      const nodes = drawn.map((id) => `note:${id}`);
      for (const [id, a] of artifacts) {
        if (!readable(a.holder, viewer) || !drawn.includes(a.on)) continue;
        nodes.push(`artifact:${id}`);
        edges.push(`note:${a.on}→artifact:${id}`);
      }
      return { nodes: nodes.sort(), edges: edges.sort() };
    }

    const graph = async (viewer: Principal | null, focus: string, limit: number) => {
      const { db, seen } = counting(e.runtime.store);
      const reader =
        viewer === null
          ? e.runtime.canon.reader(PROJECT, db)
          : e.runtime.canon.readerFor(viewer, db);
      return { graph: await noteGraph(reader, focus, limit), rows: seen.rows };
    };

    const shape = (g: NoteGraph) => ({
      nodes: g.nodes.map((n) => n.id).sort(),
      edges: g.edges.map((x) => `${x.from}→${x.to}`).sort(),
    });

    beforeAll(async () => {
      e = await engine.open();
      await fact(who.owner, 'base', []);
      await fact(who.owner, 'root', ['base']);
      // More direct dependents than the board shows of one status (50).
      for (let i = 0; i < 60; i++)
        await fact(who.owner, `d.${String(i).padStart(2, '0')}`, ['root']);
      await fact(who.owner, 'c.1', ['d.00']);
      await fact(who.owner, 'c.2', ['c.1']);
      await fact(who.owner, 'join', ['c.1', 'd.01']);
      await fact(who.editor, 'mine', ['c.2'], true);
      await fact(who.owner, 'gone', ['root']);
      await fact(who.owner, 'elsewhere', ['base']);
      const current = (await e.runtime.canon.reader(PROJECT).current('gone'))!;
      await e.runtime.canon.propose(who.owner, {
        object_id: 'gone',
        intent: 'retire',
        base_version: current.version_hash,
        candidate: current.content,
      });
      notes.get('gone')!.live = false;
      await artifact(who.owner, 'build.root', 'root', null);
      await artifact(who.owner, 'build.c2', 'c.2', null);
      await artifact(who.editor, 'build.mine', 'mine', who.editor.id);
      await artifact(who.owner, 'build.elsewhere', 'elsewhere', null);
    }, 240_000);
    afterAll(() => e?.close());

    it('draws exactly the scenario closure, as each principal may read it', async () => {
      for (const [viewer, id] of [
        [who.owner, who.owner.id],
        [who.editor, who.editor.id],
        [null, null],
      ] as const) {
        for (const focus of ['root', 'c.1', 'base']) {
          const { graph: g } = await graph(viewer, focus, 1_000);
          expect([focus, id, shape(g)]).toEqual([focus, id, expected(focus, id)]);
          expect(g.truncated).toBe(false);
          expect(g.omitted).toBe(0);
          expect(g.nodes.filter((n) => n.kind === 'note' && n.focus).map((n) => n.id)).toEqual([
            `note:${focus}`,
          ]);
        }
      }
      // Another principal's personal note is absent, as if it did not exist, and not counted.
      const owner = (await graph(who.owner, 'root', 1_000)).graph;
      expect(owner.nodes.some((n) => n.id === 'note:mine' || n.id === 'artifact:build.mine')).toBe(
        false,
      );
      await expectCode(graph(who.owner, 'mine', 10), 'UNKNOWN_OBJECT');
      await expectCode(graph(who.owner, 'nothing.here', 10), 'UNKNOWN_OBJECT');
    });

    it('marks what a move left needing revision, down the whole graph', async () => {
      const before = (await graph(who.owner, 'root', 1_000)).graph;
      for (const n of before.nodes) if (n.kind === 'note') expect(n.dependency_state).toBeNull();
      await update(e.runtime, who.owner, 'base', { text: 'The base moved.' });
      const after = (await graph(who.owner, 'root', 1_000)).graph;
      expect(shape(after)).toEqual(expected('root', who.owner.id));
      for (const n of after.nodes) {
        if (n.kind !== 'note') continue;
        if (n.object_id === 'base') expect(n.dependency_state).toBeNull();
        else
          expect([n.object_id, n.dependency_state?.state]).toEqual([n.object_id, 'needs_revision']);
      }
      const built = after.nodes.find((n) => n.id === 'artifact:build.c2');
      expect(built?.kind === 'artifact' && built.artifact.state).not.toBe('current');
      const root = after.nodes[0]!;
      expect(root.kind === 'note' && root.focus).toBe(true);
      const cause = root.kind === 'note' ? root.dependency_state?.cause : undefined;
      expect(cause).toContain('base');
      const lines = RENDER.getObjectGraph!(after) as string[];
      expect(lines[0]).toBe(`* root (fact, active, needs revision: ${cause})`);
      expect(lines).toContain('  note:base → note:root');
    });

    it("says nothing of another principal's dependents, not even that it was cut", async () => {
      await fact(who.owner, 'solo', []);
      for (const id of ['s.a', 's.b', 's.c']) await fact(who.owner, id, ['solo']);
      // Personal dependents of the editor's, sorting before the project's.
      for (const id of ['s.0', 's.1', 's.2', 's.3']) await fact(who.editor, id, ['solo'], true);
      const owner = (await graph(who.owner, 'solo', 4)).graph;
      expect(shape(owner)).toEqual(expected('solo', who.owner.id));
      expect([owner.nodes.length, owner.truncated, owner.omitted]).toEqual([4, false, 0]);
      const editor = (await graph(who.editor, 'solo', 8)).graph;
      expect(shape(editor)).toEqual(expected('solo', who.editor.id));
      expect([editor.nodes.length, editor.truncated]).toEqual([8, false]);
    });

    it('cuts at the nodes asked for, says so, and reads no more as the project grows', async () => {
      const limit = 10;
      const cut = await graph(who.owner, 'root', limit);
      const full = expected('root', who.owner.id);
      expect(cut.graph.nodes).toHaveLength(limit);
      expect(cut.graph.truncated).toBe(true);
      expect(cut.graph.omitted).toBeGreaterThan(0);
      const drawn = new Set(cut.graph.nodes.map((n) => n.id));
      for (const id of drawn) expect(full.nodes).toContain(id);
      for (const x of cut.graph.edges) {
        expect(drawn.has(x.from) && drawn.has(x.to)).toBe(true);
        expect(full.edges).toContain(`${x.from}→${x.to}`);
      }
      // Every note drawn below the focus hangs from a note drawn above it.
      for (const n of cut.graph.nodes) {
        if (n.id === 'note:root' || n.id === 'note:base') continue;
        expect(cut.graph.edges.some((x) => x.to === n.id)).toBe(true);
      }
      for (let i = 60; i < 90; i++) await fact(who.owner, `d.${i}`, ['root']);
      for (let i = 0; i < 30; i++) await fact(who.editor, `p.${i}`, ['root'], true);
      const again = await graph(who.owner, 'root', limit);
      expect(again.rows).toBe(cut.rows);
      expect(again.graph.nodes).toHaveLength(limit);
    });
  });
}
