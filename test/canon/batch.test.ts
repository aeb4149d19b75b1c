// Canon batch proposals on each storage engine (CRP-030 §2–§3: one commit per window): many notes in
// one journal transaction, later ones depending on earlier ones pinned to their batch versions, the
// cascade and receipts exactly as the same proposals made one by one give them; all or nothing — a
// held item, a refused item, a cycle inside the batch or a concurrent change journals nothing; and a
// rebuild from the journal gives the same tables back.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import {
  Canon,
  DEFAULT_GATE_PROTOCOL,
  MAX_BATCH,
  MESSAGE,
  type NoteVersion,
  type Principal,
  type ProposalInput,
  type ProposalOutcome,
} from '../../src/canon/index.js';
import { CanonryError } from '../../src/core/index.js';
import { rebuildProject } from '../../src/journal/index.js';
import { compileProtocol } from '../../src/kernel/index.js';
import type { Queryable, Write } from '../../src/store/index.js';
import {
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
} from '../helpers/canon.js';

const { owner, agent, viewer } = principals();

const fact = (id: string, text: string, deps: string[] = []): ProposalInput => ({
  object_id: id,
  intent: 'create',
  base_version: null,
  candidate: note({ title: id, text, dependency_refs: deps }),
});
const decision = (id: string, text: string, deps: string[] = []): ProposalInput => ({
  object_id: id,
  intent: 'create',
  base_version: null,
  candidate: note({ object_type: 'decision', title: id, text, dependency_refs: deps }),
});

/** A statement a transaction ran, as sent. */
type Statement = { sql: string; params: readonly unknown[] };

/**
 * Records every statement of every store transaction of `runtime` from now on, with whether the
 * transaction committed; `transaction.mockRestore()` stops it.
 */
