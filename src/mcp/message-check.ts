import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** A JSON-RPC error answer canonry writes itself, its own code in `data.code`. */
export interface McpRefusal {
  readonly jsonrpc: '2.0';
  readonly id: string | number | null;
  readonly error: { code: number; message: string; data: { code: string } };
}

/** The id of a request that could be read, so its refusal can be matched to it; else null. */
function idOf(value: unknown): string | number | null {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** A refusal with canonry's code, answering `id`. */
export function refusal(
  id: string | number | null,
  code: number,
  canonry: string,
  message: string,
): McpRefusal {
  return { jsonrpc: '2.0', id, error: { code, message, data: { code: canonry } } };
}

/** A message without a readable id but with a method: a notification, which is never answered. */
export function isNotification(value: unknown): boolean {
  return idOf(value) === null && (value as { method?: unknown } | null)?.method !== undefined;
}

/**
 * How a parsed message that MCP's transports would not take is answered, the same over stdio and
 * `/mcp`: a batch (not part of MCP since 2025-06-18) or a value that is not one JSON-RPC 2.0 message
 * (`params: null`, no `jsonrpc`, an object as `id`) is -32600 with INVALID_ARGUMENT in `data.code`,
 * answering the request's id when it can be read; `null` when the message is fine.
 */
export function refusalOf(value: unknown): McpRefusal | null {
  if (Array.isArray(value)) {
    return refusal(
      null,
      ErrorCode.InvalidRequest,
      'INVALID_ARGUMENT',
      'batches are not part of MCP: send one message at a time',
    );
  }
  if (JSONRPCMessageSchema.safeParse(value).success) return malformedCall(value);
  return refusal(
    idOf(value),
    ErrorCode.InvalidRequest,
    'INVALID_ARGUMENT',
    'not a JSON-RPC 2.0 message (jsonrpc, id, method, params an object when given)',
  );
}

const isPlainObject = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The requests the SDK's server parses with its own schema before (or instead of) canonry's handlers,
 * and what their params must be: it would answer a failing parse with the parser's dump and no code,
 * -32603 (internal error) for `initialize`.
 */
const SDK_PARSED: Readonly<
  Record<
    string,
    { schema: typeof InitializeRequestSchema | typeof CallToolRequestSchema; shape: string }
  >
> = {
  initialize: {
    schema: InitializeRequestSchema,
    shape: 'protocolVersion (a string), capabilities (an object) and clientInfo (name and version)',
  },
  'tools/call': {
    schema: CallToolRequestSchema,
    shape: 'name, arguments, _meta and task as MCP gives them',
  },
};

/**
 * A request whose params the SDK's server would refuse with its parser's dump: -32602 with
 * INVALID_ARGUMENT in `data.code`, as a resource read's malformed `uri` is — a tools/call's `name`
 * that is not a string and `arguments` that are not an object named, the rest by the params' shape.
 */
function malformedCall(message: unknown): McpRefusal | null {
  const { id, method, params } = message as { id?: unknown; method?: unknown; params?: unknown };
  if (typeof method !== 'string' || (typeof id !== 'string' && typeof id !== 'number')) return null;
  const parsed = Object.hasOwn(SDK_PARSED, method) ? SDK_PARSED[method] : undefined;
  if (!parsed || parsed.schema.safeParse(message).success) return null;
  const given = isPlainObject(params) ? (params as { name?: unknown; arguments?: unknown }) : {};
  const problem =
    method !== 'tools/call'
      ? `params must have ${parsed.shape}`
      : typeof given.name !== 'string'
        ? 'params.name must be a string'
        : given.arguments !== undefined && !isPlainObject(given.arguments)
          ? 'params.arguments must be an object'
          : `params must have ${parsed.shape}`;
  return refusal(
    idOf(message),
    ErrorCode.InvalidParams,
    'INVALID_ARGUMENT',
    `${method}: ${problem}`,
  );
}
