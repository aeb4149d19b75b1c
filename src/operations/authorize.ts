import { KERNEL_AUDIT_PROJECT, REGISTRY_PROJECT } from '../app/index.js';
import type { AuthPrincipal, TokenRole, TokenStore } from '../auth/index.js';
import type { Principal } from '../canon/index.js';
import { CanonryError } from '../core/index.js';
import { EVOLUTION_SYSTEM_PROJECT } from '../evolution/index.js';
import type { Operation } from './operation.js';

/**
 * Roles from most to least powerful; a lower rank may do everything a higher rank may. A tool reaches
 * the routes an agent reaches; canon itself holds its proposals to the tool's own rules.
 */
const RANK: Readonly<Record<TokenRole, number>> = {
  owner: 0,
  editor: 1,
  agent: 2,
  tool: 2,
  viewer: 3,
};

/** True when `role` is at least `min` (owner ≥ editor ≥ agent = tool ≥ viewer). */
export function roleAtLeast(role: TokenRole, min: TokenRole): boolean {
  return RANK[role] <= RANK[min];
}

/** The bearer token of an `Authorization` header, or null when it is missing or not `Bearer <token>`. */
export function bearerToken(header: unknown): string | null {
  if (typeof header !== 'string' || header.length > 512) return null;
  const match = /^Bearer ([!-~]+)$/i.exec(header.trim());
  return match ? match[1]! : null;
}

/**
 * Authenticates a bearer token and authorizes it for one project at a minimum role. Missing,
 * malformed, unknown or revoked tokens are UNAUTHENTICATED; a token of another project (whether or
 * not that project exists) or a role below `minRole` is FORBIDDEN. Messages never echo the token.
 */
export async function authorizeToken(
  tokens: TokenStore,
  token: string | null | undefined,
  project: string | undefined,
  minRole: TokenRole,
): Promise<AuthPrincipal> {
  const principal = token ? await tokens.authenticate(token) : null;
  if (!principal) throw new CanonryError('UNAUTHENTICATED', 'a valid bearer token is required');
  if (project !== undefined && principal.project !== project) {
    throw new CanonryError('FORBIDDEN', 'the token is not valid for this project');
  }
  if (!roleAtLeast(principal.role, minRole)) {
    throw new CanonryError('FORBIDDEN', `this needs the ${minRole} role or above`, {
      required_role: minRole,
    });
  }
  return principal;
}

/** The principal canon acts for: id, project and role from the token, nothing else. */
export function canonPrincipal(principal: AuthPrincipal): Principal {
  return { id: principal.id, project: principal.project, role: principal.role };
}

/**
 * Canon never runs in the projects the kernel keeps for itself — its audit records (`kernel`) and the
 * system's protocol registrations (`registry`): a token for them may read those journals, but canon
 * entries must not be mixed into them.
 */
export function refuseReservedProject(project: string): void {
  if (project === KERNEL_AUDIT_PROJECT || project === REGISTRY_PROJECT) {
    throw new CanonryError(
      'FORBIDDEN',
      `${project} is reserved for the kernel's own journal; canon does not run there`,
    );
  }
}

/**
 * What runs in the project evolution stores the kernel's verdict events in: its evolution events and
 * promotions, its tokens and the kernel's own operations — not canon or the relay, whose commits
 * would become events of that system project as if they were the kernel's.
 */
const EVOLUTION_PROJECT_TAGS: ReadonlySet<string> = new Set(['evolution', 'tokens', 'tcp-ap']);

/** {@link refuseReservedProject}, and canon and the relay refused in the evolution system project. */
export function refuseReservedOperation(project: string, op: Operation): void {
  refuseReservedProject(project);
  if (project === EVOLUTION_SYSTEM_PROJECT && !EVOLUTION_PROJECT_TAGS.has(op.tag)) {
    throw new CanonryError(
      'FORBIDDEN',
      `${project} holds the evolution events of the kernel's verdicts; ${op.operationId} (${op.tag}) does not run there`,
    );
  }
}