function recordTransactions(runtime: CanonryRuntime) {
  const transactions: { committed: boolean; statements: Statement[] }[] = [];
  const store = runtime.store;
  const original = store.transaction.bind(store);
  const transaction = vi.spyOn(store, 'transaction').mockImplementation((work, options) => {
    const statements: Statement[] = [];
    const seen = <T>(sql: string, params: readonly unknown[] | undefined, then: () => T): T => {
      statements.push({ sql: sql.replace(/\s+/g, ' ').trim(), params: [...(params ?? [])] });
      return then();
    };
    return original(
      (tx: Queryable) =>
        work({
          all: ((sql, params) => seen(sql, params, () => tx.all(sql, params))) as Queryable['all'],
          values: ((sql, params) =>
            seen(sql, params, () => tx.values(sql, params))) as Queryable['values'],
          run: (sql, params) => seen(sql, params, () => tx.run(sql, params)),
          exec: (sql) => seen(sql, [], () => tx.exec(sql)),
          // Writes run together are one statement (one round trip on PostgreSQL).
          ...(tx.runTogether
            ? {
                runTogether: (writes: readonly Write[]) =>
                  seen(
                    writes.map((w) => w.sql).join(' ; '),
                    writes.flatMap((w) => w.params),
                    () => tx.runTogether!(writes),
                  ),
              }
            : {}),
        }),
      options,
    ).then(
      (result) => {
        transactions.push({ committed: true, statements });
        return result;
      },
      (err: unknown) => {
        transactions.push({ committed: false, statements });
        throw err;
      },
    );
  });
  return { transactions, transaction };
}

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`canon batch proposals on ${engine.name}`, () => {
    let env: EngineRuntime;
    let runtime: CanonryRuntime;
    let n = 0;
    beforeAll(async () => {
      env = await engine.open();
      runtime = env.runtime;
    });
    afterAll(async () => env?.close());

    const head = async (project = PROJECT) => (await runtime.journal.head(project)).seq;
    /** An update of an object against its current version, from its current content. */
    const updating = async (
      who: Principal,
      id: string,
      change: Parameters<typeof note>[0],
    ): Promise<ProposalInput> => {
      const current = (await runtime.canon.reader(who.project).current(id))!;
      const { dependency_versions: _, ...content } = current.content;
      return {
        object_id: id,
        intent: 'update',
        base_version: current.version_hash,
        candidate: { ...content, ...change },
      };
    };

    it('facts and decisions resting on them commit in one transaction, pinned to their batch versions', async () => {
      const p = `one${++n}`;
      const before = await head();
      const append = vi.spyOn(runtime.journal, 'appendAll');
      const window = {
        message_id: `${p}-window`,
        project: PROJECT,
        text: 'window 1 closed',
        role: 'system' as const,
        actor: owner.id,
        actor_role: owner.role,
        captured_at: new Date().toISOString(),
        visibility: 'project' as const,
      };
      const { outcomes, entries } = await runtime.canon.proposeBatch(
        owner,
        [
          fact(`${p}.engine`, 'Storage is SQLite.'),
          fact(`${p}.load`, 'Load is one writer.'),
          decision(`${p}.embed`, 'We ship the embedded engine.', [`${p}.engine`, `${p}.load`]),
          decision(`${p}.backup`, 'We back up the file nightly.', [`${p}.embed`]),
        ],
        { entries: [MESSAGE.input({ message: window }, { actor: owner.id })] },
      );
      // One append to the project (the kernel's audit of the gate's verdicts goes to a project of its own).
      expect(append.mock.calls.filter(([project]) => project === PROJECT)).toHaveLength(1);
      append.mockRestore();
      // Four proposals, four commits and the extra entry: nine entries, one append.
      expect(await head()).toBe(before + 9);
      const journaled = await runtime.journal.read(PROJECT, { after: before });
      expect(journaled.map((e) => e.kind)).toEqual([
        ...Array(4).fill(['canon.proposal', 'canon.commit']).flat(),
        'canon.message',
      ]);
      expect(entries.map((e) => e.entry.seq)).toEqual([before + 9]);
      expect(await runtime.canon.reader(PROJECT).message(window.message_id)).not.toBeNull();

      const v = outcomes.map((o) => o.committed!);
      expect(outcomes.map((o) => o.proposal.status)).toEqual(Array(4).fill('committed'));
      expect(outcomes.map((o) => o.receipt.result_state_ref.seq)).toEqual(
        [2, 4, 6, 8].map((i) => before + i),
      );
      expect(v[2]!.content.dependency_versions).toEqual([
        { object_id: `${p}.engine`, version_hash: v[0]!.version_hash },
        { object_id: `${p}.load`, version_hash: v[1]!.version_hash },
      ]);
      expect(v[3]!.content.dependency_versions).toEqual([
        { object_id: `${p}.embed`, version_hash: v[2]!.version_hash },
      ]);
      const edges = await runtime.store.all(
        'SELECT from_id, to_id, to_version FROM canon_edges WHERE project = $1 AND from_id LIKE $2 ORDER BY from_id, to_id',
        [PROJECT, `${p}.%`],
      );
      expect(edges).toEqual([
        { from_id: `${p}.backup`, to_id: `${p}.embed`, to_version: v[2]!.version_hash },
        { from_id: `${p}.embed`, to_id: `${p}.engine`, to_version: v[0]!.version_hash },
        { from_id: `${p}.embed`, to_id: `${p}.load`, to_version: v[1]!.version_hash },
      ]);
      // What each outcome says is what canon holds.
      for (const o of outcomes)
        expect(await currentHash(runtime, o.proposal.object_id)).toBe(o.committed!.version_hash);
    });

    it('what a batch runs: no proposal rows in planning, none read back, nothing cleared for created notes', async () => {
      const p = `rows${++n}`;
      const { transactions, transaction } = recordTransactions(runtime);
      const ids = [`${p}.a`, `${p}.b`, `${p}.c`];
      try {
        await runtime.canon.proposeBatch(owner, [
          fact(ids[0]!, 'A holds.'),
          fact(ids[1]!, 'B holds.'),
          decision(ids[2]!, 'We rest on A and B.', [ids[0]!, ids[1]!]),
        ]);
      } finally {
        transaction.mockRestore();
      }
      // Planning (a rolled-back transaction), then the append. The kernel's audit flushes its
      // verdicts on a timer of its own, in a transaction that may land inside this window.
      const batch = transactions.filter((t) =>
        t.statements.some((st) => st.params.includes(ids[0])),
      );
      expect(batch.map((t) => t.committed)).toEqual([false, true]);
      const [planning, append] = batch.map((t) => t.statements) as [Statement[], Statement[]];
      const on = (list: Statement[], pattern: RegExp) =>
        list.filter((st) => pattern.test(st.sql)).map((st) => st.sql.split(' ')[0]!.toUpperCase());
      // The rehearsal writes no proposal row; the append inserts all three in one statement as the
      // transaction ends, each already closed by its commit (no INSERT then UPDATE apiece).
      expect(on(planning, /canon_proposals/)).toEqual([]);
      // On PostgreSQL that statement also carries the counts' upsert (its proposals' insert the
      // first part of one round trip, their values the first parameters).
      const proposalRows = append.filter((st) => /canon_proposals/.test(st.sql));
      expect(
        proposalRows.map((st) =>
          [...st.sql.matchAll(/(INSERT INTO|UPDATE|DELETE FROM) canon_proposals\b/g)].map(
            (m) => m[1],
          ),
        ),
      ).toEqual([['INSERT INTO']]);
      expect(
        proposalRows[0]!.params.slice(0, 7 * ids.length).filter((v) => v === 'committed'),
      ).toHaveLength(3);
      // …after every entry's other rows, so nothing read a proposal row that was not there yet.
      expect(append.findIndex((st) => /canon_proposals/.test(st.sql))).toBeGreaterThan(
        append.findLastIndex((st) => /canon_(objects|versions|edges)/.test(st.sql)),
      );
      // A created note's version, object and first edges are written together: on PostgreSQL one
      // statement per note in each transaction (the rehearsal's and the append's), elsewhere three.
      for (const list of [planning, append]) {
        const written = list
          .filter((st) => /canon_(versions|objects|edges) \(/.test(st.sql))
          .filter((st) => st.params.some((v) => v === ids[0] || v === ids[2]))
          .map((st) => [...st.sql.matchAll(/INSERT INTO (canon_\w+)/g)].map((m) => m[1]));
        expect(written).toEqual(
          engine.name === 'postgres'
            ? [
                ['canon_versions', 'canon_objects'],
                ['canon_versions', 'canon_objects', 'canon_edges'],
              ]
            : [
                ['canon_versions'],
                ['canon_objects'],
                ['canon_versions'],
                ['canon_objects'],
                ['canon_edges'],
              ],
        );
      }
      // A created note has no edges, no dependents and no dependency state yet: nothing is cleared
      // or looked up for it (its own edges are inserted).
      for (const list of [planning, append]) {
        const touching = list.filter(
          (st) =>
            /^DELETE FROM canon_(edges|dependency_states)\b/.test(st.sql) ||
            /FROM canon_edges WHERE project = \$1 AND to_id = \$2/.test(st.sql),
        );
        expect(touching.filter((st) => st.params.some((v) => ids.includes(v as string)))).toEqual(
          [],
        );
      }
      // Nor can a note proposed into being close a cycle (no edge points at it): c's dependencies
      // are not walked, level by level, for one.
      expect(
        planning.filter((st) =>
          /FROM canon_edges WHERE project = \$1 AND from_kind = 'note'/.test(st.sql),
        ),
      ).toEqual([]);
      // The planning reads every target at once (that a, b and c do not exist yet); a created
      // note's commit reads no object of its own (none can exist), so the append reads neither; c
      // reads what it rests on at once — in each transaction once, for pinning and the plane rules
      // (the cache answers the cascade's read).
      const restsOn = (list: Statement[]) =>
        list
          .filter(
            (st) =>
              /^SELECT record FROM canon_objects\b/.test(st.sql) &&
              st.params.some((v) => v === ids[0] || v === ids[1]),
          )
          .map((st) => st.params.slice(1));
      expect(restsOn(planning)).toEqual([ids, [ids[0], ids[1]]]);
      expect(restsOn(append)).toEqual([[ids[0], ids[1]]]);
      const rows = await runtime.store.all<{ status: string }>(
        'SELECT status FROM canon_proposals WHERE project = $1 AND object_id LIKE $2',
        [PROJECT, `${p}.%`],
      );
      expect(rows.map((r) => r.status)).toEqual(['committed', 'committed', 'committed']);
      const edges = await runtime.store.all<{ from_id: string; to_id: string }>(
        'SELECT from_id, to_id FROM canon_edges WHERE project = $1 AND from_id LIKE $2 ORDER BY to_id',
        [PROJECT, `${p}.%`],
      );
      expect(edges).toEqual([
        { from_id: ids[2], to_id: ids[0] },
        { from_id: ids[2], to_id: ids[1] },
      ]);
    });

    it("a commit's cascade reads each level's edges, and the states' notes, at once", async () => {
      const p = `levels${++n}`;
      const [a, c1, c2, e1, e2] = ['a', 'c1', 'c2', 'e1', 'e2'].map((x) => `${p}.${x}`) as [
        string,
        string,
        string,
        string,
        string,
      ];
      await runtime.canon.proposeBatch(owner, [
        fact(a, 'A holds.'),
        decision(c1, 'We rest on A.', [a]),
        decision(c2, 'We rest on A too.', [a]),
        decision(e1, 'We rest on C1.', [c1]),
        decision(e2, 'We rest on C2.', [c2]),
      ]);
      const { transactions, transaction } = recordTransactions(runtime);
      try {
        await runtime.canon.proposeBatch(owner, [await updating(owner, a, { text: 'A is gone.' })]);
      } finally {
        transaction.mockRestore();
      }
      // The cascade reached both levels.
      const states = await runtime.canon.reader(PROJECT).dependencyStates();
      expect([c1, c2, e1, e2].map((id) => states.get(`note:${id}`)?.depth)).toEqual([1, 1, 2, 2]);
      // The batch's planning and its append (the runtime's own background work, as the kernel
      // audit's writes, may run a transaction meanwhile: it names none of these notes).
      const batch = transactions.filter((t) => t.statements.some((st) => st.params.includes(a)));
      expect(batch.map((t) => t.committed)).toEqual([false, true]);
      for (const { statements } of batch) {
        // The edges into C1 and C2 (the first level) are one statement, in planning and in the
        // append alike; before, one a note.
        const edgesInto = statements.filter(
          (st) =>
            /FROM canon_edges WHERE project = \$1 AND to_id = /.test(st.sql) &&
            st.params.some((v) => v === c1 || v === c2),
        );
        expect(edgesInto.map((st) => st.params.slice(1).sort())).toEqual([[c1, c2]]);
      }
      // What the commit's states name, the planning reads at once: no note of them alone.
      const [planning] = batch.map((t) => t.statements) as [Statement[]];
      const alone = planning.filter(
        (st) =>
          /^SELECT record FROM canon_objects WHERE project = \$1 AND object_id = \$2$/.test(
            st.sql,
          ) && [c1, c2, e1, e2].includes(st.params[1] as string),
      );
      expect(alone).toEqual([]);
    });

    it('outcomes: false commits the same and reads nothing back', async () => {
      const readBack = async (outcomes: boolean) => {
        const p = `quiet${++n}`;
        const all = vi.spyOn(runtime.store, 'all');
        const done = await runtime.canon.proposeBatch(
          owner,
          [fact(`${p}.a`, 'A holds.'), decision(`${p}.b`, 'We rest on A.', [`${p}.a`])],
          {
            outcomes,
            entries: [
              MESSAGE.input(
                {
                  message: {
                    message_id: `${p}-m`,
                    project: PROJECT,
                    text: 'window closed',
                    role: 'system',
                    actor: owner.id,
                    actor_role: owner.role,
                    captured_at: new Date().toISOString(),
                    visibility: 'project',
                  },
                },
                { actor: owner.id },
              ),
            ],
          },
        );
        const reads = all.mock.calls.filter(([sql]) => /FROM canon_proposals\b/.test(sql)).length;
        all.mockRestore();
        const committed = await runtime.canon.reader(PROJECT).current(`${p}.b`);
        return { done, reads, committed };
      };
      const loud = await readBack(true);
      const quiet = await readBack(false);
      expect(loud.done.outcomes).toHaveLength(2);
      expect(loud.reads).toBe(1);
      expect(quiet.done.outcomes).toEqual([]);
      expect(quiet.reads).toBe(0);
      // The same commits: the decision stands, pinned to its batch's fact, and the extra entry is journaled.
      expect(quiet.committed?.content.dependency_versions).toHaveLength(1);
      expect(quiet.done.entries.map((e) => e.entry.kind)).toEqual(['canon.message']);
    });

    it('an agent batch of sourced facts commits as the agent, each version standing on its own proposal', async () => {
      const p = `ag${++n}`;
      const { outcomes } = await runtime.canon.proposeBatch(agent, [
        fact(`${p}.a`, 'The queue holds 256 jobs.'),
        fact(`${p}.b`, 'Each job is one transaction.', [`${p}.a`]),
      ]);
      expect(
        outcomes.map((o) => (o.committed!.authority as { proposer: unknown }).proposer),
      ).toEqual([
        { id: agent.id, role: 'agent' },
        { id: agent.id, role: 'agent' },
      ]);
      expect(
        outcomes.map((o) => (o.committed!.authority as { proposal_id: string }).proposal_id),
      ).toEqual(outcomes.map((o) => o.proposal.proposal_id));
    });

    it('a batch gives the objects, versions, edges, cascade states and receipts that single proposals give', async () => {
      // Two projects with the same canon; the same proposals as a batch in one, one by one in the other.
      const batchP = `${PROJECT}-b${++n}`;
      const singleP = `${PROJECT}-s${n}`;
      const seed = async (who: Principal) => {
        for (const input of [
          fact('f.store', 'Storage is SQLite.'),
          fact('f.host', 'One host.'),
          decision('d.embed', 'We ship the embedded engine.', ['f.store']),
          decision('d.backup', 'We back up the file nightly.', ['d.embed']),
        ])
          await runtime.canon.propose(who, input);
      };
      const batchOwner = { ...owner, project: batchP };
      const singleOwner = { ...owner, project: singleP };
      await seed(batchOwner);
      await seed(singleOwner);
      const inputs = async (who: Principal): Promise<ProposalInput[]> => [
        // An update whose dependents are all current canon: the cascade flags d.embed, d.backup.
        await updating(who, 'f.store', { text: 'Storage is PostgreSQL.' }),
        // A new decision on the updated fact: pinned to its batch version, not flagged.
        decision('d.pool', 'We size the pool to 8.', ['f.store']),
        // A title-only update: moves nothing downstream.
        await updating(who, 'f.host', { title: 'host count' }),
        fact('f.new', 'Two regions.'),
        decision('d.region', 'We replicate across regions.', ['f.new', 'd.embed']),
        // Supersedes a fact the batch made, whose dependent is in the batch: d.region is flagged.
        {
          object_id: 'f.newer',
          intent: 'supersede',
          base_version: null,
          supersedes: ['f.new'],
          candidate: note({ title: 'f.newer', text: 'Three regions.' }),
        },
      ];
      const batch = await runtime.canon.proposeBatch(batchOwner, await inputs(batchOwner));
      const singles: ProposalOutcome[] = [];
      for (const input of await inputs(singleOwner))
        singles.push(await runtime.canon.propose(singleOwner, input));

      // Hashes, ids and times differ between the projects: name each version by object and number.
      const view = async (project: string) => {
        const rows = await runtime.store.all<{ version_hash: string; record: string }>(
          'SELECT version_hash, record FROM canon_versions WHERE project = $1',
          [project],
        );
        const label = new Map(
          rows.map((r) => {
            const v = JSON.parse(r.record) as NoteVersion;
            return [r.version_hash, `${v.note_id}@v${v.version_id}`];
          }),
        );
        const versions = rows
          .map((r) => JSON.parse(r.record) as NoteVersion)
          .map((v) => ({
            at: label.get(v.version_hash),
            parent: v.parent_version_hash ? label.get(v.parent_version_hash) : null,
            content: {
              ...v.content,
              dependency_versions: v.content.dependency_versions?.map((d) =>
                label.get(d.version_hash),
              ),
            },
            gate: (v.authority as { gate: string }).gate,
          }))
          .sort((a, b) => (a.at! < b.at! ? -1 : 1));
        const objects = (
          await runtime.store.all<{ record: string }>(
            'SELECT record FROM canon_objects WHERE project = $1 ORDER BY object_id',
            [project],
          )
        ).map((r) => {
          const { current_version_ref, created_at, authority_basis, ...rest } = JSON.parse(
            r.record,
          );
          return { ...rest, current: label.get(current_version_ref) };
        });
        const edges = (
          await runtime.store.all<{
            from_kind: string;
            from_id: string;
            to_id: string;
            to_version: string;
          }>(
            'SELECT from_kind, from_id, to_id, to_version FROM canon_edges WHERE project = $1 ORDER BY from_id, to_id',
            [project],
          )
        ).map((e) => ({ ...e, to_version: label.get(e.to_version) }));
        const states = (
          await runtime.store.all<{ record: string }>(
            'SELECT record FROM canon_dependency_states WHERE project = $1 ORDER BY kind, dependent_id',
            [project],
          )
        ).map((r) => JSON.parse(r.record));
        return { versions, objects, edges, states };
      };
      const b = await view(batchP);
      const s = await view(singleP);
      expect(b).toEqual(s);
      // The cascade did reach what the test means it to.
      expect(
        b.states.map((x: { id: string; depth: number; cause: string }) => [x.id, x.depth, x.cause]),
      ).toEqual(
        [
          ['d.embed', 1, 'f.store moved v1 → v2'],
          ['d.region', 1, 'f.new superseded by f.newer'],
          ['d.backup', 2, 'f.store moved v1 → v2 (through d.embed)'],
        ].sort((x, y) => (x[0]! < y[0]! ? -1 : 1)),
      );
      const receipts = (os: readonly ProposalOutcome[]) =>
        os.map((o) => ({
          affected: o.receipt.affected_dependents,
          checks: o.receipt.checks.filter((c) => c.name !== 'stakes_gate'),
          warnings: o.receipt.warnings,
          stakes: o.proposal.comparison.stakes,
          gate: o.proposal.gate.label,
        }));
      expect(receipts(batch.outcomes)).toEqual(receipts(singles));
      expect(batch.outcomes[0]!.receipt.affected_dependents).toEqual([
        {
          id: 'd.embed',
          kind: 'note',
          depth: 1,
          state: 'needs_revision',
          cause: 'f.store moved v1 → v2',
        },
        {
          id: 'd.backup',
          kind: 'note',
          depth: 2,
          state: 'needs_revision',
          cause: 'f.store moved v1 → v2 (through d.embed)',
        },
      ]);

      // Replaying the journal gives the batch project's tables back byte for byte.
      const tables = await canonTables(runtime.store, batchP);
      await rebuildProject(runtime.journal, batchP);
      expect(JSON.stringify(await canonTables(runtime.store, batchP))).toBe(JSON.stringify(tables));
    });

    it('an item the gate holds back: BATCH_HELD lists every held item and nothing is journaled', async () => {
      const p = `held${++n}`;
      const before = await canonState(runtime);
      const err = await expectCode(
        runtime.canon.proposeBatch(agent, [
          fact(`${p}.a`, 'The build takes four minutes.'),
          // An agent's decision is S2, beyond its authority: REQUIRE_CONFIRMATION.
          decision(`${p}.d`, 'We cache the build.', [`${p}.a`]),
          fact(`${p}.b`, 'The cache is 2 GB.', [`${p}.d`]),
          // S3: only the owner answers for a note flagged for oversight.
          { ...fact(`${p}.w`, 'Watch the cache.'), candidate: note({ tags: ['oversight'] }) },
        ]),
        'BATCH_HELD',
      );
      expect(err.status).toBe(409);
      expect(err.details).toEqual({
        held: [
          { index: 1, object_id: `${p}.d`, label: 'REQUIRE_CONFIRMATION' },
          { index: 3, object_id: `${p}.w`, label: 'HARD_STOP' },
        ],
      });
      expect(await canonState(runtime)).toEqual(before);
    });

    it('a refused item names its index and nothing is journaled', async () => {
      const p = `bad${++n}`;
      await runtime.canon.propose(owner, fact(`${p}.old`, 'Old.'));
      const before = await canonState(runtime);
      const unknown = await expectCode(
        runtime.canon.proposeBatch(owner, [
          fact(`${p}.a`, 'A.'),
          fact(`${p}.b`, 'B.', [`${p}.nowhere`]),
        ]),
        'UNKNOWN_OBJECT',
      );
      expect(unknown.details).toMatchObject({ index: 1, object_id: `${p}.b` });
      expect(unknown.message).toContain('inputs[1]');
      // A dependency on a later item does not exist yet, as it would not one by one.
      await expectCode(
        runtime.canon.proposeBatch(owner, [fact(`${p}.c`, 'C.', [`${p}.d`]), fact(`${p}.d`, 'D.')]),
        'UNKNOWN_OBJECT',
      );
      // Planes: a project note may not rest on a personal note the batch made.
      const plane = await expectCode(
        runtime.canon.proposeBatch(owner, [
          { ...fact(`${p}.mine`, 'Mine.'), candidate: note({ visibility: 'personal' }) },
          fact(`${p}.ours`, 'Ours.', [`${p}.mine`]),
        ]),
        'PLANE_VIOLATION',
      );
      expect(plane.details).toMatchObject({ index: 1 });
      // A note an earlier item superseded is no longer live for a later one (the targets are read
      // at once before the first item: that read does not stand for a note the batch superseded).
      const gone = await expectCode(
        runtime.canon.proposeBatch(owner, [
          {
            object_id: `${p}.new`,
            intent: 'supersede',
            base_version: null,
            supersedes: [`${p}.old`],
            candidate: note({ title: `${p}.new`, text: 'New.' }),
          },
          await updating(owner, `${p}.old`, { text: 'Old, changed.' }),
        ]),
        'CONFLICT',
      );
      expect(gone.details).toMatchObject({ index: 1, object_id: `${p}.old` });
      expect(gone.message).toContain('superseded');
      const dup = await expectCode(
        runtime.canon.proposeBatch(owner, [fact(`${p}.x`, 'X.'), fact(`${p}.x`, 'X again.')]),
        'INVALID_PROPOSAL',
      );
      expect(dup.details).toMatchObject({ index: 1, first: 0 });
      const intent = await expectCode(
        runtime.canon.proposeBatch(owner, [
          fact(`${p}.y`, 'Y.'),
          { ...fact(`${p}.z`, 'Z.'), intent: 'retire' },
        ]),
        'INVALID_PROPOSAL',
      );
      expect(intent.details).toMatchObject({ index: 1, field: 'intent' });
      await expectCode(runtime.canon.proposeBatch(owner, []), 'INVALID_PROPOSAL');
      const many = Array.from({ length: MAX_BATCH + 1 }, (_, i) => fact(`${p}.m${i}`, 'M.'));
      await expectCode(runtime.canon.proposeBatch(owner, many), 'INVALID_PROPOSAL');
      await expectCode(runtime.canon.proposeBatch(viewer, [fact(`${p}.v`, 'V.')]), 'FORBIDDEN');
      // Commits come only from the gate, never as extra entries.
      const planned = await expectCode(
        runtime.canon.proposeBatch(owner, [fact(`${p}.e`, 'E.')], {
          entries: [{ kind: 'canon.commit', body: {}, actor: owner.id }],
        }),
        'INVALID_ENTRY',
      );
      expect(planned.details).toMatchObject({ entry: 0, kind: 'canon.commit' });
      // The caller's precondition refuses the whole batch.
      await expectCode(
        runtime.canon.proposeBatch(owner, [fact(`${p}.f`, 'F.')], {
          precondition: async (tx) => {
            expect(await tx.all('SELECT 1 AS one')).toEqual([{ one: 1 }]);
            throw new CanonryError('CONFLICT', 'the window moved');
          },
        }),
        'CONFLICT',
      );
      expect(await canonState(runtime)).toEqual(before);
    });

    it('a REJECT of one item is GATE_REFUSED naming it, and nothing is journaled (no rejected proposal either)', async () => {
      const p = `rej${++n}`;
      // A gate that refuses questions: the default gate refuses only viewers, who cannot propose.
      const gate = compileProtocol({
        ...DEFAULT_GATE_PROTOCOL,
        slug: 'test.refuse-questions',
        rules: [
          { label: 'REJECT', condition: { '==': [{ var: 'object_type' }, 'question'] } },
          ...DEFAULT_GATE_PROTOCOL.rules,
        ],
      });
      const strict = new Canon({ journal: runtime.journal, kernel: runtime.kernel, gate });
      const before = await canonState(runtime);
      const err = await expectCode(
        strict.proposeBatch(owner, [
          fact(`${p}.a`, 'A.'),
          { ...fact(`${p}.q`, 'Why A?'), candidate: note({ object_type: 'question' }) },
        ]),
        'GATE_REFUSED',
      );
      expect(err.details).toMatchObject({ index: 1, object_id: `${p}.q`, label: 'REJECT' });
      expect(await canonState(runtime)).toEqual(before);
    });

    it('a cycle closed inside the batch is refused with its path, and nothing is journaled', async () => {
      const p = `cyc${++n}`;
      await create(runtime, owner, `${p}.base`, { title: 'base', text: 'Base.' });
      const before = await canonState(runtime);
      const err = await expectCode(
        runtime.canon.proposeBatch(owner, [
          fact(`${p}.on`, 'Rests on base.', [`${p}.base`]),
          await updating(owner, `${p}.base`, { dependency_refs: [`${p}.on`] }),
        ]),
        'DEPENDENCY_CYCLE',
      );
      expect(err.details).toMatchObject({
        index: 1,
        object_id: `${p}.base`,
        cycle: [`${p}.base`, `${p}.on`, `${p}.base`],
      });
      expect(await canonState(runtime)).toEqual(before);
    });

    it.skipIf(engine.name !== 'postgres')(
      'a commit that lands while the batch is being checked: CONFLICT, never the database error',
      async () => {
        const p = `checking${++n}`;
        await create(runtime, owner, `${p}.f`, { title: 'f', text: 'F holds.' });
        const batch = [await updating(owner, `${p}.f`, { text: 'F no longer holds.' })];
        // Another process is committing the object's next version: its row is written, not yet
        // committed, so the batch's check (canon's projection applied in a transaction that is
        // rolled back, outside the journal's head lock) waits on it, then finds it taken.
        const other = new pg.Client({ connectionString: env.db });
        await other.connect();
        const version = [PROJECT, `${p}.f`, 2, `sha256:${'f'.repeat(64)}`];
        try {
          await other.query('BEGIN');
          await other.query(
            `INSERT INTO canon_versions (project, object_id, version_id, version_hash, seq, record)
             VALUES ($1, $2, $3, $4, 0, '{}')`,
            version,
          );
          const before = await head();
          const checking = runtime.canon.proposeBatch(owner, batch);
          const outcome = checking.then(
            () => 'committed',
            (err: unknown) => err,
          );
          // Until the batch's check waits on the other transaction's row.
          for (let i = 0; i < 500; i++) {
            const { rows } = await other.query<{ n: string }>(
              `SELECT count(*) AS n FROM pg_stat_activity
               WHERE wait_event_type = 'Lock' AND datname = current_database()`,
            );
            if (Number(rows[0]?.n) > 0) break;
            await new Promise((r) => setTimeout(r, 10));
          }
          await other.query('COMMIT');
          expect(await outcome).toMatchObject({ code: 'CONFLICT' });
          expect(await head()).toBe(before);
        } finally {
          await other.query('ROLLBACK').catch(() => undefined);
          await other.query(
            'DELETE FROM canon_versions WHERE project = $1 AND object_id = $2 AND version_id = $3 AND version_hash = $4',
            version,
          );
          await other.end();
        }
      },
    );

    it('a concurrent commit between preparing and appending: CONFLICT, nothing of the batch journaled', async () => {
      const p = `race${++n}`;
      await create(runtime, owner, `${p}.f`, { title: 'f', text: 'F holds.' });
      await create(runtime, owner, `${p}.g`, { title: 'g', text: 'G holds.' });
      const journal = runtime.journal;
      const original = journal.appendAll.bind(journal);
      /**
       * The next append to the project first lets `meanwhile` commit (through the real journal),
       * then runs (appends elsewhere — the kernel's audit — pass straight through).
       */
      const racing = (meanwhile: () => Promise<unknown>) => {
        let raced = false;
        return vi.spyOn(journal, 'appendAll').mockImplementation(async (...args) => {
          if (args[0] === PROJECT && !raced) {
            raced = true;
            await meanwhile();
          }
          return original(...args);
        });
      };

      // The batch's target moved.
      const batchOnF = [
        await updating(owner, `${p}.f`, { text: 'F no longer holds.' }),
        fact(`${p}.h`, 'H rests on F.', [`${p}.f`]),
      ];
      let spy = racing(() =>
        updating(owner, `${p}.f`, { text: 'F holds twice.' }).then((i) =>
          runtime.canon.propose(owner, i),
        ),
      );
      let before = 0;
      let err = await expectCode(
        (async () => {
          before = await head();
          return runtime.canon.proposeBatch(owner, batchOnF);
        })(),
        'CONFLICT',
      );
      spy.mockRestore();
      expect(err.details).toMatchObject({ index: 0, object_id: `${p}.f` });
      // Only the concurrent proposal and commit were journaled.
      expect(await head()).toBe(before + 2);
      expect(await runtime.canon.reader(PROJECT).object(`${p}.h`)).toBeNull();

      // The batch's target did not move, but a dependent appeared: the cascade its receipt lists
      // is no longer what the commit would record.
      const batchOnG = [await updating(owner, `${p}.g`, { text: 'G no longer holds.' })];
      spy = racing(() => runtime.canon.propose(owner, fact(`${p}.k`, 'K rests on G.', [`${p}.g`])));
      const state = await canonState(runtime);
      err = await expectCode(runtime.canon.proposeBatch(owner, batchOnG), 'CONFLICT');
      spy.mockRestore();
      expect(err.details).toMatchObject({ index: 0 });
      const after = await canonState(runtime);
      expect(after.head.seq).toBe(state.head.seq + 2);
      expect(after.objects.length).toBe(state.objects.length + 1);
      expect(await currentHash(runtime, `${p}.g`)).toBe(batchOnG[0]!.base_version);
    });

    it('rebuilding the project from the journal reproduces every table the batches wrote', async () => {
      const before = await canonTables(runtime.store);
      expect(before.canon_edges!.length).toBeGreaterThan(3);
      await rebuildProject(runtime.journal, PROJECT);
      expect(JSON.stringify(await canonTables(runtime.store))).toBe(JSON.stringify(before));
    });
  });
}
