// Canon's dependency graph over real HTTP on loopback, for each storage engine: a three-level chain
// (fact → decision → decision → artifact) built with pinned dependency refs; moving the root flags
// every level in the same commit, the receipt lists them, and the board, the object, provenance,
// the artifacts and the working set all say so; a cycle is refused with DEPENDENCY_CYCLE (422) and
// its path; a malformed pin is INVALID_PROPOSAL (400); a revision made against the new base clears.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHash } from '../../src/core/index.js';
import { CANON_ENGINES, canonState, type EngineRuntime, PROJECT } from '../helpers/canon.js';
import { type ServedCanon, serveCanon } from '../helpers/serve-canon.js';

const note = (title: string, text: string, extra: Record<string, unknown> = {}) => ({
  object_type: 'decision',
  title,
  text,
  ...extra,
});

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`the dependency graph over HTTP on ${engine.name}`, () => {
    let served: ServedCanon<'olivia' | 'vera'>;
    let env: EngineRuntime;
    let t: typeof served.t;
    const api = (method: string, path: string, token: string, body?: unknown) =>
      served.api(method, path, token, body);
    const propose = (object_id: string, candidate: unknown, extra: Record<string, unknown> = {}) =>
      api('POST', '/proposals', t.olivia, {
        object_id,
        intent: 'create',
        base_version: null,
        candidate,
        ...extra,
      });
    const version = async (id: string) =>
      (await api('GET', `/objects/${id}`, t.vera)).body.object.current_version_ref as string;

    beforeAll(async () => {
      served = await serveCanon(engine.open, PROJECT, { olivia: 'owner', vera: 'viewer' });
      ({ env, t } = served);
    });
    afterAll(async () => served?.close());

    it('moving the root flags every level in the same commit; every view says so', async () => {
      const root = await propose('storage.engine', {
        ...note('Storage engine', 'Storage is SQLite.'),
        object_type: 'fact',
      });
      expect(root.status).toBe(201);
      const v1 = root.body.committed.version_hash;
      // Pinned explicitly, and by id.
      const db = await propose(
        'decision.db',
        note('Database', 'We ship the embedded engine.', {
          dependency_refs: [{ object_id: 'storage.engine', version_hash: v1 }],
        }),
      );
      expect(db.status).toBe(201);
      expect(db.body.committed.content.dependency_versions).toEqual([
        { object_id: 'storage.engine', version_hash: v1 },
      ]);
      const backup = await propose(
        'decision.backup',
        note('Backups', 'Backups copy the database file.', { dependency_refs: ['decision.db'] }),
      );
      expect(backup.body.committed.content.dependency_versions).toEqual([
        { object_id: 'decision.db', version_hash: await version('decision.db') },
      ]);
      const art = await api('POST', '/artifacts', t.olivia, {
        artifact_id: 'backup.runbook',
        canonical_note_versions: [
          { object_id: 'decision.backup', version_hash: await version('decision.backup') },
        ],
        output_digest: contentHash({ runbook: 1 }),
      });
      expect(art.status).toBe(201);
      const board = await api('GET', '/board', t.vera);
      expect(board.body.objects.active.map((o: any) => o.dependency_state)).toEqual([
        null,
        null,
        null,
      ]);

      const head = (await env.runtime.journal.head(PROJECT)).seq;
      const moved = await api('POST', '/proposals', t.olivia, {
        object_id: 'storage.engine',
        intent: 'update',
        base_version: v1,
        candidate: { ...note('Storage engine', 'Storage is PostgreSQL.'), object_type: 'fact' },
      });
      expect(moved.status).toBe(201);
      expect((await env.runtime.journal.head(PROJECT)).seq).toBe(head + 2);
      const cause = 'storage.engine moved v1 → v2';
      expect(moved.body.receipt.affected_dependents).toEqual([
        { id: 'decision.db', kind: 'note', depth: 1, state: 'needs_revision', cause },
        {
          id: 'decision.backup',
          kind: 'note',
          depth: 2,
          state: 'needs_revision',
          cause: `${cause} (through decision.db)`,
        },
        {
          id: 'backup.runbook',
          kind: 'artifact',
          depth: 3,
          state: 'possibly_stale',
          cause: `${cause} (through decision.db → decision.backup)`,
        },
      ]);
      // The receipt read back from the journal is the same.
      const seq = Number(moved.body.receipt.receipt_id.split(':').at(-1));
      expect((await env.runtime.journal.receipt(PROJECT, seq))?.affected_dependents).toEqual(
        moved.body.receipt.affected_dependents,
      );

      const object = await api('GET', '/objects/decision.backup', t.vera);
      expect(object.body.dependency_state).toEqual({
        id: 'decision.backup',
        kind: 'note',
        depth: 2,
        state: 'needs_revision',
        cause: `${cause} (through decision.db)`,
        path: ['storage.engine', 'decision.db', 'decision.backup'],
      });
      const after = await api('GET', '/board', t.vera);
      expect(
        Object.fromEntries(
          after.body.objects.active.map((o: any) => [
            o.object_id,
            o.dependency_state?.state ?? null,
          ]),
        ),
      ).toEqual({
        'decision.backup': 'needs_revision',
        'decision.db': 'needs_revision',
        'storage.engine': null,
      });
      expect(after.body.artifacts.map((a: any) => [a.manifest.artifact_id, a.state])).toEqual([
        ['backup.runbook', 'possibly_stale'],
      ]);
      const listed = await api('GET', '/artifacts', t.vera);
      expect(listed.body.artifacts[0].reasons).toEqual([
        `${cause} (through decision.db → decision.backup)`,
      ]);
      const walk = await api('GET', '/objects/decision.db/provenance', t.vera);
      expect(walk.body.dependency_state.cause).toBe(cause);
      expect(walk.body.made_against).toEqual([{ object_id: 'storage.engine', version_hash: v1 }]);
      const set = await api('POST', '/working-set', t.vera, { objective: 'database backups' });
      expect(set.status).toBe(200);
      expect(set.body.notes.map((n: any) => n.object_id)).not.toContain('decision.db');
      expect(set.body.needs_revision.map((n: any) => n.object_id).sort()).toEqual([
        'decision.backup',
        'decision.db',
      ]);
      expect(set.body.capsule).toContain('## Needs revision');
    });

    it('a revision made against the new base clears it and carries the move down', async () => {
      const current = await api('GET', '/objects/decision.db', t.vera);
      const revised = await api('POST', '/proposals', t.olivia, {
        object_id: 'decision.db',
        intent: 'update',
        base_version: current.body.object.current_version_ref,
        candidate: note('Database', 'We run a PostgreSQL server.', {
          dependency_refs: ['storage.engine'],
        }),
      });
      expect(revised.status).toBe(201);
      expect(revised.body.receipt.affected_dependents.map((d: any) => [d.id, d.depth])).toEqual([
        ['decision.backup', 1],
        ['backup.runbook', 2],
      ]);
      expect((await api('GET', '/objects/decision.db', t.vera)).body.dependency_state).toBeNull();
      expect(
        (await api('GET', '/objects/decision.backup', t.vera)).body.dependency_state.cause,
      ).toBe('decision.db moved v1 → v2');
    });

    it('a cycle is refused with DEPENDENCY_CYCLE and its path; a malformed pin is INVALID_PROPOSAL', async () => {
      const before = await canonState(env.runtime);
      const cycle = await api('POST', '/proposals', t.olivia, {
        object_id: 'storage.engine',
        intent: 'update',
        base_version: await version('storage.engine'),
        candidate: {
          ...note('Storage engine', 'Storage follows the backups.'),
          object_type: 'fact',
          dependency_refs: ['decision.backup'],
        },
      });
      expect([cycle.status, cycle.body.error.code]).toEqual([422, 'DEPENDENCY_CYCLE']);
      expect(cycle.body.error.details.cycle).toEqual([
        'storage.engine',
        'decision.backup',
        'decision.db',
        'storage.engine',
      ]);
      for (const ref of [
        { object_id: 'storage.engine' },
        { object_id: 'storage.engine', version_hash: 'v1' },
        { object_id: 'Storage', version_hash: contentHash(1) },
        42,
      ]) {
        const bad = await propose(
          'other.note',
          note('Other', 'Other.', { dependency_refs: [ref] }),
        );
        expect([bad.status, bad.body.error.code]).toEqual([400, 'INVALID_PROPOSAL']);
      }
      // A version's content sent back as it was read: told where a pin goes.
      const echoed = await propose('other.note', {
        ...note('Other', 'Other.'),
        dependency_refs: ['storage.engine'],
        dependency_versions: [
          { object_id: 'storage.engine', version_hash: await version('storage.engine') },
        ],
      });
      expect([echoed.status, echoed.body.error.code, echoed.body.error.details]).toEqual([
        400,
        'INVALID_PROPOSAL',
        { field: 'dependency_versions' },
      ]);
      const unknown = await propose(
        'other.note',
        note('Other', 'Other.', {
          dependency_refs: [{ object_id: 'storage.engine', version_hash: contentHash(1) }],
        }),
      );
      expect([unknown.status, unknown.body.error.code]).toEqual([404, 'UNKNOWN_VERSION']);
      expect(await canonState(env.runtime)).toEqual(before);
    });
  });
}
