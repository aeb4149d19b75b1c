import type { IncomingMessage } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { type McpRefusal, refusal } from './message-check.js';

/** -32000: the JSON-RPC code MCP's transport gives what is wrong with the HTTP request itself. */
const TRANSPORT_ERROR = -32000;

/**
 * What is wrong with a `/mcp` request's headers, answered with canonry's code as the SDK's transport
 * would answer it without one: an `Accept` that does not take both `application/json` and
 * `text/event-stream` is 406 NOT_ACCEPTABLE; an `Mcp-Protocol-Version` MCP does not know is 400
 * INVALID_ARGUMENT (named cut to 32 characters, never echoed whole). `null` when both are fine.
 */
export function headerRefusal(
  request: IncomingMessage,
): { status: number; refusal: McpRefusal } | null {
  const accept = request.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return {
      status: 406,
      refusal: refusal(
        null,
        TRANSPORT_ERROR,
        'NOT_ACCEPTABLE',
        '/mcp answers application/json and text/event-stream: Accept must list both',
      ),
    };
  }
  const version = request.headers['mcp-protocol-version'];
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(String(version))) {
    return {
      status: 400,
      refusal: refusal(
        null,
        TRANSPORT_ERROR,
        'INVALID_ARGUMENT',
        `unsupported MCP protocol version ${JSON.stringify(String(version).slice(0, 32))} (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      ),
    };
  }
  return null;
}
