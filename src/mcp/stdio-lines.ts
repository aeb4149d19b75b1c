import { Transform, type TransformCallback } from 'node:stream';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import {
  DEFAULT_MAX_JSON_DEPTH,
  DEFAULT_MAX_JSON_KEYS,
  DEFAULT_MAX_JSON_VALUES,
  isCanonryError,
  parseJsonText,
} from '../core/index.js';
import { isNotification, type McpRefusal, refusal, refusalOf } from './message-check.js';

/** The largest message read from stdin: the HTTP face's body limit, which `/mcp` is held to. */
export const MAX_STDIO_MESSAGE_BYTES = 1024 * 1024;

/** A JSON-RPC error answer the transport never gets to send: written by the filter itself. */
export type StdioRefusal = McpRefusal;

const NEWLINE = 0x0a;

/**
 * What stands between stdin and MCP's stdio transport: the same bounds a `/mcp` request meets
 * (1 MiB, nesting 64, the value and member-name counts), and an answer to what the transport would
 * otherwise drop without one. The SDK's transport parses each line and, on a line that is not a
 * JSON-RPC message (not JSON, a batch, `params: null`), reports it to no one: the client waits
 * forever. Here such a line is answered — -32700 when it is not JSON, -32600 otherwise, with
 * canonry's code in `data.code` — and never passed on; a line past the size bound is skipped as it
 * arrives (never held), then answered. Lines that are messages go through unchanged.
 */
export class StdioLines extends Transform {
  readonly #refuse: (refusal: StdioRefusal) => void;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** Past the bound: bytes are dropped until the line ends. */
  #skipping = false;

  constructor(refuse: (refusal: StdioRefusal) => void) {
    super();
    this.#refuse = refuse;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(NEWLINE, start);
      if (end === -1) {
        this.#hold(chunk.subarray(start));
        break;
      }
      this.#hold(chunk.subarray(start, end));
      this.#endLine();
      start = end + 1;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.#pendingBytes > 0 || this.#skipping) this.#endLine();
    done();
  }

  #hold(part: Buffer): void {
    if (this.#skipping || part.length === 0) return;
    if (this.#pendingBytes + part.length > MAX_STDIO_MESSAGE_BYTES) {
      this.#skipping = true;
      this.#pending = [];
      this.#pendingBytes = 0;
      return;
    }
    this.#pending.push(part);
    this.#pendingBytes += part.length;
  }

  #endLine(): void {
    if (this.#skipping) {
      this.#skipping = false;
      this.#answer(
        null,
        ErrorCode.InvalidRequest,
        'PAYLOAD_TOO_LARGE',
        `a message is over ${MAX_STDIO_MESSAGE_BYTES} bytes`,
      );
      return;
    }
    const line = Buffer.concat(this.#pending, this.#pendingBytes)
      .toString('utf8')
      .replace(/\r$/, '');
    this.#pending = [];
    this.#pendingBytes = 0;
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = parseJsonText(line, DEFAULT_MAX_JSON_DEPTH, {
        values: DEFAULT_MAX_JSON_VALUES,
        keys: DEFAULT_MAX_JSON_KEYS,
      });
    } catch (err) {
      const code = isCanonryError(err) ? err.code : 'MALFORMED_BODY';
      const message = isCanonryError(err) ? err.message : 'not JSON';
      this.#answer(
        null,
        code === 'MALFORMED_BODY' ? ErrorCode.ParseError : ErrorCode.InvalidRequest,
        code,
        message,
      );
      return;
    }
    const refused = refusalOf(value);
    if (refused) {
      // A notification (no id) is never answered, even when malformed.
      if (!Array.isArray(value) && isNotification(value)) return;
      this.#refuse(refused);
      return;
    }
    this.push(`${line}\n`);
  }

  #answer(id: string | number | null, code: number, canonry: string, message: string): void {
    this.#refuse(refusal(id, code, canonry, message));
  }
}
