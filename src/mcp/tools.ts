import type { TokenRole } from '../auth/index.js';
import { CanonryError, type JsonObject } from '../core/index.js';
import {
  inlineRefs,
  OPERATIONS,
  type Operation,
  type OperationInput,
  roleAtLeast,
} from '../operations/index.js';

/**
 * MCP tools generated from the operation table: one per operation, named by its operationId (or its
 * `mcpName`: the relay's `prepare_window`, `complete_window`, `relay_state`), its
 * input schema the operation's path parameters, query parameters and body fields side by side (the
 * body's own schema, refs inlined), so a model fills one flat object.
 */

/** An MCP tool as `tools/list` answers it. */
export interface ToolDescription {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonObject & { type: 'object' };
  readonly annotations: { readonly readOnlyHint: boolean; readonly destructiveHint: boolean };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether a principal of `role` sees the tool (`null`: a role the face cannot know, as over `--url`;
 * the server still refuses). Hidden operations (token secrets) are never tools.
 */
export function listedFor(op: Operation, role: TokenRole | null): boolean {
  if (op.mcp === 'hidden') return false;
  if (role === null) return true;
  return roleAtLeast(role, op.mcp?.minRole ?? op.minRole);
}

function bodyParts(op: Operation): { properties: Record<string, unknown>; schema: JsonObject } {
  if (!op.body) return { properties: {}, schema: {} };
  const schema = inlineRefs(op.body.schema) as JsonObject;
  return { properties: isObject(schema.properties) ? schema.properties : {}, schema };
}

/** The tool of one operation. */
export function toolFor(op: Operation): ToolDescription {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, description] of Object.entries(op.params ?? {})) {
    properties[name] = { type: 'string', maxLength: 100, description };
    required.push(name);
  }
  for (const q of op.query ?? []) properties[q.name] = { ...q.schema, description: q.description };
  const body = bodyParts(op);
  for (const [name, schema] of Object.entries(body.properties)) {
    if (Object.hasOwn(properties, name)) {
      throw new CanonryError(
        'INTERNAL',
        `${op.operationId}: ${name} is both a parameter and a field`,
      );
    }
    properties[name] = schema;
  }
  if (op.body?.required && Array.isArray(body.schema.required)) {
    required.push(...(body.schema.required as string[]));
  }
  const inputSchema: Record<string, unknown> = { type: 'object', properties, required };
  if (body.schema.additionalProperties === false || !op.body)
    inputSchema.additionalProperties = false;
  if (Array.isArray(body.schema.oneOf)) inputSchema.oneOf = body.schema.oneOf;
  return {
    name: op.mcpName ?? op.operationId,
    title: op.cli?.description ?? op.summary,
    description: `${op.summary} (least role: ${op.mcp === 'hidden' || !op.mcp ? op.minRole : op.mcp.minRole})`,
    inputSchema: inputSchema as ToolDescription['inputSchema'],
    annotations: { readOnlyHint: op.method === 'GET', destructiveHint: false },
  };
}

/** A tool call's flat arguments as the operation's path parameters, query values and body. */
export function inputFromArguments(op: Operation, args: unknown): OperationInput {
  if (args !== undefined && !isObject(args)) {
    throw new CanonryError('INVALID_ARGUMENT', 'tool arguments must be an object');
  }
  const params: Record<string, string> = {};
  const query: Record<string, string> = {};
  const body: Record<string, unknown> = {};
  const queryNames = new Set((op.query ?? []).map((q) => q.name));
  for (const [name, value] of Object.entries(args ?? {})) {
    if (Object.hasOwn(op.params ?? {}, name) || queryNames.has(name)) {
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
        throw new CanonryError('INVALID_ARGUMENT', `${name} must be a string`, { field: name });
      }
      (queryNames.has(name) ? query : params)[name] = String(value);
    } else if (op.body) {
      // Defined, not assigned: `body.__proto__ = v` would make `v` the body's prototype, unseen by the
      // schema (own properties only) yet read by the handler; as an own field it is refused as on HTTP.
      Object.defineProperty(body, name, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      throw new CanonryError(
        'INVALID_ARGUMENT',
        `unknown argument ${JSON.stringify(name.slice(0, 64))}`,
        {
          field: name.slice(0, 64),
        },
      );
    }
  }
  const sendBody = op.body && (op.body.required || Object.keys(body).length > 0);
  return { params, query, ...(sendBody ? { body } : {}) };
}

/** The tools a principal of `role` sees, in the table's order. */
export function toolsFor(role: TokenRole | null): { op: Operation; tool: ToolDescription }[] {
  return OPERATIONS.filter((op) => listedFor(op, role)).map((op) => ({ op, tool: toolFor(op) }));
}
