// LCSM §2 effective windows at an injected clock, for each storage engine. Notes whose window is in
// the past, the future, the present, or starts or ends exactly now: only those in effect are current
// canon in a working set (the others are counted, never shown), a dependency out of effect is named
// instead of silently stood on, provenance says where each stands, and moving the clock moves them.
// Counts cover only what the reader may read: another principal's personal expired note is not in
// them. Bounds are RFC 3339 with an offset (or a plain date) and a window must not be empty.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  archiveMessage,
  Canon,
  effectiveState,
  proposalInput,
  provenance,
  workingSet,
} from '../../src/canon/index.js';
import {
  CANON_ENGINES,
  type EngineRuntime,
  expectCode,
  note,
  PROJECT,
  principals,
  section,
} from '../helpers/canon.js';

const { owner, editor } = principals();
const T0 = '2030-06-01T00:00:00.000Z';

describe('effectiveState: the window is [effective_from, effective_until)', () => {
  const at = new Date(T0);
  const cases: [string | null, string | null, string][] = [
    [null, null, 'in_effect'],
    [null, '2030-01-01', 'expired'],
    [null, T0, 'expired'],
    [null, '2030-06-01T00:00:00.001Z', 'in_effect'],
    ['2030-06-01T02:00:00+02:00', null, 'in_effect'],
    ['2030-06-01T00:00:00.001Z', null, 'not_yet_effective'],
    ['2030-01-01', '2031-01-01', 'in_effect'],
    ['2031-01-01', '2032-01-01', 'not_yet_effective'],
  ];
  for (const [from, until, state] of cases) {
    it(`[${from}, ${until}) at ${T0} is ${state}`, () => {
      expect(effectiveState({ effective_from: from, effective_until: until }, at)).toBe(state);
    });
  }
});

