import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { TokenRole } from '../auth/index.js';
import { CanonryError, isCanonryError } from '../core/index.js';
import { type Invoker, operationNamed } from '../operations/index.js';
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
    description: 'objects by status, pending proposals, artifacts with their §10 states (LCSM §9)',
  },
  {
    name: 'working-set',
    operation: 'compileWorkingSet',
    description: 'the current canon a model reads instead of the transcript, with its capsule',
  },
] as const;

const resourceUri = (project: string, name: string) => `canonry://projects/${project}/${name}`;

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

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => t.tool),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const op = byName.get(request.params.name);
    if (!op) {
      return errorResult(
        new CanonryError('FORBIDDEN', `no tool ${request.params.name} for this token`),
      );
    }
    try {
      const result = await invoker.invoke(op, inputFromArguments(op, request.params.arguments));
      return {
        content: [{ type: 'text', text: JSON.stringify(result) }],
        structuredContent: result as Record<string, unknown>,
      };
    } catch (err) {
      return errorResult(err);
    }
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: RESOURCES.map((r) => ({
      uri: resourceUri(identity.project, r.name),
      name: `${identity.project} ${r.name}`,
      description: r.description,
      mimeType: 'application/json',
    })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const resource = RESOURCES.find(
      (r) => resourceUri(identity.project, r.name) === request.params.uri,
    );
    if (!resource) {
      throw new CanonryError('NOT_FOUND', `no resource ${request.params.uri.slice(0, 200)}`);
    }
    const result = await invoker.invoke(operationNamed(resource.operation), {});
    return {
      contents: [
        { uri: request.params.uri, mimeType: 'application/json', text: JSON.stringify(result) },
      ],
    };
  });
  return server;
}
