// `/mcp` on a real `canonry serve` on loopback, sent what an SDK client never sends: raw JSON-RPC
// bodies over fetch (and a malformed tools/call over `canonry mcp` too, from the SDK's client). Each
// refusal carries canonry's code, writes nothing, and the answers carry the headers a project's
// answers carry.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, issueTokens } from '../helpers/cli.js';
import { tempDir } from '../helpers/runtime.js';
import { type ServeProcess, startServe } from '../helpers/serve.js';

let dir: string;
let cleanup: () => void;
let serve: ServeProcess;
const tok: Record<string, string> = {};

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('canonry-mcp-hostile-'));
  Object.assign(tok, await issueTokens(dir, 'p', [['olivia', 'owner']]));
  serve = await startServe(dir);
}, 120_000);
afterAll(async () => {
  await serve?.stop();
  cleanup?.();
});

/** POSTs `body` (a string, sent as is) to `/mcp` as the owner. */
async function post(body: string): Promise<{ status: number; headers: Headers; json: any }> {
  const response = await fetch(new URL('/mcp', serve.url), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${tok.olivia}`,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
    },
    body,
  });
  return { status: response.status, headers: response.headers, json: await response.json() };
}

const callTool = (id: number, name: string, args: string) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;

/** The messages the project's journal holds, read through the tool. */
async function messageCount(): Promise<number> {
  const r = await post(callTool(99, 'listMessages', '{}'));
  expect(r.json.result.isError, JSON.stringify(r.json)).toBeUndefined();
  return (r.json.result.structuredContent.messages as unknown[]).length;
}

describe('/mcp refuses what a client should not send', { timeout: 120_000 }, () => {
  it('refuses a __proto__ argument as an unknown field, as HTTP does, and archives nothing', async () => {
    const before = await messageCount();
    const r = await post(callTool(1, 'postMessage', '{"text":"hi","__proto__":{"extra":5}}'));
    expect(r.status).toBe(200);
    expect(r.json.result.isError).toBe(true);
    expect(JSON.parse(r.json.result.content[0].text).error).toMatchObject({
      code: 'INVALID_BODY',
      details: { field: '__proto__' },
    });
    // A field smuggled as the prototype never reaches the handler either.
    const smuggled = await post(
      callTool(2, 'postMessage', '{"text":"hi","__proto__":{"visibility":"personal"}}'),
    );
    expect(JSON.parse(smuggled.json.result.content[0].text).error.code).toBe('INVALID_BODY');
    expect(await messageCount()).toBe(before);
  });

  it('refuses a body naming a member twice before any tool runs, naming the member', async () => {
    const before = await messageCount();
    // The SDK would post the last text; a reader keeping the first would see another message.
    const r = await post(callTool(3, 'postMessage', '{"text":"one","\\u0074ext":"two"}'));
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({
      code: 'MALFORMED_BODY',
      message: 'an object names member "text" twice',
      details: { member: 'text' },
    });
    expect(await messageCount()).toBe(before);
  });

  it('refuses a batch with canonry code, running none of its calls', async () => {
    const before = await messageCount();
    const batch = `[${callTool(1, 'postMessage', '{"text":"one"}')},${callTool(2, 'postMessage', '{"text":"two"}')}]`;
    const r = await post(batch);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, data: { code: 'INVALID_ARGUMENT' } },
    });
    expect(await messageCount()).toBe(before);
  });

  it('answers a body that is not a JSON-RPC message -32600 with canonry code and its id', async () => {
    for (const [body, id] of [
      ['{"jsonrpc":"2.0","id":7,"method":"tools/call","params":null}', 7],
      ['{"id":"x","method":"tools/list"}', 'x'],
      ['{}', null],
      ['null', null],
      ['"hello"', null],
    ] as const) {
      const r = await post(body);
      expect(r.status, body).toBe(400);
      expect(r.json, body).toMatchObject({
        jsonrpc: '2.0',
        id,
        error: { code: -32600, data: { code: 'INVALID_ARGUMENT' } },
      });
    }
  });

  it("answers with a project route's headers: no-store and nosniff, refusals too", async () => {
    const listed = await post('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('no-store');
    expect(listed.headers.get('x-content-type-options')).toBe('nosniff');
    const unauthenticated = await fetch(new URL('/mcp', serve.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('cache-control')).toBe('no-store');
  });
});

describe('a malformed tools/call over either face', { timeout: 120_000 }, () => {
  const malformed = [
    [{ name: 'postMessage', arguments: [1] }, 'params.arguments must be an object'],
    [{ name: 'postMessage', arguments: 'x' }, 'params.arguments must be an object'],
    [{ name: 7 }, 'params.name must be a string'],
    [{}, 'params.name must be a string'],
  ] as const;

  it('is -32602 with canonry code over /mcp, answered to its id', async () => {
    for (const [params, message] of malformed) {
      const r = await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params }));
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({
        id: 3,
        error: {
          code: -32602,
          message: `tools/call: ${message}`,
          data: { code: 'INVALID_ARGUMENT' },
        },
      });
    }
  });

  it('answers a malformed initialize -32602 with canonry code, not -32603 with a parser dump', async () => {
    for (const params of [
      {},
      { protocolVersion: 5 },
      { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x' } },
    ]) {
      const r = await post(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'initialize', params }));
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({
        id: 4,
        error: { code: -32602, data: { code: 'INVALID_ARGUMENT' } },
      });
      expect(r.json.error.message).toMatch(/^initialize: params must have protocolVersion/);
    }
  });

  it('is -32602 with canonry code from the SDK client over stdio', async () => {
    const client = new Client({ name: 'canonry-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', '--data', dir],
        env: { ...(process.env as Record<string, string>), CANONRY_TOKEN: tok.olivia! },
        stderr: 'pipe',
      }),
    );
    try {
      for (const [params, message] of malformed) {
        const err = await client
          .request({ method: 'tools/call', params } as never, CallToolResultSchema)
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        expect(err).toBeInstanceOf(McpError);
        expect(err).toMatchObject({ code: -32602, data: { code: 'INVALID_ARGUMENT' } });
        expect((err as McpError).message).toContain(`tools/call: ${message}`);
      }
    } finally {
      await client.close();
    }
  });
});

describe("/mcp's header refusals carry canonry's code", { timeout: 120_000 }, () => {
  const send = (headers: Record<string, string>) =>
    fetch(new URL('/mcp', serve.url), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tok.olivia}`,
        'content-type': 'application/json',
        ...headers,
      },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });

  it('an Accept without both media types is 406 NOT_ACCEPTABLE', async () => {
    for (const accept of ['application/json', 'text/event-stream', '*/*']) {
      const r = await send({ accept });
      expect(r.status, accept).toBe(406);
      expect(await r.json(), accept).toMatchObject({
        error: { code: -32000, data: { code: 'NOT_ACCEPTABLE' } },
      });
    }
  });

  it('an unknown protocol version is 400 INVALID_ARGUMENT, not echoed whole', async () => {
    const r = await send({
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': `1999-01-01${'x'.repeat(4_000)}`,
    });
    expect(r.status).toBe(400);
    const json = (await r.json()) as { error: { message: string } };
    expect(json).toMatchObject({ error: { code: -32000, data: { code: 'INVALID_ARGUMENT' } } });
    expect(json.error.message.length).toBeLessThan(400);
  });
});