describe('effective bounds are checked as hostile input', () => {
  const base = { object_id: 'n.x', intent: 'create', base_version: null };
  const candidate = (window: Record<string, unknown>) => ({
    ...base,
    candidate: { object_type: 'fact', title: 't', text: 'x', ...window },
  });
  const refused: Record<string, unknown>[] = [
    { effective_from: 'yesterday' },
    { effective_from: '2026-02-30' },
    { effective_until: '2026-01-01T00:00' },
    { effective_until: '2026-01-01T00:00:00' },
    { effective_until: '2026-01-01T24:00:00Z' },
    { effective_from: 20260101 },
    { effective_from: '2026-01-01', effective_until: '2026-01-01' },
    { effective_from: '2027-01-01', effective_until: '2026-01-01T00:00:00Z' },
  ];
  for (const window of refused) {
    it(`refuses ${JSON.stringify(window)} with INVALID_PROPOSAL`, () => {
      expect(() => proposalInput(candidate(window))).toThrow(
        expect.objectContaining({ code: 'INVALID_PROPOSAL' }),
      );
    });
  }
  it('takes dates and date-times with an offset, as written', () => {
    const ok = proposalInput(
      candidate({ effective_from: '2026-01-01', effective_until: '2026-01-01T10:00:00.5+05:30' }),
    );
    expect(ok.candidate).toMatchObject({
      effective_from: '2026-01-01',
      effective_until: '2026-01-01T10:00:00.5+05:30',
    });
  });
});

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`LCSM §2 effective windows on ${engine.name}`, () => {
    let env: EngineRuntime;
    let clock = new Date(T0);
    let canon: Canon;
    const made = (id: string, window: Partial<Record<'from' | 'until', string>>, more = {}) =>
      canon.propose(owner, {
        object_id: id,
        intent: 'create',
        base_version: null,
        candidate: note({
          title: id,
          text: `Text of ${id}.`,
          effective_from: window.from ?? null,
          effective_until: window.until ?? null,
          ...more,
        }),
      });

    beforeAll(async () => {
      env = await engine.open();
      const { journal, kernel } = env.runtime;
      canon = new Canon({ journal, kernel, gate: env.runtime.canon.gate, now: () => clock });
      await made('n.past', { until: '2030-01-01' });
      await made('n.until-now', { until: T0 });
      await made('n.future', { from: '2031-01-01' });
      await made('n.from-now', { from: '2030-06-01T02:00:00+02:00' });
      await made('n.present', { from: '2030-01-01', until: '2031-01-01' });
      await made('n.open', {}, { dependency_refs: ['n.past', 'n.present'] });
      // Another principal's personal note out of effect: in no count but its holder's.
      await canon.propose(editor, {
        object_id: 'eddie.lapsed',
        intent: 'create',
        base_version: null,
        candidate: note({ visibility: 'personal', effective_until: '2030-01-01' }),
      });
    }, 60_000);
    afterAll(() => env?.close());

    it("stamps what it writes with canon's clock", async () => {
      const message = await archiveMessage(canon, owner, { text: 'Noted.' });
      expect(message.captured_at).toBe(T0);
      expect((await canon.reader(PROJECT).current('n.open'))?.timestamp).toBe(T0);
    });

    it('a working set holds only what is in effect, and counts what it left out', async () => {
      const set = await workingSet(canon, owner, {});
      expect(set.notes.map((n) => n.object_id).sort()).toEqual([
        'n.from-now',
        'n.open',
        'n.present',
      ]);
      expect([set.expired, set.not_yet_effective, set.excluded]).toEqual([2, 1, 0]);
      for (const id of ['n.past', 'n.until-now', 'n.future']) {
        expect(set.capsule).not.toContain(`Text of ${id}.`);
      }
      expect(set.lapsed_dependencies).toEqual([
        { object_id: 'n.open', depends_on: 'n.past', effective: 'expired', since: '2030-01-01' },
      ]);
      expect(section(set.capsule, 'Dependencies out of effect (not current canon)')).toBe(
        '## Dependencies out of effect (not current canon)\n- n.open depends on n.past: expired 2030-01-01',
      );
      const focused = await workingSet(canon, owner, { object_id: 'n.open' });
      // The object, and of its dependencies only the one in effect; the other is named as lapsed.
      expect(focused.notes.map((n) => n.object_id)).toEqual(['n.open', 'n.present']);
      expect(focused.lapsed_dependencies.map((l) => l.depends_on)).toEqual(['n.past']);
      expect(focused.capsule).not.toContain('Text of n.past.');
    });

    it('counts cover only what the reader may read', async () => {
      expect((await workingSet(canon, editor, {})).expired).toBe(3);
      expect((await workingSet(canon, owner, {})).expired).toBe(2);
    });

    it('an object out of effect is not a working set of its own, and provenance says where each stands', async () => {
      const err = await expectCode(
        workingSet(canon, owner, { object_id: 'n.past' }),
        'UNKNOWN_OBJECT',
      );
      expect(err.details).toEqual({ effective: 'expired' });
      expect((await provenance(canon, owner, 'n.past')).effective).toBe('expired');
      expect((await provenance(canon, owner, 'n.future')).effective).toBe('not_yet_effective');
      const open = await provenance(canon, owner, 'n.open');
      expect(open.effective).toBe('in_effect');
      expect(open.depends_on).toEqual([
        { object_id: 'n.past', status: 'active', effective: 'expired' },
        { object_id: 'n.present', status: 'active', effective: 'in_effect' },
      ]);
    });

    it('moving the clock moves the window: what was present expires, what was future takes effect', async () => {
      clock = new Date('2031-06-01T00:00:00Z');
      try {
        const set = await workingSet(canon, owner, {});
        expect(set.notes.map((n) => n.object_id).sort()).toEqual([
          'n.from-now',
          'n.future',
          'n.open',
        ]);
        expect([set.expired, set.not_yet_effective]).toEqual([3, 0]);
        expect(set.lapsed_dependencies.map((l) => [l.depends_on, l.since])).toEqual([
          ['n.past', '2030-01-01'],
          ['n.present', '2031-01-01'],
        ]);
        // Back before everything: only the open notes and nothing expired.
        clock = new Date('2029-01-01T00:00:00Z');
        const early = await workingSet(canon, owner, {});
        expect(early.notes.map((n) => n.object_id).sort()).toEqual([
          'n.open',
          'n.past',
          'n.until-now',
        ]);
        expect([early.expired, early.not_yet_effective]).toEqual([0, 3]);
        expect(early.lapsed_dependencies).toEqual([
          {
            object_id: 'n.open',
            depends_on: 'n.present',
            effective: 'not_yet_effective',
            since: '2030-01-01',
          },
        ]);
      } finally {
        clock = new Date(T0);
      }
    });
  });
}
