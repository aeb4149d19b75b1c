// canonry as an MCP server, driven by the SDK's own client: over stdio (`canonry mcp`, a child
// process on a real data directory) and over streamable HTTP (`/mcp` on a real `canonry serve` on
// loopback). The governed loop end to end: an agent's message becomes a proposal the gate holds, the
// agent cannot approve it (no such tool, and a call is refused), an owner approves, and the working
// set and the board resource show the new canon. The principal is always the token's.
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  McpError,
  ReadResourceResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_METADATA_HASH } from '../../src/kernel/index.js';
import { CLI, issueTokens, runCli } from '../helpers/cli.js';
import { refundProtocol, tempDir } from '../helpers/runtime.js';
import { type ServeProcess, startServe } from '../helpers/serve.js';

let dir: string;
let cleanup: () => void;
const tok: Record<string, string> = {};
const clients: Client[] = [];

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('canonry-mcp-'));
  Object.assign(
    tok,
    await issueTokens(dir, 'p', [
      ['olivia', 'owner'],
      ['agent', 'agent'],
    ]),
  );
  for (const [id, title, keywords] of [
    ['ui.colour', 'Interface colour', 'red,blue,colour'],
    ['ui.font', 'Interface font', 'font,serif,sans'],
  ]) {
    const set = await runCli([
      'canon',
      'subject',
      'set',
      id!,
      '--title',
      title!,
      '--type',
      'preference',
      '--keywords',
      keywords!,
      '--data',
      dir,
      '--token',
      tok.olivia!,
    ]);
    expect(set.code, set.stderr).toBe(0);
  }
}, 120_000);
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  cleanup?.();
});

async function stdioClient(token: string): Promise<Client> {
  const client = new Client({ name: 'canonry-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--data', dir],
      env: { ...(process.env as Record<string, string>), CANONRY_TOKEN: token },
      stderr: 'pipe',
    }),
  );
  clients.push(client);
  return client;
}

async function httpClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'canonry-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
}

/** A tool's answer: its structured result, or its typed error. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const r = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { type: string; text: string }[];
    structuredContent?: any;
  };
  const parsed = JSON.parse(r.content[0]!.text);
  return r.isError ? { error: parsed.error } : { value: r.structuredContent ?? parsed };
}

/** message → held proposal → the agent cannot approve → the owner approves → canon moved. */
async function governedLoop(
  owner: Client,
  agent: Client,
  object: string,
  first: string,
  next: string,
) {
  const said = await call(owner, 'postMessage', { text: first });
  expect(said.value.message.actor).toBe('olivia');
  expect(said.value.proposals[0].outcome.committed.version_id).toBe(1);

  const proposed = await call(agent, 'postMessage', { text: next, role: 'assistant' });
  expect(proposed.value.message.actor).toBe('agent');
  const proposal = proposed.value.proposals[0].outcome.proposal;
  expect(proposal).toMatchObject({ object_id: object, status: 'pending' });

  // The agent's tool list has no approval; calling it anyway is refused, and nothing moves.
  const names = (await agent.listTools()).tools.map((t) => t.name);
  expect(names).not.toContain('approveProposal');
  expect(names).not.toContain('createToken');
  const refused = await call(agent, 'approveProposal', { id: proposal.proposal_id });
  expect(refused.error.code).toBe('FORBIDDEN');
  const held = await call(agent, 'getProposal', { id: proposal.proposal_id });
  expect(held.value.status).toBe('pending');

  const approved = await call(owner, 'approveProposal', { id: proposal.proposal_id });
  expect(approved.value.proposal.status).toBe('committed');
  expect(approved.value.committed.version_id).toBe(2);

  const set = await call(agent, 'compileWorkingSet', { object_id: object });
  expect(set.value.notes.find((n: any) => n.object_id === object).text).toBe(
    approved.value.committed.content.text,
  );
  const provenance = await call(agent, 'getProvenance', { id: object });
  expect(provenance.value.authorized_by.approver).toMatchObject({ id: 'olivia', role: 'owner' });

  const resources = (await agent.listResources()).resources.map((r) => r.uri);
  expect(resources).toEqual(['canonry://projects/p/board', 'canonry://projects/p/working-set']);
  const board = await agent.readResource({ uri: 'canonry://projects/p/board' });
  const parsed = JSON.parse((board.contents[0] as { text: string }).text);
  const current = Object.values(parsed.objects)
    .flat()
    .find((o: any) => o.object_id === object) as any;
  expect(current).toMatchObject({
    version_id: 2,
    current_version_ref: approved.value.committed.version_hash,
  });
  expect(parsed.pending.map((p: any) => p.proposal_id)).not.toContain(proposal.proposal_id);
}

