import { ErrorCode, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

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
 * A `tools/call` whose `name` is not a string or whose `arguments` is not an object: -32602 with
 * INVALID_ARGUMENT in `data.code`, as a resource read's malformed `uri` is. The SDK's server would
 * answer it -32602 with its schema parser's dump and no code, before any handler runs.
 */
function malformedCall(message: unknown): McpRefusal | null {
  const { id, method, params } = message as { id?: unknown; method?: unknown; params?: unknown };
  if (method !== 'tools/call' || (typeof id !== 'string' && typeof id !== 'number')) return null;
  const given = isPlainObject(params) ? (params as { name?: unknown; arguments?: unknown }) : {};
  const problem =
    typeof given.name !== 'string'
      ? 'params.name must be a string'
      : given.arguments !== undefined && !isPlainObject(given.arguments)
        ? 'params.arguments must be an object'
        : null;
  return problem === null
    ? null
    : refusal(idOf(message), ErrorCode.InvalidParams, 'INVALID_ARGUMENT', `tools/call: ${problem}`);
}
