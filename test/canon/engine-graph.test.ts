// Canon's dependency graph on a real runtime, for each storage engine (LCSM §10, CRP-030 §3): every
// dependency names the version it was made against; moving an object flags every transitive
// dependent — notes and artifacts, any depth, a diamond's join once at its shortest depth — in the
// same commit, and the receipt lists exactly what the projection records; a cycle is refused at
// proposal time and writes nothing; a new version of a dependent made against current canon clears
// it; rebuilding from the journal gives every edge and state back byte for byte.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import {
  artifactStatusPage,
  CANON_PROJECTION,
  proposalInput,
  provenance,
  registerArtifact,
  workingSet,
} from '../../src/canon/index.js';
import { contentHash } from '../../src/core/index.js';
import { rebuildProject } from '../../src/journal/index.js';
import {
  archivedSource,
  CANON_ENGINES,
  canonState,
  canonTables,
  create,
  currentHash,
  type EngineRuntime,
  expectCode,
  note,
  PROJECT,
  principals,
  update,
} from '../helpers/canon.js';

const { owner, agent } = principals();

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`canon's dependency graph on ${engine.name}`, () => {
    let env: EngineRuntime;
    let runtime: CanonryRuntime;
    let n = 0;
    beforeAll(async () => {
      env = await engine.open();
      runtime = env.runtime;
    });
    afterAll(async () => env?.close());

    const states = async () => {
      const all = await runtime.canon.reader(PROJECT).dependencyStates();
      return Object.fromEntries([...all].map(([k, s]) => [k, [s.depth, s.state, s.cause]]));
    };
    const fact = (id: string, text: string, deps: string[] = []) =>
      create(runtime, owner, id, { title: id, text, dependency_refs: deps });
    const decision = (id: string, text: string, deps: string[]) =>
      create(runtime, owner, id, {
        object_type: 'decision',
        title: id,
        text,
        dependency_refs: deps,
      });
    const artifactOn = async (id: string, on: string) =>
      registerArtifact(runtime.canon, owner, {
        artifact_id: id,
        canonical_note_versions: [{ object_id: on, version_hash: await currentHash(runtime, on) }],
        output_digest: contentHash({ id }),
      });

    it('each dependency is pinned to the version current when the proposal was made', async () => {
      const p = `pin${++n}`;
      const base = await fact(`${p}.engine`, 'Storage is SQLite.');
      const dep = await decision(`${p}.choice`, 'We ship the embedded engine.', [`${p}.engine`]);
      expect(dep.committed!.content.dependency_versions).toEqual([
        { object_id: `${p}.engine`, version_hash: base.committed!.version_hash },
      ]);
      const edges = await runtime.store.all(
        'SELECT from_kind, from_id, to_id, to_version FROM canon_edges WHERE project = $1 AND to_id = $2',
        [PROJECT, `${p}.engine`],
      );
      expect(edges).toEqual([
        {
          from_kind: 'note',
          from_id: `${p}.choice`,
          to_id: `${p}.engine`,
          to_version: base.committed!.version_hash,
        },
      ]);
      expect(await runtime.canon.reader(PROJECT).dependents(`${p}.engine`)).toEqual([
        `${p}.choice`,
      ]);
    });

    it('a three-level chain: moving the root flags every level in the same commit, and the receipt lists them', async () => {
      const p = `chain${++n}`;
      await fact(`${p}.engine`, 'Storage is SQLite.');
      await decision(`${p}.db`, 'We ship the embedded engine.', [`${p}.engine`]);
      await decision(`${p}.backup`, 'Backups copy the database file.', [`${p}.db`]);
      await artifactOn(`${p}.runbook`, `${p}.backup`);
      const head = (await runtime.journal.head(PROJECT)).seq;
      // Every write of the commit's transaction, to count how its dependency states are written.
      const writes: string[] = [];
      const original = runtime.store.transaction.bind(runtime.store);
      const transaction = vi
        .spyOn(runtime.store, 'transaction')
        .mockImplementation((work, options) =>
          original(
            (tx) =>
              work({
                ...tx,
                run: (sql, params) => {
                  writes.push(sql.replace(/\s+/g, ' ').trim());
                  return tx.run(sql, params);
                },
              }),
            options,
          ),
        );
      const moved = await update(runtime, owner, `${p}.engine`, {
        text: 'Storage is PostgreSQL.',
      }).finally(() => transaction.mockRestore());
      expect(moved.committed?.version_id).toBe(2);
      // The three states the cascade reached: one statement, not one apiece.
      expect(writes.filter((sql) => sql.startsWith('INSERT INTO canon_dependency_states'))).toEqual(
        [
          expect.stringMatching(
            /VALUES \(\$1, \$2, \$3, \$4, \$5, \$6\), \([^)]*\), \([^)]*\) ON CONFLICT/,
          ),
        ],
      );
      // The proposal and its commit: two entries, one transaction; nothing written after it.
      expect((await runtime.journal.head(PROJECT)).seq).toBe(head + 2);
      const cause = `${p}.engine moved v1 → v2`;
      expect(moved.receipt.affected_dependents).toEqual([
        { id: `${p}.db`, kind: 'note', depth: 1, state: 'needs_revision', cause },
        {
          id: `${p}.backup`,
          kind: 'note',
          depth: 2,
          state: 'needs_revision',
          cause: `${cause} (through ${p}.db)`,
        },
        {
          id: `${p}.runbook`,
          kind: 'artifact',
          depth: 3,
          state: 'possibly_stale',
          cause: `${cause} (through ${p}.db → ${p}.backup)`,
        },
      ]);
      const all = await states();
      expect(all[`note:${p}.db`]).toEqual([1, 'needs_revision', cause]);
      expect(all[`note:${p}.backup`]).toEqual([2, 'needs_revision', `${cause} (through ${p}.db)`]);
      expect(all[`artifact:${p}.runbook`]).toEqual([
        3,
        'possibly_stale',
        `${cause} (through ${p}.db → ${p}.backup)`,
      ]);
      const state = await runtime.canon.reader(PROJECT).dependencyState('note', `${p}.backup`);
      expect(state?.path).toEqual([`${p}.engine`, `${p}.db`, `${p}.backup`]);
      // `canon artifacts` shows the transitive state, not `current`.
      const listed = (
        await artifactStatusPage(runtime.canon.readerAs(owner), { limit: 1000 })
      ).find((a) => a.manifest.artifact_id === `${p}.runbook`);
      expect([listed?.state, listed?.reasons]).toEqual([
        'possibly_stale',
        [`${cause} (through ${p}.db → ${p}.backup)`],
      ]);
    });

    it('a diamond: the join is flagged once, at its shortest depth', async () => {
      const p = `diamond${++n}`;
      await fact(`${p}.root`, 'The API is REST.');
      await decision(`${p}.left`, 'Clients use fetch.', [`${p}.root`]);
      await decision(`${p}.right`, 'Docs list endpoints.', [`${p}.root`]);
      await decision(`${p}.join`, 'The SDK wraps both.', [`${p}.left`, `${p}.right`]);
      await decision(`${p}.tail`, 'Examples use the SDK.', [`${p}.join`]);
      await fact(`${p}.bystander`, 'Unrelated.', []);
      const moved = await update(runtime, owner, `${p}.root`, { text: 'The API is GraphQL.' });
      const listed = moved.receipt.affected_dependents.map((d) =>
        typeof d === 'string' ? d : [d.id, d.depth],
      );
      expect(listed).toEqual([
        [`${p}.left`, 1],
        [`${p}.right`, 1],
        [`${p}.join`, 2],
        [`${p}.tail`, 3],
      ]);
      const all = await states();
      expect(Object.keys(all).filter((k) => k.includes(p))).toEqual(
        [`note:${p}.join`, `note:${p}.left`, `note:${p}.right`, `note:${p}.tail`].sort(),
      );
      expect(all[`note:${p}.join`]?.[2]).toBe(`${p}.root moved v1 → v2 (through ${p}.left)`);
    });

    it('a cycle is refused at proposal time with its path, and nothing is written', async () => {
      const p = `cycle${++n}`;
      await fact(`${p}.a`, 'A.');
      await fact(`${p}.b`, 'B.', [`${p}.a`]);
      await fact(`${p}.c`, 'C.', [`${p}.b`]);
      const before = await canonState(runtime);
      const err = await expectCode(
        update(runtime, owner, `${p}.a`, { dependency_refs: [`${p}.c`] }),
        'DEPENDENCY_CYCLE',
      );
      expect(err.details?.cycle).toEqual([`${p}.a`, `${p}.c`, `${p}.b`, `${p}.a`]);
      const self = await expectCode(
        update(runtime, owner, `${p}.b`, { dependency_refs: [`${p}.b`] }),
        'DEPENDENCY_CYCLE',
      );
      expect(self.details?.cycle).toEqual([`${p}.b`, `${p}.b`]);
      // A note proposed into being rests on nothing that rests on it, and cannot name itself: it
      // has no version to be pinned to.
      await expectCode(fact(`${p}.d`, 'D.', [`${p}.d`]), 'UNKNOWN_OBJECT');
      expect(await canonState(runtime)).toEqual(before);
    });

    it('the cycle check reads the graph a level at a time', async () => {
      const p = `level${++n}`;
      await fact(`${p}.base`, 'Base.');
      await fact(`${p}.other`, 'Other.');
      // Six notes under top; only the last in id order rests on base.
      const middle = [0, 1, 2, 3, 4, 5].map((i) => `${p}.d${i}`);
      for (const id of middle)
        await fact(id, `${id}.`, [id.endsWith('5') ? `${p}.base` : `${p}.other`]);
      await fact(`${p}.top`, 'Top.', middle);
      const all = vi.spyOn(runtime.store, 'all');
      const err = await expectCode(
        update(runtime, owner, `${p}.base`, { dependency_refs: [`${p}.top`] }),
        'DEPENDENCY_CYCLE',
      );
      const edgeReads = all.mock.calls.filter(([sql]) =>
        /FROM canon_edges WHERE project = \$1 AND from_kind = /.test(sql),
      );
      all.mockRestore();
      // top's edges, then its six dependencies' in one statement (not one each): two levels.
      expect(edgeReads).toHaveLength(2);
      expect(err.details?.cycle).toEqual([`${p}.base`, `${p}.top`, `${p}.d5`, `${p}.base`]);
    });

    it('a proposal reads what it rests on once for pinning and the plane rules, once for its cascade', async () => {
      const p = `once${++n}`;
      await fact(`${p}.a`, 'A.');
      await fact(`${p}.b`, 'B.');
      const all = vi.spyOn(runtime.store, 'all');
      await fact(`${p}.top`, 'Top.', [`${p}.a`, `${p}.b`]);
      const reads = all.mock.calls.filter(
        ([sql, params]) =>
          /^SELECT record FROM canon_objects WHERE project = \$1 AND object_id IN/.test(sql) &&
          params?.includes(`${p}.a`),
      );
      all.mockRestore();
      // The preparation's read, then the commit's cascade (the receipt's listing) reading canon as
      // the commit finds it.
      expect(reads.map(([, params]) => params?.slice(1))).toEqual([
        [`${p}.a`, `${p}.b`],
        [`${p}.a`, `${p}.b`],
      ]);
    });

    it('a proposal reads the messages it names once, for the archive check and the plane rules', async () => {
      const p = `cite${++n}`;
      const one = await archivedSource(
        runtime,
        owner,
        `${p}: the pool holds 8.`,
        'the pool holds 8',
      );
      const two = await archivedSource(runtime, owner, `${p}: backups run nightly.`, 'nightly');
      const all = vi.spyOn(runtime.store, 'all');
      const cited = await create(
        runtime,
        owner,
        `${p}.ops`,
        { text: 'Pool 8, nightly backups.', sources: [one.source, two.source] },
        { message_id: one.message_id },
      );
      const reads = all.mock.calls.filter(([sql]) => /\bFROM canon_messages\b/.test(sql));
      all.mockRestore();
      expect(cited.committed?.content.sources).toHaveLength(2);
      expect(reads.map(([, params]) => params?.slice(1))).toEqual([
        [one.message_id, two.message_id],
      ]);
      // The same checks as before: an unknown message, a quote the archive does not hold.
      await expectCode(
        create(runtime, owner, `${p}.x`, {}, { message_id: `${p}-nowhere` }),
        'UNKNOWN_MESSAGE',
      );
      await expectCode(
        create(runtime, owner, `${p}.y`, {
          sources: [{ ...one.source, quote: 'the pool holds 9' }],
        }),
        'SOURCE_MISSING',
      );
    });

    it('a new version of a dependent made against the new base clears it, and carries the move on', async () => {
      const p = `clear${++n}`;
      await fact(`${p}.engine`, 'Storage is SQLite.');
      await decision(`${p}.db`, 'We ship the embedded engine.', [`${p}.engine`]);
      await decision(`${p}.backup`, 'Backups copy the file.', [`${p}.db`]);
      await artifactOn(`${p}.runbook`, `${p}.db`);
      await update(runtime, owner, `${p}.engine`, { text: 'Storage is PostgreSQL.' });
      expect(Object.keys(await states()).filter((k) => k.includes(p))).toHaveLength(3);
      // A revision read from the current version drops its pins: canon pins it to canon as it is now.
      const revised = await update(runtime, owner, `${p}.db`, {
        text: 'We ship a server.',
        dependency_versions: undefined,
      });
      expect(revised.committed!.content.dependency_versions).toEqual([
        { object_id: `${p}.engine`, version_hash: await currentHash(runtime, `${p}.engine`) },
      ]);
      const all = await states();
      expect(all[`note:${p}.db`]).toBeUndefined();
      expect(all[`note:${p}.backup`]).toEqual([1, 'needs_revision', `${p}.db moved v1 → v2`]);
      expect(all[`artifact:${p}.runbook`]?.[1]).toBe('definitely_stale');
      await update(runtime, owner, `${p}.backup`, {
        text: 'Backups use pg_dump.',
        dependency_versions: undefined,
      });
      await artifactOn(`${p}.runbook`, `${p}.db`);
      expect(Object.keys(await states()).filter((k) => k.includes(p))).toEqual([]);
    });

    it('a dependent revised after its dependency was disputed is cleared; one made against an older version is not', async () => {
      const p = `revise${++n}`;
      await fact(`${p}.price`, 'The vendor charges 40 a seat.');
      await decision(`${p}.budget`, 'Budget 4,000 for 100 seats.', [`${p}.price`]);
      await update(
        runtime,
        owner,
        `${p}.price`,
        { status: 'disputed', text: 'The vendor charges 55 a seat.' },
        { intent: 'dispute' },
      );
      expect((await states())[`note:${p}.budget`]).toEqual([
        1,
        'needs_revision',
        `${p}.price disputed`,
      ]);
      // Revised against the disputed version (the new base), knowing the dispute: cleared.
      await update(runtime, owner, `${p}.budget`, {
        text: 'Budget 5,500 for 100 seats until the price is settled.',
        dependency_versions: undefined,
      });
      expect((await states())[`note:${p}.budget`]).toBeUndefined();
      // Pinned explicitly to the version before the dispute: flagged again at once.
      const [v1] = await runtime.canon.reader(PROJECT).versions(`${p}.price`);
      await update(runtime, owner, `${p}.budget`, {
        text: 'Budget 4,000 for 100 seats.',
        dependency_versions: [{ object_id: `${p}.price`, version_hash: v1!.version_hash }],
      });
      expect((await states())[`note:${p}.budget`]?.[2]).toBe(
        `made against an older ${p}.price: ${p}.price disputed`,
      );
    });

    it('what the move was decides the state: title-only, retired, superseded, disputed, an old pin', async () => {
      const p = `kinds${++n}`;
      await fact(`${p}.x`, 'X holds.');
      await decision(`${p}.d`, 'D follows from X.', [`${p}.x`]);
      await artifactOn(`${p}.sheet`, `${p}.x`);
      // A title-only edit asks nothing of a note; the artifact built on X is possibly stale.
      const titled = await update(runtime, owner, `${p}.x`, { title: 'X, renamed' });
      expect(
        titled.receipt.affected_dependents.map((d) => (typeof d === 'string' ? d : d.id)),
      ).toEqual([`${p}.sheet`]);
      expect((await states())[`note:${p}.d`]).toBeUndefined();
      expect((await states())[`artifact:${p}.sheet`]?.[1]).toBe('possibly_stale');
      // Disputed: a person must choose which claim the artifact follows.
      await update(
        runtime,
        owner,
        `${p}.x`,
        { status: 'disputed', text: 'X does not hold.' },
        { intent: 'dispute' },
      );
      expect((await states())[`note:${p}.d`]).toEqual([1, 'needs_revision', `${p}.x disputed`]);
      expect((await states())[`artifact:${p}.sheet`]?.[1]).toBe('requires_human_review');
      // A note made now against the version before the dispute needs revision at once.
      const v2 = (await runtime.canon.reader(PROJECT).versions(`${p}.x`))[1]!;
      const pinned = await create(runtime, owner, `${p}.late`, {
        text: 'Late.',
        dependency_refs: [`${p}.x`],
        dependency_versions: [{ object_id: `${p}.x`, version_hash: v2.version_hash }],
      });
      expect(pinned.committed!.content.dependency_versions).toEqual([
        { object_id: `${p}.x`, version_hash: v2.version_hash },
      ]);
      expect((await states())[`note:${p}.late`]?.[1]).toBe('needs_revision');
      // Retired: notes need revision, the artifact must be regenerated or re-decided.
      await update(runtime, owner, `${p}.x`, {}, { intent: 'retire' });
      expect((await states())[`note:${p}.d`]).toEqual([1, 'needs_revision', `${p}.x retired`]);
      // Superseded.
      await fact(`${p}.y`, 'Y holds.');
      await fact(`${p}.yd`, 'Rests on Y.', [`${p}.y`]);
      await runtime.canon.propose(owner, {
        object_id: `${p}.z`,
        intent: 'supersede',
        base_version: null,
        candidate: (await runtime.canon.reader(PROJECT).current(`${p}.y`))!.content,
        supersedes: [`${p}.y`],
      });
      expect((await states())[`note:${p}.yd`]).toEqual([
        1,
        'needs_revision',
        `${p}.y superseded by ${p}.z`,
      ]);
    });

    it('dependency refs from outside are checked: shape, two versions of one id, unknown version', async () => {
      const p = `refs${++n}`;
      await fact(`${p}.a`, 'A.');
      const hash = await currentHash(runtime, `${p}.a`);
      const input = (refs: unknown[]) =>
        proposalInput({
          object_id: `${p}.b`,
          intent: 'create',
          candidate: { object_type: 'fact', title: 'B', text: 'B.', dependency_refs: refs },
        });
      expect(
        input([`${p}.a`, { object_id: `${p}.a`, version_hash: hash }]).candidate,
      ).toMatchObject({
        dependency_refs: [`${p}.a`],
        dependency_versions: [{ object_id: `${p}.a`, version_hash: hash }],
      });
      expect(input([`${p}.a`]).candidate).not.toHaveProperty('dependency_versions');
      for (const bad of [
        [{ object_id: `${p}.a` }],
        [{ object_id: `${p}.a`, version_hash: 'sha256:1' }],
        [{ object_id: `${p}.a`, version_hash: hash, extra: 1 }],
        [
          { object_id: `${p}.a`, version_hash: hash },
          { object_id: `${p}.a`, version_hash: contentHash('other') },
        ],
      ]) {
        await expectCode(
          Promise.resolve().then(() => input(bad)),
          'INVALID_PROPOSAL',
        );
      }
      const before = await canonState(runtime);
      await expectCode(
        runtime.canon.propose(
          owner,
          input([{ object_id: `${p}.a`, version_hash: contentHash('x') }]),
        ),
        'UNKNOWN_VERSION',
      );
      // A version of another object is not a version of this one.
      const other = (await fact(`${p}.c`, 'C.')).committed!.version_hash;
      const after = await canonState(runtime);
      await expectCode(
        runtime.canon.propose(owner, input([{ object_id: `${p}.a`, version_hash: other }])),
        'UNKNOWN_VERSION',
      );
      expect(await canonState(runtime)).toEqual(after);
      expect(after.head.seq).toBe(before.head.seq + 2);
    });

    it('the receipt names only dependents the proposal’s readers may read; the projection flags all', async () => {
      const p = `planes${++n}`;
      await fact(`${p}.shared`, 'The office opens at 9.');
      await runtime.canon.propose(agent, {
        object_id: `${p}.mine`,
        intent: 'create',
        base_version: null,
        candidate: {
          ...(await runtime.canon.reader(PROJECT).current(`${p}.shared`))!.content,
          title: 'mine',
          text: 'I arrive at 9.',
          visibility: 'personal',
          dependency_refs: [`${p}.shared`],
        },
      });
      const moved = await update(runtime, owner, `${p}.shared`, {
        text: 'The office opens at 10.',
      });
      expect(moved.receipt.affected_dependents).toEqual([]);
      expect((await states())[`note:${p}.mine`]?.[1]).toBe('needs_revision');
      expect(await runtime.canon.readerFor(owner).dependencyState('note', `${p}.mine`)).toBeNull();
      expect(
        (await runtime.canon.readerFor(agent).dependencyState('note', `${p}.mine`))?.state,
      ).toBe('needs_revision');
    });

    it('working sets, capsules and provenance show a dependent that needs revision under a warning, never as current canon', async () => {
      const p = `ws${++n}`;
      await fact(`${p}.engine`, 'Storage is SQLite.');
      await decision(`${p}.db`, 'We ship the embedded engine.', [`${p}.engine`]);
      await decision(`${p}.backup`, 'Backups copy the database file.', [`${p}.db`]);
      const clean = await workingSet(runtime.canon, owner, { object_id: `${p}.db` });
      // The object, then what it depends on and what depends on it.
      expect(clean.notes.map((x) => x.object_id)).toEqual([
        `${p}.db`,
        `${p}.backup`,
        `${p}.engine`,
      ]);
      expect(clean.needs_revision).toEqual([]);
      expect(clean.capsule).not.toContain('Needs revision');
      await update(runtime, owner, `${p}.engine`, { text: 'Storage is PostgreSQL.' });
      const set = await workingSet(runtime.canon, owner, { object_id: `${p}.db` });
      expect(set.notes.map((x) => x.object_id)).toEqual([`${p}.engine`]);
      expect(set.needs_revision.map((x) => [x.object_id, x.depth, x.cause, x.path])).toEqual([
        [`${p}.db`, 1, `${p}.engine moved v1 → v2`, [`${p}.engine`, `${p}.db`]],
        [
          `${p}.backup`,
          2,
          `${p}.engine moved v1 → v2 (through ${p}.db)`,
          [`${p}.engine`, `${p}.db`, `${p}.backup`],
        ],
      ]);
      const [head, ...rest] = set.capsule.split('\n## ');
      const sections = Object.fromEntries(
        rest.map((sec) => [sec.split('\n')[0], sec.split('\n').slice(1).join('\n')]),
      );
      expect(head).toContain('# Working set');
      const warning =
        'Needs revision: rests on something that moved (not current canon until revised)';
      expect(sections[warning]).toContain(
        `- ${p}.db v1 asserted decision: We ship the embedded engine.`,
      );
      expect(sections[warning]).toContain(`  needs revision: ${p}.engine moved v1 → v2 (depth 1)`);
      expect(sections[warning]).toContain(`(through ${p}.db) (depth 2)`);
      expect(sections['Current notes']).toContain('Storage is PostgreSQL.');
      expect(sections['Current notes']).not.toContain('embedded');
      expect(sections['Current notes']).not.toContain('Backups');
      const walk = await provenance(runtime.canon, owner, `${p}.backup`);
      expect(walk.dependency_state).toMatchObject({
        state: 'needs_revision',
        depth: 2,
        path: [`${p}.engine`, `${p}.db`, `${p}.backup`],
      });
      expect(walk.made_against).toEqual([
        { object_id: `${p}.db`, version_hash: await currentHash(runtime, `${p}.db`) },
      ]);
      expect((await provenance(runtime.canon, owner, `${p}.engine`)).dependency_state).toBeNull();
    });

    it('a version journaled before pins existed was made against what was current at its commit', async () => {
      const p = `legacy${++n}`;
      const base = await fact(`${p}.x`, 'X holds.');
      // A commit entry as canon wrote them before `dependency_versions`: the refs are bare ids.
      const unhashed = {
        note_id: `${p}.old`,
        version_id: 1,
        parent_version_hash: null,
        content: note({ title: 'old', text: 'Rests on X.', dependency_refs: [`${p}.x`] }),
        shape: null,
        sources: [],
        actor: owner.id,
        authority: { proposer: owner, approver: null, gate: 'AUTO_COMMIT', gate_event: null },
        timestamp: '2026-01-01T00:00:00.000Z',
      };
      const version = { ...unhashed, version_hash: contentHash(unhashed) };
      expect(version.content).not.toHaveProperty('dependency_versions');
      await runtime.journal.append(PROJECT, {
        kind: 'canon.commit',
        actor: owner.id,
        authority: { principal: owner.id, role: owner.role, project: PROJECT },
        body: {
          proposal_id: 'prop_0000000000000001',
          version,
          supersedes: [],
          stale_artifacts: [],
          operation: { operation_type: 'create', authority_basis: { approver: null } },
        } as never,
      });
      const edges = await runtime.store.all(
        'SELECT to_id, to_version FROM canon_edges WHERE project = $1 AND from_id = $2',
        [PROJECT, `${p}.old`],
      );
      expect(edges).toEqual([{ to_id: `${p}.x`, to_version: base.committed!.version_hash }]);
      const moved = await update(runtime, owner, `${p}.x`, { text: 'X no longer holds.' });
      expect(moved.receipt.affected_dependents).toEqual([
        {
          id: `${p}.old`,
          kind: 'note',
          depth: 1,
          state: 'needs_revision',
          cause: `${p}.x moved v1 → v2`,
        },
      ]);
    });

    it('rebuilding from the journal reproduces every edge and dependency state exactly', async () => {
      const before = await canonTables(runtime.store);
      expect(before.canon_edges!.length).toBeGreaterThan(10);
      expect(before.canon_dependency_states!.length).toBeGreaterThan(10);
      await rebuildProject(runtime.journal, PROJECT);
      const after = await canonTables(runtime.store);
      expect(JSON.stringify(after.canon_edges)).toBe(JSON.stringify(before.canon_edges));
      expect(JSON.stringify(after.canon_dependency_states)).toBe(
        JSON.stringify(before.canon_dependency_states),
      );
      expect(JSON.stringify(after)).toBe(JSON.stringify(before));
    });

    it('a project that held canon before the graph gets its edges and states from the journal at the next start', async () => {
      const before = await canonTables(runtime.store);
      // As a data directory from before the graph is found: canon, an empty graph, and canon
      // tables written by an earlier version of the projection.
      await runtime.store.run('DELETE FROM canon_edges WHERE project = $1', [PROJECT]);
      await runtime.store.run('DELETE FROM canon_dependency_states WHERE project = $1', [PROJECT]);
      await runtime.store.run("DELETE FROM journal_projection_versions WHERE name = 'canon'");
      expect((await canonTables(runtime.store)).canon_edges).toEqual([]);
      const next = await env.another();
      expect(JSON.stringify(await canonTables(next.store))).toBe(JSON.stringify(before));
      expect(
        await next.store.all(
          "SELECT version FROM journal_projection_versions WHERE name = 'canon'",
        ),
      ).toEqual([{ version: CANON_PROJECTION.version }]);
    });
  });
}
