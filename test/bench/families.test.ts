import { describe, expect, it } from 'vitest';
import { cascadeAnswer } from '../../bench/canon/lib/families/baselines.js';
import { dependentsOf, type Node, needsRevision } from '../../bench/canon/lib/families/cascade.js';
import { generateFamilies } from '../../bench/canon/lib/families/plan.js';

/** A hand-made graph: a → b, a → c, d on b and c (a diamond), e on the calm fact u. */
function diamond(): Map<string, Node> {
  const node = (id: string, parents: string[]): Node => ({
    id,
    title: id,
    type: parents.length ? 'decision' : 'fact',
    level: 0,
    affected: true,
    parents,
    version: 1,
    value: '',
    base: new Map(parents.map((p) => [p, 1])),
  });
  return new Map(
    [
      node('a', []),
      node('u', []),
      node('b', ['a']),
      node('c', ['a']),
      node('d', ['b', 'c']),
      node('e', ['u']),
    ].map((n) => [n.id, n]),
  );
}

describe('bench/canon families: ground truth', () => {
  it('flags every transitive dependent of a moved fact, through a diamond, and nothing else', () => {
    const g = diamond();
    expect(dependentsOf(g, 'a')).toEqual(
      new Map([
        ['b', 1],
        ['c', 1],
        ['d', 2],
      ]),
    );
    g.get('a')!.version = 2;
    expect(needsRevision(g)).toEqual(
      new Map([
        ['b', 1],
        ['c', 1],
        ['d', 2],
      ]),
    );
  });

  it('clears a dependent revised against the new version, not what rests on it', () => {
    const g = diamond();
    g.get('a')!.version = 2;
    const b = g.get('b')!;
    b.version = 2;
    b.base = new Map([['a', 2]]);
    const flagged = needsRevision(g);
    expect(flagged.has('b')).toBe(false);
    expect(flagged.get('c')).toBe(1);
    // d was made against b v1: b moved, so d is one step from a moved dependency.
    expect(flagged.get('d')).toBe(1);
    expect(flagged.has('e')).toBe(false);
  });

  it('writes the same scenarios from the same seed', () => {
    expect(JSON.stringify(generateFamilies())).toBe(JSON.stringify(generateFamilies()));
  });

  it('writes cascades of every depth 1–5 whose truth is consistent with their events', () => {
    const cascades = generateFamilies().filter((s) => s.family === 'cascade');
    const deepest = new Set(
      cascades.map((s) => Math.max(...s.truth.receipt.map((x: { depth: number }) => x.depth))),
    );
    expect([...deepest].sort()).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(cascades.map((s) => s.truth.move))).toEqual(
      new Set(['update', 'restore', 'supersede', 'dispute']),
    );
    expect(cascades.filter((s) => s.truth.max_depth >= 2).every((s) => s.truth.diamonds > 0)).toBe(
      true,
    );
    for (const s of cascades) {
      const atMove = new Set(s.truth.receipt.map((x: { id: string }) => x.id));
      const flagged = s.truth.needs_revision.map((x: { id: string }) => x.id);
      const calm = new Set(s.truth.unaffected.map((x: { id: string }) => x.id));
      // Everything that needs revision was a dependent of the fact when it moved; nothing is both.
      expect(flagged.every((id: string) => atMove.has(id) && !calm.has(id))).toBe(true);
      expect(calm.size).toBeGreaterThan(2); // both facts and at least one calm dependent
      const move = s.events.find((e) => e.id === s.truth.move_event);
      // The move is the kind the scenario names, on the fact everything rests on.
      const seen = {
        update: { kind: move?.kind, intent: move?.intent, on: move?.object_id },
        restore: { kind: move?.kind, version: move?.version, on: move?.object_id },
        supersede: { kind: move?.kind, intent: move?.intent, on: move?.supersedes },
        dispute: { kind: move?.kind, on: move?.object_id },
      }[s.truth.move as 'update' | 'restore' | 'supersede' | 'dispute'];
      expect(seen).toEqual(
        {
          update: { kind: 'note', intent: 'update', on: s.truth.root },
          restore: { kind: 'restore', version: 1, on: s.truth.root },
          supersede: { kind: 'note', intent: 'supersede', on: [s.truth.root] },
          dispute: { kind: 'dispute', on: s.truth.root },
        }[s.truth.move as 'update' | 'restore' | 'supersede' | 'dispute'],
      );
      // Every dependent's statement names what it rests on (the text a reader has to go on).
      for (const e of s.events) {
        for (const dep of e.depends_on ?? []) expect(e.text).toContain(dep.replaceAll('-', ' '));
      }
    }
  });

  it('expects a hedged source to be flagged and a firm one not, from the wording alone', () => {
    const hedged = generateFamilies().filter((s) => s.family === 'hedged');
    for (const s of hedged) {
      const source = s.events.find((e) => e.id === s.truth.source);
      expect(s.truth.hedged).toBe(!/^We decided/.test(source?.text ?? ''));
    }
  });
});

