import { describe, expect, it } from 'vitest';
import type { CanonryError, ContentHash } from '../../src/core/index.js';
import { Switchboard, validateSwitchboard } from '../../src/kernel/index.js';
import { readRepoJson } from '../helpers/runtime.js';

const spec = () =>
  structuredClone(readRepoJson('examples/refund/switchboard.json')) as Record<string, any>;
const GUARD = spec().objectives.extract_refund.protocol as ContentHash;
const FULFIL = spec().objectives.issue_refund.protocol as ContentHash;
const labelsOf = (hash: ContentHash) =>
  hash === GUARD
    ? ['AUTO_APPROVE', 'MANAGER_REVIEW', 'BLOCK']
    : hash === FULFIL
      ? ['ISSUED']
      : undefined;

function issuesOf(input: unknown): string[] {
  const r = validateSwitchboard(input, labelsOf);
  return r.ok ? [] : r.issues.map((i) => i.path);
}

describe('switchboard', () => {
  it('routes mapped rows and sends everything unmapped to the safe terminal', () => {
    const board = Switchboard.from(spec(), labelsOf);
    expect(board.route('extract_refund', 'CONFORMANT', 'AUTO_APPROVE')).toEqual({
      next: 'issue_refund',
      mapped: true,
      terminal: false,
    });
    expect(board.route('extract_refund', 'CONFORMANT', 'BLOCK').next).toBe('BLOCKED');
    for (const status of ['INVALID_REQUEST', 'INTERPRETATION_DRIFT', 'ERROR'] as const) {
      expect(board.route('extract_refund', status, null)).toEqual({
        next: 'HUMAN_REVIEW',
        mapped: false,
        terminal: true,
      });
    }
    expect(board.route('extract_refund', 'CONFORMANT', 'NOT_A_LABEL').next).toBe('HUMAN_REVIEW');
    expect(board.route('nobody', 'CONFORMANT', 'ISSUED').next).toBe('HUMAN_REVIEW');
    expect(board.route('constructor', 'CONFORMANT', null).next).toBe('HUMAN_REVIEW');
  });

  it('is total: every (objective, status, label) routes somewhere, only conformant rows to objectives', () => {
    const board = Switchboard.from(spec(), labelsOf);
    for (const objective of ['extract_refund', 'issue_refund']) {
      for (const status of [
        'CONFORMANT',
        'INVALID_REQUEST',
        'INTERPRETATION_DRIFT',
        'ERROR',
      ] as const) {
        for (const label of [null, 'AUTO_APPROVE', 'MANAGER_REVIEW', 'BLOCK', 'ISSUED', 'X']) {
          const { next, terminal } = board.route(objective, status, label);
          expect(typeof next).toBe('string');
          if (status !== 'CONFORMANT') expect(terminal).toBe(true);
        }
      }
    }
  });

  it('refuses routing tables that are not safe, naming the place', () => {
    const withRoute = (route: Record<string, unknown>) => ({
      ...spec(),
      routes: [...spec().routes, route],
    });
    expect(
      issuesOf(
        withRoute({ objective: 'extract_refund', status: 'INVALID_REQUEST', next: 'issue_refund' }),
      ),
    ).toContain('/routes/4/next');
    expect(
      issuesOf(
        withRoute({
          objective: 'extract_refund',
          status: 'CONFORMANT',
          label: 'BLOCK',
          next: 'BLOCKED',
        }),
      ),
    ).toContain('/routes/4');
    expect(
      issuesOf(
        withRoute({
          objective: 'extract_refund',
          status: 'CONFORMANT',
          label: 'REFUND_ALL',
          next: 'BLOCKED',
        }),
      ),
    ).toContain('/routes/4/label');
    expect(
      issuesOf(withRoute({ objective: 'extract_refund', status: 'MAYBE', next: 'BLOCKED' })),
    ).toContain('/routes/4/status');
    expect(
      issuesOf(
        withRoute({
          objective: 'extract_refund',
          status: 'ERROR',
          label: 'BLOCK',
          next: 'BLOCKED',
        }),
      ),
    ).toContain('/routes/4/label');
    expect(
      issuesOf(withRoute({ objective: 'extract_refund', status: 'ERROR', next: 'nowhere' })),
    ).toContain('/routes/4/next');
    expect(issuesOf({ ...spec(), safe_terminal: 'issue_refund' })).toContain('/safe_terminal');
    expect(issuesOf({ ...spec(), start: 'REFUNDED' })).toContain('/start');
    expect(issuesOf({ ...spec(), terminals: [...spec().terminals, 'issue_refund'] })).toContain(
      '/terminals',
    );
    expect(issuesOf({ ...spec(), extra: true })).toContain('/extra');
    expect(
      issuesOf({ ...spec(), objectives: { ...spec().objectives, orphan: { protocol: GUARD } } }),
    ).toContain('/objectives/orphan');
    expect(
      issuesOf({
        ...spec(),
        objectives: { ...spec().objectives, x: { protocol: `sha256:${'1'.repeat(64)}` } },
      }),
    ).toContain('/objectives/x/protocol');
    expect(issuesOf(null)).toEqual(['']);
  });

  it('throws INVALID_SWITCHBOARD with every issue', () => {
    try {
      Switchboard.from({ ...spec(), start: 'nowhere', safe_terminal: 'nowhere' }, labelsOf);
      expect.unreachable();
    } catch (err) {
      expect((err as CanonryError).code).toBe('INVALID_SWITCHBOARD');
      expect((err as CanonryError).details?.issues).toHaveLength(2);
    }
  });
});
