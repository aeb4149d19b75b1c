import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { type CallToolResult, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { TokenRole } from '../auth/index.js';
import { CanonryError, httpStatusOf, isCanonryError } from '../core/index.js';
import { type Invoker, operationNamed } from '../operations/index.js';
import { RequestRefusal } from './refusal.js';
import { inputFromArguments, toolsFor } from './tools.js';

/** Who the MCP session acts as: the token's project, and its role when the face knows it. */
export interface McpIdentity {
  readonly project: string;
  readonly role: TokenRole | null;
}

/** The resources of a project: its board and its working set, read through their operations. */
const RESOURCES = [
  {
    name: 'board',
    operation: 'getBoard',
    description:
      'the first objects of each status, pending proposals and artifacts with their §10 states (LCSM §9), each group with its total and whether more exist; read on with listObjects, listProposals, listArtifacts',
  },
  {
    name: 'working-set',
    operation: 'compileWorkingSet',
    description: 'the current canon a model reads instead of the transcript, with its capsule',
  },
] as const;

const resourceUri = (project: string, name: string) => `canonry://projects/${project}/${name}`;

/**
 * A request of `method` with its params left for the handler to check. Registered with the SDK's
 * own request schemas, a malformed request (`arguments: [1]`, a `uri` that is not a string) fails
 * their parse before any handler runs and is answered -32603 "internal error" with the parser's
 * dump; checked here, it is -32602 invalid params, saying what was wrong.
 */
const request = <M extends string>(method: M) =>
  z.object({ method: z.literal(method), params: z.unknown().optional() });

/** `params` as an object, or -32602 naming the method. */
function paramsOf(method: string, params: unknown): Record<string, unknown> {
  if (params === undefined) return {};
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw new RequestRefusal(ErrorCode.InvalidParams, `${method}: params must be an object`);
  }
  return params as Record<string, unknown>;
}

/** MCP's code for a resource that does not exist (the spec's, not in the SDK's enum). */
const RESOURCE_NOT_FOUND = -32002;

/**
 * A typed failure of a resource read as a JSON-RPC error: canonry's code in `data.code`, and the
 * JSON-RPC code by its class — not found, the caller's mistake (invalid params), or the server's.
 */
function resourceError(err: unknown): RequestRefusal {
  const typed = isCanonryError(err) ? err : new CanonryError('INTERNAL');
  const status = httpStatusOf(typed.code);
  const code =
    status === 404
      ? RESOURCE_NOT_FOUND
      : status < 500
        ? ErrorCode.InvalidParams
        : ErrorCode.InternalError;
  return new RequestRefusal(code, typed.message, {
    code: typed.code,
    ...(typed.details ? { details: typed.details } : {}),
  });
}

/** A typed error as a tool result the model can read (never a secret: messages carry none). */
function errorResult(err: unknown): CallToolResult {
  const typed = isCanonryError(err) ? err : new CanonryError('INTERNAL');
  const error = {
    code: typed.code,
    message: typed.message,
    ...(typed.details ? { details: typed.details } : {}),
  };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error }) }] };
}

/**
 * An MCP server over an invoker: one tool per operation the principal's role may use (an agent sees
 * no approval), and the project's board and working set as resources. Each call runs the operation
 * as the invoker's principal, so the checks and the journal are the HTTP API's.
 */
export function createMcpServer(invoker: Invoker, identity: McpIdentity, version: string): Server {
  const server = new Server(
    { name: 'canonry', version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'canonry governs state: send what was said with postMessage, propose changes with postProposal, read current canon with compileWorkingSet or the board resource. Relay state across context windows with startRelaySession, then prepare_window, your answer, complete_window; relay_state says where a session stands. Approvals belong to people.',
    },
  );
  const tools = toolsFor(identity.role);
  const byName = new Map(tools.map((t) => [t.tool.name, t.op]));

  // No pagination: a list's params (a cursor) change nothing.
  server.setRequestHandler(request('tools/list'), async () => ({
    tools: tools.map((t) => t.tool),
  }));
  // The SDK's Server parses a tools/call against its own schema first (-32602); the params are
  // checked here too, so that they are typed without a cast whatever the SDK does.
  server.setRequestHandler(request('tools/call'), async ({ params }) => {
    const { name, arguments: args } = paramsOf('tools/call', params);
    if (typeof name !== 'string') {
      throw new RequestRefusal(ErrorCode.InvalidParams, 'tools/call: params.name must be a string');
    }
    const op = byName.get(name);
    if (!op) {
      return errorResult(
        new CanonryError(
          'FORBIDDEN',
          `no tool ${JSON.stringify(name.slice(0, 64))} for this token`,
        ),
      );
    }
    try {
      const result = await invoker.invoke(op, inputFromArguments(op, args));
      return {
        content: [{ type: 'text', text: JSON.stringify(result) }],
        structuredContent: result as Record<string, unknown>,
      };
    } catch (err) {
      return errorResult(err);
    }
  });
  server.setRequestHandler(request('resources/list'), async () => ({
    resources: RESOURCES.map((r) => ({
      uri: resourceUri(identity.project, r.name),
      name: `${identity.project} ${r.name}`,
      description: r.description,
      mimeType: 'application/json',
    })),
  }));
  server.setRequestHandler(request('resources/read'), async ({ params }) => {
    const { uri } = paramsOf('resources/read', params);
    if (typeof uri !== 'string') {
      throw new RequestRefusal(
        ErrorCode.InvalidParams,
        'resources/read: params.uri must be a string',
      );
    }
    const resource = RESOURCES.find((r) => resourceUri(identity.project, r.name) === uri);
    if (!resource) {
      throw resourceError(
        new CanonryError('NOT_FOUND', `no resource ${JSON.stringify(uri.slice(0, 200))}`),
      );
    }
    let result: unknown;
    try {
      result = await invoker.invoke(operationNamed(resource.operation), {});
    } catch (err) {
      throw resourceError(err);
    }
    return {
      contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(result) }],
    };
  });
  return server;
}
