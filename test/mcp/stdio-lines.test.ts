// What stands between stdin and MCP's stdio transport: each line a JSON-RPC message passes
// unchanged; anything else is answered (the SDK would drop it without a word, leaving the client
// waiting) and never passed on; a line past 1 MiB is skipped as it arrives and answered once.
import { describe, expect, it } from 'vitest';
import {
  MAX_STDIO_MESSAGE_BYTES,
  StdioLines,
  type StdioRefusal,
} from '../../src/mcp/stdio-lines.js';

/** Feeds `chunks` through a filter; what it passed on, and what it answered. */
async function filter(chunks: (string | Buffer)[]) {
  const refusals: StdioRefusal[] = [];
  const lines = new StdioLines((r) => refusals.push(r));
  const passed: string[] = [];
  lines.on('data', (b: Buffer) => passed.push(b.toString()));
  const ended = new Promise((done) => lines.on('end', done));
  for (const chunk of chunks) lines.write(chunk);
  lines.end();
  await ended;
  return { passed: passed.join(''), refusals };
}

const call = (id: number) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });

describe('StdioLines', () => {
  it('passes messages through whole, however the chunks fall', async () => {
    const text = `${call(1)}\n${call(2)}\r\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`;
    const { passed, refusals } = await filter(text.match(/[\s\S]{1,7}/g)!);
    expect(refusals).toEqual([]);
    expect(
      passed
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).id),
    ).toEqual([1, 2, undefined]);
  });

  it('answers what is not a message, with its id when it has one', async () => {
    const deep = `${'['.repeat(100)}${']'.repeat(100)}`;
    const { passed, refusals } = await filter([
      'not json\n',
      `[${call(3)}]\n`,
      `${JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: null })}\n`,
      `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/x', params: null })}\n`,
      `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"a":${deep}}}\n`,
      // A tool's name given twice: the SDK would call the last, another reader the first.
      '{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"a","name":"b"}}\n',
      `${call(6)}\n`,
    ]);
    expect(refusals.map((r) => [r.id, r.error.code, r.error.data.code])).toEqual([
      [null, -32700, 'MALFORMED_BODY'],
      [null, -32600, 'INVALID_ARGUMENT'],
      [4, -32600, 'INVALID_ARGUMENT'],
      [null, -32600, 'NESTING_TOO_DEEP'],
      [null, -32700, 'MALFORMED_BODY'],
    ]);
    expect(refusals.at(-1)?.error.message).toBe('an object names member "name" twice');
    expect(passed).toBe(`${call(6)}\n`);
  });

  it('skips a line over 1 MiB as it arrives, answers it once, and reads on', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const chunks: (string | Buffer)[] = ['{"jsonrpc":"2.0","id":7,"params":"'];
    for (let sent = 0; sent <= MAX_STDIO_MESSAGE_BYTES; sent += chunk.length) chunks.push(chunk);
    chunks.push(`"}\n${call(8)}\n`);
    const { passed, refusals } = await filter(chunks);
    expect(refusals.map((r) => r.error.data.code)).toEqual(['PAYLOAD_TOO_LARGE']);
    expect(passed).toBe(`${call(8)}\n`);
  });

  it('lets a message of exactly the bound through', async () => {
    const head = '{"jsonrpc":"2.0","id":9,"method":"ping","params":{"pad":"';
    const tail = '"}}';
    const line = head + 'x'.repeat(MAX_STDIO_MESSAGE_BYTES - head.length - tail.length) + tail;
    expect(Buffer.byteLength(line)).toBe(MAX_STDIO_MESSAGE_BYTES);
    const { passed, refusals } = await filter([`${line}\n`]);
    expect(refusals).toEqual([]);
    expect(passed).toBe(`${line}\n`);
  });
});
