import type { Role } from '../../api/types.js';

/** Who made a note current: a person's decision, or a model's proposal that no person approved. */
export interface Authority {
  readonly kind: 'decision' | 'proposal' | 'unknown';
  readonly proposer: { readonly id: string; readonly role: Role } | null;
  readonly approver: { readonly id: string; readonly role: Role } | null;
  readonly gate: string | null;
}

const ROLES: readonly string[] = ['owner', 'editor', 'agent', 'tool', 'viewer'];
const PEOPLE: readonly string[] = ['owner', 'editor'];

function actor(value: unknown): Authority['proposer'] {
  const v = value as { id?: unknown; role?: unknown } | null | undefined;
  if (typeof v?.id !== 'string' || typeof v.role !== 'string' || !ROLES.includes(v.role))
    return null;
  return { id: v.id, role: v.role as Role };
}

/**
 * Reads an object's `authority_basis` (the commit's proposer, approver and gate). A person proposed
 * it, or a person approved it: a decision. An agent or tool proposed it and the gate let it through
 * alone: a model proposal. The basis is the server's, but it is read here as untrusted JSON.
 */
export function authorityOf(basis: unknown): Authority {
  const b = (typeof basis === 'object' && basis !== null ? basis : {}) as Record<string, unknown>;
  const proposer = actor(b.proposer);
  const approver = actor(b.approver);
  const gate = typeof b.gate === 'string' ? b.gate : null;
  const byPerson = (a: Authority['proposer']) => a !== null && PEOPLE.includes(a.role);
  const kind =
    byPerson(proposer) || byPerson(approver) ? 'decision' : proposer ? 'proposal' : 'unknown';
  return { kind, proposer, approver, gate };
}
