import type { CanonryRuntime } from '../app/index.js';
import type { AuthPrincipal } from '../auth/index.js';
import type { Principal } from '../canon/index.js';
import { CanonryError } from '../core/index.js';
import {
  authorizeToken,
  canonPrincipal,
  refuseReservedOperation,
  roleAtLeast,
} from './authorize.js';
import { checkBody } from './check-body.js';
import { noBody, onlyQuery } from './input.js';
import type { Invoker, Operation, OperationInput } from './operation.js';

/**
 * Runs one operation as an authenticated principal, after the checks every face shares: canon never
 * runs in the kernel's reserved projects (nor canon and the relay in evolution's) nor over a
 * quarantined chain (its projections could be forged), the query holds only the operation's
 * parameters, and the body its schema.
 */
export async function runOperation(
  runtime: CanonryRuntime,
  op: Operation,
  principal: Principal,
  input: OperationInput,
): Promise<unknown> {
  refuseReservedOperation(principal.project, op);
  const broken = runtime.journal.brokenChain(principal.project);
  if (broken) {
    throw new CanonryError(
      'CHAIN_BROKEN',
      `the journal of ${principal.project} does not verify (seq ${broken.seq}: ${broken.reason}); canon is not served until an operator repairs it`,
      { ...broken },
    );
  }
  const query = onlyQuery(
    input.query,
    (op.query ?? []).map((q) => q.name),
  );
  if (!op.body) noBody(input.body);
  return op.handler({
    runtime,
    principal,
    project: principal.project,
    params: input.params ?? {},
    query,
    body: checkBody(op, input.body),
    safetyPolicy: input.safetyPolicy ?? null,
  });
}

/**
 * Runs operations in process as the principal of `token`, authenticated on every call (a revoked
 * token stops working at once), exactly as the HTTP face would: same least role, same checks.
 * `project`, when given, must be the token's.
 */
export function localInvoker(
  runtime: CanonryRuntime,
  token: string | null | undefined,
  options: { project?: string; close?: () => Promise<void> } = {},
): Invoker {
  return {
    async invoke(op, input) {
      const auth = await authorizeToken(runtime.tokens, token, options.project, op.minRole);
      return runOperation(runtime, op, canonPrincipal(auth), input);
    },
    close: async () => options.close?.(),
  };
}

/**
 * Runs operations in process as a principal its face has already authenticated (MCP over HTTP, one
 * request at a time): the operation's least role is still checked here.
 */
export function principalInvoker(runtime: CanonryRuntime, principal: AuthPrincipal): Invoker {
  return {
    async invoke(op, input) {
      if (!roleAtLeast(principal.role, op.minRole)) {
        throw new CanonryError('FORBIDDEN', `this needs the ${op.minRole} role or above`, {
          required_role: op.minRole,
        });
      }
      return runOperation(runtime, op, canonPrincipal(principal), input);
    },
    close: async () => undefined,
  };
}