describe('canonry mcp over stdio', { timeout: 240_000 }, () => {
  it('lists tools by role: every operation for an owner but token secrets, no approval for an agent', async () => {
    const [owner, agent] = await Promise.all([stdioClient(tok.olivia!), stdioClient(tok.agent!)]);
    const ownerTools = (await owner.listTools()).tools;
    const names = ownerTools.map((t) => t.name);
    for (const name of [
      'postMessage',
      'postProposal',
      'approveProposal',
      'rejectProposal',
      'compileWorkingSet',
      'getProvenance',
      'getBoard',
      'registerArtifact',
      'validateArtifact',
      'verifyEvent',
    ]) {
      expect(names).toContain(name);
    }
    expect(names.filter((n) => n.endsWith('Token') || n === 'listTokens')).toEqual([]);
    const message = ownerTools.find((t) => t.name === 'postMessage')!;
    expect(message.inputSchema.required).toEqual(['text']);
    expect(Object.keys(message.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['classify', 'text', 'role', 'message_id', 'visibility']),
    );
    const agentNames = (await agent.listTools()).tools.map((t) => t.name);
    expect(agentNames).toContain('postMessage');
    expect(agentNames).not.toContain('approveProposal');
    expect(agentNames).not.toContain('reviewArtifact');
    expect(agentNames).not.toContain('putSubjects');
  });

  it('drives the governed loop; the agent never approves', async () => {
    const [owner, agent] = await Promise.all([stdioClient(tok.olivia!), stdioClient(tok.agent!)]);
    await governedLoop(
      owner,
      agent,
      'ui.colour',
      'I would like a red interface for the app.',
      'I propose blue instead of red for accessibility.',
    );
  });

  it('answers bad arguments with typed errors, and validates and verifies with the server root', async () => {
    const agent = await stdioClient(tok.agent!);
    expect((await call(agent, 'getProposal', { id: 'nope' })).error.code).toBe('INVALID_ARGUMENT');
    expect((await call(agent, 'postMessage', { text: 'hi', actor: 'olivia' })).error.code).toBe(
      'AUTHORITY_FROM_PAYLOAD',
    );
    expect((await call(agent, 'postProposal', { object_id: 'x' })).error).toMatchObject({
      code: 'INVALID_PROPOSAL',
      details: { field: 'intent' },
    });
    const evaluated = await call(agent, 'validateArtifact', {
      artifact: { amount: 20 },
      agentic_protocol: refundProtocol(),
      generation_metadata_hash: EMPTY_METADATA_HASH,
    });
    expect(evaluated.value.attestation).not.toBeNull();
    const verified = await call(agent, 'verifyEvent', {
      event: evaluated.value.attestation,
      artifact: { amount: 20 },
      protocol: refundProtocol(),
    });
    expect(verified.value).toMatchObject({ verified: true, development_root: true });
    const other = await call(agent, 'verifyEvent', {
      event: evaluated.value.attestation,
      artifact: { amount: 21 },
    });
    expect(other.value.verified).toBe(false);
    expect(other.value.error.code).toBe('HASH_MISMATCH');
  });

  it('answers a malformed request -32602 and a missing resource -32002, never an internal error', async () => {
    const agent = await stdioClient(tok.agent!);
    const refusal = async (method: string, params: unknown, schema = CallToolResultSchema) => {
      const answered = await agent.request({ method, params } as never, schema).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(answered).toBeInstanceOf(McpError);
      return answered as McpError;
    };
    for (const params of [
      { name: 'postMessage', arguments: [1] },
      { name: 'postMessage', arguments: 'x' },
      { name: 7 },
      {},
    ]) {
      expect((await refusal('tools/call', params)).code).toBe(-32602);
    }
    for (const params of [{ uri: 7 }, {}]) {
      const err = await refusal('resources/read', params, ReadResourceResultSchema as never);
      expect(err.code).toBe(-32602);
      // The client's McpError says "MCP error <code>: " once, before the server's own text.
      expect(err.message).toBe('MCP error -32602: resources/read: params.uri must be a string');
    }
    const missing = await refusal(
      'resources/read',
      { uri: `canonry://projects/other/board${'x'.repeat(5_000)}` },
      ReadResourceResultSchema as never,
    );
    expect(missing.code).toBe(-32002);
    expect(missing.data).toMatchObject({ code: 'NOT_FOUND' });
    expect(missing.message.length).toBeLessThan(400);
    expect(missing.message).toMatch(
      /^MCP error -32002: no resource "canonry:\/\/projects\/other\/boardx/,
    );

    // An unknown tool's name is not echoed back whole.
    const unknown = await call(agent, `x${'y'.repeat(100_000)}`);
    expect(unknown.error.code).toBe('FORBIDDEN');
    expect(unknown.error.message.length).toBeLessThan(200);
  });

  it('answers over stdio what the transport would drop, and bounds a message as /mcp does', async () => {
    const child = spawn(process.execPath, [CLI, 'mcp', '--data', dir], {
      env: { ...process.env, CANONRY_TOKEN: tok.agent! },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const answers: { id: unknown; error?: { code: number; data?: { code: string } } }[] = [];
    let buffered = '';
    child.stdout.on('data', (b: Buffer) => {
      buffered += b.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) if (line) answers.push(JSON.parse(line));
    });
    try {
      const ping = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`;
      child.stdin.write(`[${ping(1).trim()}]\n`);
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: null })}\n`,
      );
      child.stdin.write(`{"jsonrpc":"2.0","id":3,"params":"${'a'.repeat(2 * 1024 * 1024)}"}\n`);
      child.stdin.write(ping(4));
      const until = Date.now() + 30_000;
      while (answers.length < 4 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      const byId = (id: unknown) => answers.filter((a) => a.id === id);
      expect(byId(2).map((a) => a.error?.code)).toEqual([-32600]);
      expect(byId(4)).toEqual([{ jsonrpc: '2.0', id: 4, result: {} }]);
      expect(
        byId(null)
          .map((a) => a.error?.data?.code)
          .sort(),
      ).toEqual(['INVALID_ARGUMENT', 'PAYLOAD_TOO_LARGE']);
      // The session lives on after them.
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill();
    }
  });

  it('refuses to start without a valid token', async () => {
    const bad = await runCli(['mcp', '--data', dir, '--token', 'cnr_nope']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^canonry: UNAUTHENTICATED:/);
    expect(bad.stdout).toBe('');
  });
});

describe('MCP at /mcp on canonry serve', { timeout: 240_000 }, () => {
  let serve: ServeProcess;
  beforeAll(async () => {
    serve = await startServe(dir);
  }, 60_000);
  afterAll(() => serve?.stop());

  it('drives the governed loop over streamable HTTP as the bearer token of each request', async () => {
    const [owner, agent] = await Promise.all([
      httpClient(serve.url, tok.olivia!),
      httpClient(serve.url, tok.agent!),
    ]);
    await governedLoop(
      owner,
      agent,
      'ui.font',
      'I would like a serif font for the app.',
      'I propose a sans font instead of serif for legibility.',
    );
  });

  it('refuses a request without a valid token before reading it, and is documented', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'x', version: '1' },
      },
    };
    for (const authorization of [undefined, 'Bearer cnr_nope']) {
      const res = await fetch(new URL('/mcp', serve.url), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify(init),
      });
      expect(res.status).toBe(401);
      expect(((await res.json()) as any).error.code).toBe('UNAUTHENTICATED');
    }
    // No server-sent stream to open: GET and DELETE are 405 (what the SDK's client expects).
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(new URL('/mcp', serve.url), {
        method,
        headers: { authorization: `Bearer ${tok.agent}`, accept: 'text/event-stream' },
      });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
    // An answer the transport writes itself still carries the request id.
    const answered = await fetch(new URL('/mcp', serve.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${tok.agent}`,
      },
      body: JSON.stringify(init),
    });
    expect(answered.status).toBe(200);
    expect(answered.headers.get('x-request-id')).toMatch(/\S/);
    const doc = (await (await fetch(new URL('/openapi.json', serve.url))).json()) as any;
    expect(doc.paths['/mcp'].post).toMatchObject({
      operationId: 'mcp',
      security: [{ bearer: [] }],
    });
  });
});
