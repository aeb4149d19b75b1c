import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import type { Principal } from '../../src/canon/index.js';
import { OpenAIModel } from '../../src/models/index.js';
import { CONTRIBUTION_SCHEMA_NAME } from '../../src/relay/index.js';
import {
  apiError,
  completion,
  type FakeOpenAI,
  startFakeOpenAI,
} from '../fixtures/models/fake-openai-server.js';
import { sectionAnswer } from '../helpers/model-answers.js';
import { freshRuntime } from '../helpers/runtime.js';

const AGENT: Principal = { id: 'agent-1', project: 'relay-ai', role: 'agent' };

let runtime: CanonryRuntime;
let close: () => Promise<void>;
let server: FakeOpenAI;
beforeEach(async () => {
  ({ runtime, close } = await freshRuntime());
  server = await startFakeOpenAI();
});
afterEach(async () => {
  await server.close();
  await close();
});

// Generous: a loaded machine must not turn a served reply into a timeout and a spent retry.
const model = (timeoutMs = 30_000) =>
  new OpenAIModel({ baseURL: server.baseURL, model: 'recorded', timeoutMs, maxRetries: 1 });

async function session(sections: string[]) {
  const { session } = await runtime.relay.start(AGENT, {
    mode: 'DOCUMENT',
    objective: 'A runbook',
    remaining: sections,
  });
  return session.session_id;
}

describe('the relay loop through an OpenAI-compatible server on loopback', () => {
  it('sends the contribution schema as structured output with a token limit, retries a busy server, and relays each window', async () => {
    const id = await session(['Install', 'Operate']);
    server.enqueue(
      completion(sectionAnswer('Install', [{ id: 'f_pkg', statement: 'the package is canonry' }])),
      apiError(503, 'overloaded', { 'retry-after': '0' }),
      completion(sectionAnswer('Operate', [{ id: 'f_pkg', statement: 'the package is canonry' }])),
    );
    const run = await runtime.relay.run(AGENT, id, model(), { completionTokens: 1_000 });
    expect(run.status).toBe('complete');
    expect(run.windows.map((w) => w.status)).toEqual(['relayed', 'relayed']);
    expect(server.requests).toHaveLength(3);
    const sent = server.requests[0]!.body;
    expect(sent.response_format.json_schema.name).toBe(CONTRIBUTION_SCHEMA_NAME);
    expect(sent.max_tokens).toBe(1_000);
    expect(sent.messages.at(-1).content).toContain('Install');
    const windows = await runtime.relay.windows(AGENT, id);
    expect(windows.map((w) => w.output.model)).toEqual(['fake-model', 'fake-model']);
  });

  it('asks again after a malformed reply, and gives up with nothing journaled when it stays malformed', async () => {
    const id = await session(['Install']);
    server.enqueue(
      completion('not json at all'),
      completion(
        sectionAnswer('Install', [{ id: 'f_a', statement: 'the service listens on port 8080' }]),
      ),
    );
    const run = await runtime.relay.run(AGENT, id, model());
    expect(run.windows).toHaveLength(1);
    expect(server.requests).toHaveLength(2);

    const other = await session(['Install']);
    const head = await runtime.journal.head(AGENT.project);
    server.enqueue(completion('{"output": 1}'), completion('[]'));
    await expect(runtime.relay.run(AGENT, other, model())).rejects.toMatchObject({
      code: 'MODEL_OUTPUT_INVALID',
    });
    expect(await runtime.journal.head(AGENT.project)).toEqual(head);
  });

  it('fails a window whose server does not answer in time, with nothing journaled', async () => {
    const id = await session(['Install']);
    const head = await runtime.journal.head(AGENT.project);
    server.enqueue({ kind: 'hang' }, { kind: 'hang' });
    await expect(runtime.relay.run(AGENT, id, model(150))).rejects.toMatchObject({
      code: 'MODEL_UNAVAILABLE',
    });
    expect(await runtime.journal.head(AGENT.project)).toEqual(head);
    expect((await runtime.relay.state(AGENT, id)).windows).toBe(0);
  });
});
