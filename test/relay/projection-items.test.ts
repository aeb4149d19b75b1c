import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalize } from '../../src/core/index.js';
import { applyChange, compareEdges, csoChange } from '../../src/relay/cso-change.js';
import { RELAY_MIGRATIONS } from '../../src/relay/index.js';
import { type ItemList, liveItems, versionsOf } from '../../src/relay/item-rows.js';
import { EARLIER_CHANGES_SQL, RelayReader } from '../../src/relay/reader.js';
import type {
  CognitiveStateObject,
  Decision,
  DependencyEdge,
  EstablishedFact,
} from '../../src/relay/types.js';
import { migrate, type Store } from '../../src/store/index.js';
import { rng } from '../helpers/rng.js';
import { ENGINES } from '../helpers/stores.js';
import { decision, etcd, fact } from './cso-fixtures.js';

const row = (
  window_from: number,
  list: ItemList,
  item_id: string,
  position: number,
  v: string,
) => ({
  window_from,
  list,
  item_id,
  position,
  record: v,
});
const removal = (window_to: number, list: ItemList, item_id: string) => ({
  window_to,
  list,
  item_id,
});
const records = (items: ReturnType<typeof liveItems<string>>) => items.map((i) => i.record);

describe("which item versions make a window's state (what the windows' changes put and removed)", () => {
  // A session's item versions, as windows 1-4 put them; the expectations are the lists those
  // windows meant, written out by hand.
  const rows = [
    row(1, 'fact', 'a', 1_000, 'a1'),
    row(1, 'fact', 'b', 1_001, 'b1'),
    row(1, 'fact', 'c', 1_002, 'c1'),
    // Window 2 replaces a (it keeps its place), removes b, puts d.
    row(2, 'fact', 'a', 2_000, 'a2'),
    row(2, 'fact', 'd', 2_001, 'd2'),
    // Window 3 puts b again (after its removal: it goes where it is put now) and removes c and
    // puts it again in the same window (a new run: it goes last too).
    row(3, 'fact', 'b', 3_000, 'b3'),
    row(3, 'fact', 'c', 3_001, 'c3'),
    // Window 4 replaces b (its new place of window 3 holds) and removes d.
    row(4, 'fact', 'b', 4_000, 'b4'),
  ];
  const removals = [
    removal(2, 'fact', 'b'),
    removal(3, 'fact', 'c'),
    removal(4, 'fact', 'd'),
    // Another list's item of the same id is not this one.
    removal(2, 'decision', 'a'),
  ];
  const upTo = (n: number) =>
    liveItems(
      rows.filter((r) => r.window_from <= n),
      removals.filter((r) => r.window_to <= n),
      n,
    );

  it('replaced items keep their place; removed ones leave; put again, they go where they are put', () => {
    expect(records(upTo(1))).toEqual(['a1', 'b1', 'c1']);
    expect(records(upTo(2))).toEqual(['a2', 'c1', 'd2']);
    expect(records(upTo(3))).toEqual(['a2', 'd2', 'b3', 'c3']);
    expect(records(upTo(4))).toEqual(['a2', 'b4', 'c3']);
  });

  it('a removal after the window read is not applied to it', () => {
    const three = rows.filter((r) => r.window_from <= 3);
    // d is removed at window 4: as of window 3 it is still there.
    expect(records(liveItems(three, removals, 3))).toEqual(records(upTo(3)));
    expect(records(liveItems(three, removals, 3))).toContain('d2');
  });

  it("gives each window's puts their places from its changes: one put back after its removal goes last", () => {
    const header = etcd(1);
    const state = (n: number, facts: EstablishedFact[], decisions: Decision[] = []) => ({
      ...header,
      cso_id: `cso-${n}`,
      window_number: n,
      established_facts: facts,
      decisions,
      dependency_graph: [],
    });
    const [a, b, c] = ['a', 'b', 'c'].map((id) => fact(id, `fact ${id}`));
    const [x, y] = ['x', 'y'].map((id) => decision(id, `choice ${id}`, []));
    const states = [
      state(1, [a!, b!, c!], [x!, y!]),
      state(2, [a!, c!], [y!]),
      // b and x come back: put again after their removal, they go after everything before.
      state(
        3,
        [a!, c!, { ...b!, statement: 'fact b, again' }],
        [y!, { ...x!, rationale: 'again' }],
      ),
    ];
    const changes = states.map((s, i) => ({
      window_number: i + 1,
      state: csoChange(i === 0 ? null : states[i - 1]!, s),
    }));
    expect(changes.map((ch) => ch.state.base)).toEqual(['empty', 'prior', 'prior']);
    const ids = (n: number, list: ItemList) => {
      const { versions, removals } = versionsOf(changes.slice(0, n));
      return liveItems(versions, removals, n)
        .filter((item) => item.list === list)
        .map((item) =>
          list === 'fact'
            ? (item.record as EstablishedFact).fact_id
            : (item.record as Decision).decision_id,
        );
    };
    expect(ids(3, 'fact')).toEqual(['a', 'c', 'b']);
    expect(ids(3, 'decision')).toEqual(['y', 'x']);
    expect(ids(2, 'fact')).toEqual(['a', 'c']);
    expect(ids(2, 'decision')).toEqual(['y']);
  });

  it('refuses versions out of window order', () => {
    expect(() => liveItems([rows[3]!, rows[0]!], [], 2)).toThrow(/window order/);
  });
});

