import { describe, expect, it } from 'vitest';
import { goalFor, revisionGoal } from '../../src/relay/goal.js';
import { relayHeaders } from '../../src/relay/headers.js';
import { etcd } from './cso-fixtures.js';

describe('the window contract (§4.2, §6.2)', () => {
  it('populates each mode as the table says', () => {
    expect(goalFor('DOCUMENT', { remaining: ['3', '4'], window_number: 3, total: 4 })).toEqual({
      mode: 'DOCUMENT',
      objective: 'write section 3',
      remaining: ['3', '4'],
      success_test: 'section covers required sub-topics',
      completion: 0.5,
    });
    expect(goalFor('CONVERSATION', { remaining: ['q'], window_number: 4 })).toMatchObject({
      objective: "answer the user's turn",
      success_test: "user's intent addressed",
      completion: 0.75,
    });
    expect(goalFor('TOOL', { remaining: ['scratch_1'], window_number: 1 })).toMatchObject({
      objective: 'use tool result scratch_1 to advance task',
      success_test: 'result correctly incorporated',
      completion: 0,
    });
    expect(
      goalFor('AGENTIC', { remaining: [], window_number: 1, objective: 'ship it' }),
    ).toMatchObject({
      objective: 'ship it',
      success_test: 'sub-task verification passes',
      completion: 1,
    });
    expect(() =>
      goalFor('DOCUMENT', { remaining: ['a', 'b'], window_number: 1, total: 1 }),
    ).toThrow(/total/);
  });

  it('states a revision window as "revise decision X given new fact Y"', () => {
    expect(revisionGoal({ decision_id: 'B' }, { fact_id: 'f2.1' }, ['C', 'B'])).toEqual({
      mode: 'AGENTIC',
      objective: 'revise decision B given new fact f2.1',
      remaining: ['B', 'C'],
      success_test: 'a revised decision whose rationale holds given f2.1',
      completion: 0,
    });
  });
});

describe('the relay headers (§5.3, §6.4, §10)', () => {
  it('formats a complete relay and a repaired one', () => {
    const cso = etcd();
    expect(relayHeaders(cso, { preservation: 1, repaired: [] }, { count: 0 })).toEqual({
      'CRP-Relay-Preservation': '1.00',
      'CRP-Relay-CSO-Facts': '1',
      'CRP-Relay-CSO-Decisions': '2',
      'CRP-Relay-Dependency-Depth': '2',
      'CRP-Relay-Revisions': '0',
    });
    const repaired = relayHeaders(
      cso,
      { preservation: 47 / 50, repaired: ['a', 'b', 'c'] },
      { count: 1, target: 'decision_db_choice' },
    );
    expect(repaired['CRP-Relay-Preservation']).toBe('0.94; repaired=3');
    expect(repaired['CRP-Relay-Revision-Target']).toBe('decision_db_choice');
  });

  it('never shows 1.00 for a relay that dropped anything, and keeps 0.29 as 0.29', () => {
    const cso = etcd();
    const show = (p: number) =>
      relayHeaders(cso, { preservation: p, repaired: [] }, { count: 0 })['CRP-Relay-Preservation'];
    expect(show(999 / 1000)).toBe('0.99');
    expect(show(0.29)).toBe('0.29');
    expect(show(0)).toBe('0.00');
  });

  it('refuses a revision target that is not header-safe', () => {
    const v = { preservation: 1, repaired: [] };
    expect(() => relayHeaders(etcd(), v, { count: 1, target: 'x\r\nSet-Cookie: a' })).toThrow(
      /target/,
    );
    expect(() => relayHeaders(etcd(), v, { count: -1 })).toThrow(/count/);
  });
});
