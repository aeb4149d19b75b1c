/**
 * A JSON-RPC error a request handler throws: the SDK answers `{ code, message, data }` from what the
 * handler threw. Its own `McpError` puts `MCP error <code>: ` in front of the message, and the
 * client's `McpError` puts it there again, so a refusal thrown as one read
 * `MCP error -32002: MCP error -32002: no resource …`; this one carries the message alone.
 */
export class RequestRefusal extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RequestRefusal';
  }
}