/** One random step of a list: removals, replacements, insertions, moves, ids put back. */
function stepList<T>(
  r: ReturnType<typeof rng>,
  list: readonly T[],
  gone: T[],
  make: (k: number) => T,
  replace: (item: T) => T,
): T[] {
  const out = [...list];
  for (let k = r.int(0, 4); k > 0; k--) {
    const op = r.int(0, 9);
    const i = r.int(0, Math.max(0, out.length - 1));
    if (op <= 1 && out.length > 0) gone.push(...out.splice(i, 1));
    else if (op <= 3 && out.length > 0) out.splice(i, 1, replace(out[i]!));
    else if (op === 4 && out.length > 1) {
      const [moved] = out.splice(i, 1);
      out.splice(r.int(0, out.length), 0, moved!);
    } else if (op === 5 && gone.length > 0) out.push(replace(gone.splice(0, 1)[0]!));
    else if (op === 6 && out.length > 0) {
      // Removed and put again in the same window: the same id, a new version, last.
      const [again] = out.splice(i, 1);
      out.push(replace(again!));
    } else out.push(make(k));
  }
  return out;
}

describe.each(ENGINES.filter((e) => e.available))(
  "a session's window records read back as every window's state on $name",
  (engine) => {
    let store: Store;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      const fresh = await engine.fresh();
      store = fresh.store;
      cleanup = fresh.cleanup;
      await migrate(store, { relay: RELAY_MIGRATIONS });
    });
    afterAll(async () => {
      await store.close();
      await cleanup();
    });

    it('the window records, read by the projection reader, give the states the journal changes fold to', async () => {
      const r = rng(11);
      const header = etcd(1);
      const reader = new RelayReader(store, 'p');
      const states: CognitiveStateObject[] = [];
      const changes: ReturnType<typeof csoChange>[] = [];
      let prior: CognitiveStateObject | null = null;
      const goneFacts: EstablishedFact[] = [];
      const goneDecisions: Decision[] = [];
      let fresh = 0;
      const bases = { prior: 0, empty: 0 };
      for (let n = 1; n <= 40; n++) {
        const facts = stepList(
          r,
          prior?.established_facts ?? [],
          goneFacts,
          (k) => fact(`f${n}-${k}-${fresh++}`, `fact ${n}.${k}`),
          (f) => ({ ...f, statement: `${f.statement}, again in ${n}` }),
        );
        const decisions = stepList(
          r,
          prior?.decisions ?? [],
          goneDecisions,
          (k) => decision(`d${n}-${k}-${fresh++}`, `choice ${n}.${k}`, []),
          (d) => ({ ...d, rationale: `${d.rationale}, again in ${n}` }),
        );
        // A graph over the ids in the state: some edges kept, some dropped, some new.
        const ids = [...facts.map((f) => f.fact_id)];
        const kept = (prior?.dependency_graph ?? []).filter(
          (e) =>
            ids.includes(e.depends_on) &&
            decisions.some((d) => d.decision_id === e.dependent) &&
            !r.chance(0.2),
        );
        const added: DependencyEdge[] = [];
        for (const d of decisions) {
          if (ids.length > 0 && r.chance(0.3)) {
            added.push({ dependent: d.decision_id, depends_on: ids[r.int(0, ids.length - 1)]! });
          }
        }
        const seen = new Set<string>();
        const graph = [...kept, ...added]
          .filter((e) => {
            const key = canonicalize([e.dependent, e.depends_on]);
            if (seen.has(key)) return false;
            seen.add(key);
            return true;
          })
          .sort(compareEdges);
        const next: CognitiveStateObject = {
          ...header,
          cso_id: `cso-${n}`,
          window_number: n,
          established_facts: facts,
          decisions,
          dependency_graph: graph,
        };
        const change = csoChange(prior, next);
        bases[change.base]++;
        // What the projection writes for the window: its row, with its base, and its record (the
        // window as journaled: its CSO as this change).
        await store.run(
          `INSERT INTO relay_windows (project, session_id, window_number, seq, base, record)
           VALUES ('p', 's', $1, $1, $2, $3)`,
          [n, change.base, canonicalize({ session_id: 's', window_number: n, state: change })],
        );
        const fold = applyChange(prior, JSON.parse(canonicalize(change)));
        expect(canonicalize(fold)).toBe(canonicalize(next));
        const served = await reader.cso({
          session_id: 's',
          window_number: n,
          state: change,
        } as never);
        expect(canonicalize(served), `window ${n}`).toBe(canonicalize(next));
        states.push(next);
        changes.push(change);
        prior = next;
      }
      // Every window read again once all were written: later rows do not reach back.
      for (const [i, state] of states.entries()) {
        const served = await reader.cso({
          session_id: 's',
          window_number: i + 1,
          state: changes[i],
        } as never);
        expect(canonicalize(served), `window ${i + 1} read last`).toBe(canonicalize(state));
      }
      if (engine.name === 'sqlite') {
        // A read is one range of the window rows' key index (the session's windows since the last
        // full put, up to n) and one for where that put is: no scan, no sort.
        const plan = (
          await store.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${EARLIER_CHANGES_SQL}`, [
            'p',
            's',
            20,
          ])
        ).map((p) => p.detail);
        expect(plan.join(' | ')).toMatch(
          /SEARCH relay_windows USING INDEX sqlite_autoindex_relay_windows_1 \(project=\? AND session_id=\? AND window_number>\? AND window_number<\?\)/,
        );
        expect(plan.join(' | ')).not.toMatch(/SCAN|TEMP B-TREE/);
      }
      // Both kinds of window were exercised, and the lists moved in every way.
      expect(bases.prior).toBeGreaterThan(10);
      expect(bases.empty).toBeGreaterThan(1);
    });
  },
);
