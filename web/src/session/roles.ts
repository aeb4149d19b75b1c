import type { Me, Principal, Role } from '../api/types.js';

/** Roles from most to least powerful, as the server ranks them (an agent and a tool rank alike). */
const RANK: Readonly<Record<Role, number>> = { owner: 0, editor: 1, agent: 2, tool: 2, viewer: 3 };

/** True when `role` is at least `min`. */
export const atLeast = (role: Role, min: Role): boolean => RANK[role] <= RANK[min];

/**
 * Whether the signed-in principal may approve a proposal the gate asked `required` for. Approval is
 * a person's act: editors and owners only (an agent or tool token never), and at least the role the
 * gate asked for. The server decides again; this only keeps controls it would refuse off the page.
 */
export function mayApprove(me: Me, required: Role | null | undefined): boolean {
  if (me.role !== 'owner' && me.role !== 'editor') return false;
  return atLeast(me.role, required ?? 'editor');
}

/** Editors and owners may reject a pending proposal; its proposer may withdraw it. */
export function mayReject(me: Me, proposer: Principal | undefined): boolean {
  if (me.role === 'owner' || me.role === 'editor') return true;
  return me.role !== 'viewer' && proposer?.id === me.principal;
}
