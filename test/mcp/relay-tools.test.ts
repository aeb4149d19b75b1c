// The relay's agent face (CRP-030): the SDK's own client against canonry's MCP server over a real
// runtime (SQLite in a temp dir), acting as an agent token. The agent finds the spec's tool names
// and drives two windows with them; a viewer sees relay_state but no tool that writes.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenRole } from '../../src/auth/index.js';
import { createMcpServer } from '../../src/mcp/index.js';
import { localInvoker } from '../../src/operations/index.js';
import { tokensFor } from '../helpers/auth.js';
import { freshRuntime } from '../helpers/runtime.js';

const P = 'relay-mcp';
let fresh: Awaited<ReturnType<typeof freshRuntime>>;
let tokens: Record<'agent' | 'val', string>;
const clients: Client[] = [];

beforeAll(async () => {
  fresh = await freshRuntime();
  tokens = await tokensFor(fresh.runtime, P, { agent: 'agent', val: 'viewer' });
});
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await fresh?.close();
});

async function clientFor(token: string, role: TokenRole): Promise<Client> {
  const server = createMcpServer(localInvoker(fresh.runtime, token), { project: P, role }, 'test');
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'canonry-test', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

async function tool(client: Client, name: string, args: Record<string, unknown>) {
  const r = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { text: string }[];
  };
  const parsed = JSON.parse(r.content[0]!.text);
  return r.isError ? { error: parsed.error, value: null } : { error: null, value: parsed };
}

describe('the relay over MCP', () => {
  it('lists prepare_window, complete_window and relay_state for an agent, and drives two windows', async () => {
    const agent = await clientFor(tokens.agent, 'agent');
    const names = (await agent.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'startRelaySession',
        'prepare_window',
        'complete_window',
        'relay_state',
      ]),
    );
    // The other tools keep their operationIds.
    expect(names).toContain('postMessage');
    expect(names).not.toContain('completeRelayWindow');

    const started = await tool(agent, 'startRelaySession', {
      mode: 'AGENTIC',
      objective: 'Configure TLS for the etcd cluster',
      remaining: ['inspect the cluster', 'configure TLS'],
    });
    expect(started.error).toBeNull();
    const session = started.value.session.session_id as string;

    const p1 = await tool(agent, 'prepare_window', { session });
    expect(p1.value).toMatchObject({ window_number: 1, kind: 'work' });
    const w1 = await tool(agent, 'complete_window', {
      session,
      output: 'The cluster runs etcd v3.5.',
      contribution: {
        facts: [{ fact_id: 'f_etcd', statement: 'etcd v3.5 is deployed', provenance: 'TOOL_FREE' }],
      },
    });
    // A bad provenance is the body's schema failing: a typed error the model can read.
    expect(w1.error).toMatchObject({ code: 'INVALID_BODY' });

    const w1ok = await tool(agent, 'complete_window', {
      session,
      output: 'The cluster runs etcd v3.5.',
      contribution: {
        facts: [
          { fact_id: 'f_etcd', statement: 'etcd v3.5 is deployed', provenance: 'CONVERSATION' },
        ],
        decisions: [
          {
            decision_id: 'd_tls',
            choice: 'use the v3.5 TLS syntax',
            rationale: 'etcd v3.5 is deployed',
            depends_on: ['f_etcd'],
          },
        ],
        completed: ['inspect the cluster'],
      },
    });
    expect(w1ok.error).toBeNull();
    expect(w1ok.value).toMatchObject({ status: 'relayed', window_number: 1 });
    expect(w1ok.value.headers).toMatchObject({
      'CRP-Relay-Preservation': '1.00',
      'CRP-Relay-CSO-Decisions': '1',
    });

    const p2 = await tool(agent, 'prepare_window', { session, max_tokens: 4_000 });
    expect(p2.value.goal_state.remaining).toEqual(['configure TLS']);
    const w2 = await tool(agent, 'complete_window', {
      session,
      output: 'TLS configured.',
      contribution: { completed: ['configure TLS'] },
      model: 'mcp-agent',
    });
    expect(w2.value).toMatchObject({ status: 'relayed', window_number: 2 });
    // Window 2 restated nothing: the prior facts (its own and what the extractor read in window 1's
    // text) were re-injected, and the header says so.
    expect(w2.value.verification.repaired).toContain('f_etcd');
    expect(w2.value.headers['CRP-Relay-Preservation']).toBe(
      `0.00; repaired=${w2.value.verification.repaired.length}`,
    );

    const state = await tool(agent, 'relay_state', { session });
    expect(state.value).toMatchObject({ status: 'complete', windows: 2 });
    expect(state.value.cso.established_facts.map((f: any) => f.fact_id)).toContain('f_etcd');

    const closed = await tool(agent, 'prepare_window', { session });
    expect(closed.error).toMatchObject({ code: 'SESSION_CLOSED' });
  });

  it('gives a viewer relay_state but not the tools that write', async () => {
    const viewer = await clientFor(tokens.val, 'viewer');
    const names = (await viewer.listTools()).tools.map((t) => t.name);
    expect(names).toContain('relay_state');
    expect(names).not.toContain('complete_window');
    expect(names).not.toContain('prepare_window');
    const refused = await tool(viewer, 'complete_window', { session: 'rs-0', output: 'x' });
    expect(refused.error).toMatchObject({ code: 'FORBIDDEN' });
    const unknown = await tool(viewer, 'relay_state', { session: 'rs-0000000000000000' });
    expect(unknown.error).toMatchObject({ code: 'UNKNOWN_SESSION' });
  });
});
