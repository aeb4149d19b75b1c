import { TOKEN_ROLES } from '../auth/index.js';
import { CanonryError } from '../core/index.js';
import { tokenIdArg, tokenRequest } from './input.js';
import type { Operation } from './operation.js';
import { TOKEN_LIST_QUERY, tokenListQuery } from './page-query.js';
import { BODIES, RESPONSES, ref } from './schemas.js';

const { obj, list, str } = RESPONSES;

/**
 * Bearer tokens of the project: who the caller's token stands for (any role), and issuing, listing
 * and revoking tokens (owners only; the secret is in the creation response, once).
 */
export const TOKEN_OPERATIONS: readonly Operation[] = [
  {
    method: 'GET',
    url: '/v1/projects/:project/whoami',
    operationId: 'whoami',
    summary:
      'Who the bearer token stands for: its project, principal and role — what a face needs to offer only the controls the role allows',
    tag: 'tokens',
    cli: {
      command: 'whoami',
      description: "the token's project, principal and role",
    },
    minRole: 'viewer',
    status: 200,
    response: obj({ project: str(), principal: str(), role: { enum: [...TOKEN_ROLES] } }, [
      'project',
      'principal',
      'role',
    ]),
    errors: [],
    handler: async ({ principal }) => ({
      project: principal.project,
      principal: principal.id,
      role: principal.role,
    }),
  },
  {
    method: 'POST',
    url: '/v1/projects/:project/tokens',
    operationId: 'createToken',
    summary:
      'Issue a token for a principal and role in this project; the secret is shown only here',
    tag: 'tokens',
    cli: {
      command: 'token create',
      description: 'issue a token of this project (owners); the secret is printed once',
    },
    mcp: 'hidden',
    minRole: 'owner',
    body: {
      schema: BODIES.token,
      required: true,
      example: { principal: 'assistant', role: 'agent' },
    },
    status: 201,
    response: obj({ token: str({ pattern: '^cnr_' }), info: ref('TokenInfo') }, ['token', 'info']),
    errors: ['INVALID_BODY', 'INVALID_ARGUMENT'],
    handler: async ({ runtime, project, body }) => {
      const { principal, role } = tokenRequest(body);
      return runtime.tokens.create(project, principal, role);
    },
  },
  {
    method: 'GET',
    url: '/v1/projects/:project/tokens',
    operationId: 'listTokens',
    summary:
      'The tokens of this project (descriptions, never secrets) in creation order, a page at a time',
    tag: 'tokens',
    cli: {
      command: 'token list',
      description:
        'the tokens of this project (owners; never secrets), a page at a time (--limit, default 100; --after a token id)',
    },
    mcp: 'hidden',
    minRole: 'owner',
    query: TOKEN_LIST_QUERY,
    status: 200,
    response: list('tokens', 'TokenInfo'),
    errors: ['INVALID_ARGUMENT'],
    handler: async ({ runtime, project, query }) => ({
      tokens: await runtime.tokens.page(project, tokenListQuery(query)),
    }),
  },
  {
    method: 'DELETE',
    url: '/v1/projects/:project/tokens/:id',
    operationId: 'revokeToken',
    summary: 'Revoke a live token of this project',
    tag: 'tokens',
    cli: {
      command: 'token revoke <token_id>',
      description: 'revoke a token of this project (owners)',
    },
    mcp: 'hidden',
    minRole: 'owner',
    params: { id: 'token id' },
    status: 200,
    response: obj({ token_id: str(), revoked: { const: true } }, ['token_id', 'revoked']),
    errors: ['UNKNOWN_TOKEN', 'INVALID_ARGUMENT'],
    handler: async ({ runtime, project, params }) => {
      const id = tokenIdArg(params.id);
      if (!(await runtime.tokens.revoke(project, id))) {
        throw new CanonryError('UNKNOWN_TOKEN', `no live token ${id} in ${project}`, {
          token_id: id,
        });
      }
      return { token_id: id, revoked: true };
    },
  },
];
