import type { AgenticProtocol } from '../../src/kernel/protocol.js';

/** TCP/AP Appendix A, with the MANAGER_REVIEW condition completed (50 < amount <= 1000). */
export function refundProtocol(): AgenticProtocol {
  return {
    slug: 'issue_refund.guard',
    version: '1.0',
    constraints: {
      type: 'object',
      required: ['amount'],
      additionalProperties: false,
      properties: { amount: { type: 'number' } },
    },
    labels: ['AUTO_APPROVE', 'MANAGER_REVIEW', 'BLOCK'],
    rules: [
      { label: 'AUTO_APPROVE', condition: { '<=': [{ var: 'amount' }, 50] } },
      {
        label: 'MANAGER_REVIEW',
        condition: { and: [{ '>': [{ var: 'amount' }, 50] }, { '<=': [{ var: 'amount' }, 1000] }] },
      },
      { label: 'BLOCK', condition: true },
    ],
  };
}

/** A copy of a JSON value with every object's keys in reverse order. */
export function reverseKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(reverseKeys) as T;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).reverse();
    return Object.fromEntries(entries.map(([k, v]) => [k, reverseKeys(v)])) as T;
  }
  return value;
}