describe('bench/canon families: the transcript reader', () => {
  const unit = (id: string, text: string) => ({
    id,
    project: 'p',
    actor: 'olivia',
    speaker: 'user',
    text,
  });
  const all = [
    { id: 'storage-engine', title: 'storage engine' },
    { id: 'replica-count', title: 'replica count' },
    { id: 'failover-plan', title: 'failover plan' },
    { id: 'runbook', title: 'runbook' },
  ];
  const asked = ['replica-count', 'failover-plan', 'runbook'];

  it('chases references to any depth and leaves a revised item alone', () => {
    const units = [
      unit('e1', 'Fact — storage engine: Cedar-2. Confirmed this week.'),
      unit('e2', 'Decision — replica count: Amber-3. This rests on the storage engine.'),
      unit('e3', 'Decision — failover plan: Delta-5. This rests on the replica count.'),
      unit('e4', 'Built the runbook from the failover plan.'),
      unit('e5', 'Correction — storage engine: Fjord-7 from now on, not Cedar-2.'),
    ];
    const ctx = { text: '', units };
    expect(cascadeAnswer(ctx, all, asked)).toEqual(
      new Set(['replica-count', 'failover-plan', 'runbook']),
    );
    const revised = [
      ...units,
      unit('e6', 'Revised — replica count: Kestrel-2. Re-checked against the storage engine.'),
    ];
    expect(cascadeAnswer({ text: '', units: revised }, all, asked)).toEqual(
      new Set(['failover-plan', 'runbook']),
    );
  });

  it('reads a restore, a dispute and a successor as the fact moving', () => {
    const base = [
      unit('e1', 'Fact — storage engine: Cedar-2. Confirmed this week.'),
      unit('e2', 'Decision — replica count: Amber-3. This rests on the storage engine.'),
    ];
    for (const line of [
      'Restored — storage engine: Cedar-2 again, as it was first stated.',
      'I dispute the storage engine: it should be Fjord-7, because legal reviewed it on Monday.',
      'Fact — region quota: Fjord-7. It replaces the storage engine.',
    ]) {
      const ctx = { text: '', units: [...base, unit('e3', line)] };
      expect(cascadeAnswer(ctx, all, asked)).toEqual(new Set(['replica-count']));
    }
  });

  it('cannot flag an item whose statement it does not hold', () => {
    // The summary kept the correction but not the statements resting on the fact.
    const units = [unit('e5', 'Correction — storage engine: Fjord-7 from now on, not Cedar-2.')];
    expect(cascadeAnswer({ text: '', units }, all, asked).size).toBe(0);
    // A statement cut to its first sentence no longer names what it rests on.
    const cut = [unit('e2', 'Decision — replica count: Amber-3.'), ...units];
    expect(cascadeAnswer({ text: '', units: cut }, all, asked).size).toBe(0);
  });
});
