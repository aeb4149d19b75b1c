// advancePromotion through MCP, as an agent's client would call it: the SDK's own client over
// streamable HTTP against a real server on loopback, each request carrying its token. A protocol
// candidate started held at proposed (advance false) is advanced by the tool through the plan's
// steps — validate (replayed against the stored verdict event), check, publish, canary — each
// journaled as the caller; one validated by another hand first is taken on from there; canaries are
// observed to their decisions. Then the refusals: an agent or a viewer may not advance (editor), a
// promotion in its canary or promoted has nothing to advance (PROMOTION_ILLEGAL_TRANSITION), a
// rejected or rolled-back one is PROMOTION_FINISHED.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanonryRuntime, promotionsOf } from '../../src/app/index.js';
import { mcpMount } from '../../src/mcp/index.js';
import { buildServer } from '../../src/server/index.js';
import { tokensFor } from '../helpers/auth.js';
import { baselineVerdict, evolutionRuntime, VERDICT_ARTIFACT } from '../helpers/evolution.js';
import { tempDir } from '../helpers/runtime.js';

const P = 'promo-mcp';
/** The artifact the recorded verdict was decided on (the audit keeps its hash alone). */
const ARTIFACT = VERDICT_ARTIFACT;
/** The plan a held candidate is advanced through: each step and the stage it leaves. */
const PLAN = [
  ['propose', 'candidate'],
  ['validate', 'validated'],
  ['check', 'checked'],
  ['publish', 'published'],
  ['canary', 'canary'],
] as const;

const closers: (() => Promise<unknown> | unknown)[] = [];
let rt: CanonryRuntime;
let url: string;
let tok: Record<'editor' | 'agent' | 'viewer', string>;
let protocol: Record<string, unknown>;
let baseline: string;
let verdictEvent: string;
const clients: Partial<Record<keyof typeof tok, Client>> = {};

beforeAll(async () => {
  const { dir, cleanup } = tempDir('canonry-mcp-promo-');
  closers.push(cleanup);
  rt = await evolutionRuntime(dir);
  closers.unshift(() => rt.close());
  const app = buildServer(rt, { logLevel: 'silent', mounts: [mcpMount(rt, 'test')] });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  closers.unshift(() => app.close());
  tok = await tokensFor(rt, P, { editor: 'editor', agent: 'agent', viewer: 'viewer' });
  const system = await tokensFor(rt, 'evolution', { viewer: 'viewer' });

  ({ protocol, baseline, verdictEvent } = await baselineVerdict(url, P, tok.editor, system.viewer));

  for (const who of ['editor', 'agent', 'viewer'] as const) {
    const client = new Client({ name: 'canonry-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', url), {
        requestInit: { headers: { authorization: `Bearer ${tok[who]}` } },
      }),
    );
    clients[who] = client;
    closers.unshift(() => client.close().catch(() => undefined));
  }
}, 120_000);
afterAll(async () => {
  for (const close of closers) await close();
});

/** A tool's answer: its structured result, or its typed error. */
async function tool(who: keyof typeof tok, name: string, args: Record<string, unknown> = {}) {
  const r = (await clients[who]!.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { type: string; text: string }[];
    structuredContent?: any;
  };
  const parsed = JSON.parse(r.content[0]!.text);
  return r.isError ? { error: parsed.error } : { value: r.structuredContent ?? parsed };
}

/** A protocol candidate that keeps every verdict of the baseline (a new version, same rules). */
const candidate = (id: string) => ({
  promotion_id: id,
  artifact_kind: 'agentic_protocol',
  artifact: { ...protocol, version: `${protocol.version}.1` },
  baseline,
  canary: { share: 0, projects: [P] },
  metric: { name: 'drift_free', margin: 0.05, min_samples: 3 },
  replay_events: [verdictEvent],
});

/** Started through the MCP tool with advance false: held at proposed. */
async function held(id: string) {
  const started = await tool('editor', 'startPromotion', { ...candidate(id), advance: false });
  expect(started.error).toBeUndefined();
  expect(started.value.promotion).toMatchObject({ promotion_id: id, stage: 'candidate' });
}

const head = async () => (await rt.journal.head(P))?.seq ?? 0;

/** Each journaled step of a promotion, as its entry says: who took it, and the step. */
async function journaled(history: readonly { step: string; seq: number | null }[]) {
  const out = [];
  for (const h of history) {
    const [entry] = await rt.journal.read(P, { after: h.seq! - 1, limit: 1 });
    expect(entry?.seq).toBe(h.seq);
    const body = entry!.body as { promotion_id: string; step: Record<string, any> };
    out.push({ actor: entry!.actor, step: body.step });
  }
  return out;
}

describe('advancePromotion over MCP', { timeout: 120_000 }, () => {
  it('an agent or a viewer may not advance: not listed to them, and FORBIDDEN when called', async () => {
    const listed = async (who: keyof typeof tok) =>
      (await clients[who]!.listTools()).tools.map((t) => t.name).includes('advancePromotion');
    expect(await listed('editor')).toBe(true);
    expect(await listed('agent')).toBe(false);
    expect(await listed('viewer')).toBe(false);
    // getProposal's `at` reaches MCP through the operation: its tool takes it.
    const tools = (await clients.viewer!.listTools()).tools;
    const getProposal = tools.find((t) => t.name === 'getProposal');
    expect(Object.keys(getProposal?.inputSchema.properties ?? {})).toContain('at');

    await held('mcp-1');
    const before = await head();
    for (const who of ['agent', 'viewer'] as const) {
      const refused = await tool(who, 'advancePromotion', {
        promotion: 'mcp-1',
        replay_artifacts: [ARTIFACT],
      });
      expect(refused.error, who).toMatchObject({ code: 'FORBIDDEN' });
      expect(refused.error.message, who).toBe('no tool "advancePromotion" for this token');
    }
    expect(await head()).toBe(before);
    const still = await tool('editor', 'getPromotion', { promotion: 'mcp-1' });
    expect(still.value.promotion.stage).toBe('candidate');
  });

  it('advances a held candidate through the plan into its canary, each step journaled as the caller', async () => {
    const advanced = await tool('editor', 'advancePromotion', {
      promotion: 'mcp-1',
      replay_artifacts: [ARTIFACT],
    });
    expect(advanced.error).toBeUndefined();
    const state = advanced.value.promotion;
    expect(state).toMatchObject({ stage: 'canary', rejected_at: null, reason: null });
    expect(state.history.map((h: { step: string; stage: string }) => [h.step, h.stage])).toEqual(
      PLAN,
    );
    const [, validate, check, publish, canary] = await journaled(state.history);
    for (const step of [validate, check, publish, canary]) expect(step!.actor).toBe('editor');
    // Replayed against the one stored verdict event, which the candidate decides alike.
    expect(validate!.step).toEqual({ step: 'validate', passed: true, replayed: 1, failures: [] });
    expect(check!.step).toEqual({ step: 'check', passed: true, reasons: [] });
    expect(publish!.step.step).toBe('publish');
    expect(state.publication).toEqual(publish!.step.publication);
    expect(canary!.step).toEqual({ step: 'canary' });
    expect(advanced.value).toMatchObject({ canary_mean: null, baseline_mean: null });
  });

  it('takes one validated by another hand on from there, through the rest of the plan', async () => {
    await held('mcp-2');
    await promotionsOf(rt).validate(P, { actor: 'olivia', role: 'owner' }, 'mcp-2', {
      artifacts: [ARTIFACT],
    });
    const advanced = await tool('editor', 'advancePromotion', { promotion: 'mcp-2' });
    expect(advanced.error).toBeUndefined();
    const history = advanced.value.promotion.history;
    expect(history.map((h: { step: string; stage: string }) => [h.step, h.stage])).toEqual(PLAN);
    const steps = await journaled(history);
    expect(steps.map((s) => s.actor)).toEqual(['editor', 'olivia', 'editor', 'editor', 'editor']);
  });

  it('in its canary or promoted there is nothing to advance; rolled back, it is PROMOTION_FINISHED', async () => {
    const before = await head();
    const open = await tool('editor', 'advancePromotion', { promotion: 'mcp-1' });
    expect(open.error).toMatchObject({
      code: 'PROMOTION_ILLEGAL_TRANSITION',
      details: { stage: 'canary' },
    });
    expect(await head()).toBe(before);

    // min_samples 3 on each arm: a canary no worse than the baseline is promoted on its own, one
    // below it by more than the margin (0.05) rolled back.
    const observe = (id: string, arm: string, value: number) =>
      tool('editor', 'observePromotion', { promotion: id, arm, value, samples: 1 });
    const decide = async (id: string, canary: number) => {
      for (let i = 0; i < 3; i++) expect((await observe(id, 'baseline', 1)).error).toBeUndefined();
      let last: Awaited<ReturnType<typeof observe>> | undefined;
      for (let i = 0; i < 3; i++) last = await observe(id, 'canary', canary);
      return last!.value.promotion.stage;
    };
    expect(await decide('mcp-1', 1)).toBe('promoted');
    expect(await decide('mcp-2', 0.5)).toBe('rolled_back');

    const decided = await head();
    // Promoted is no end: an owner may still roll it back. Rolled back is.
    const promoted = await tool('editor', 'advancePromotion', { promotion: 'mcp-1' });
    expect(promoted.error).toMatchObject({
      code: 'PROMOTION_ILLEGAL_TRANSITION',
      details: { stage: 'promoted' },
    });
    const finished = await tool('editor', 'advancePromotion', { promotion: 'mcp-2' });
    expect(finished.error).toMatchObject({
      code: 'PROMOTION_FINISHED',
      details: { promotion_id: 'mcp-2', stage: 'rolled_back' },
    });
    expect(await head()).toBe(decided);
  });

  it('stops where validation fails and says why; advanced again, PROMOTION_FINISHED', async () => {
    await held('mcp-3');
    // Without the artifact the stored verdict names, the replay has nothing to decide.
    const stopped = await tool('editor', 'advancePromotion', { promotion: 'mcp-3' });
    expect(stopped.error).toBeUndefined();
    expect(stopped.value.promotion).toMatchObject({
      stage: 'rejected',
      rejected_at: 'validation',
    });
    expect(stopped.value.promotion.reason).toMatch(/REPLAY_INPUT_MISSING/);
    expect(
      stopped.value.promotion.history.map((h: { step: string; stage: string }) => [
        h.step,
        h.stage,
      ]),
    ).toEqual([
      ['propose', 'candidate'],
      ['validate', 'rejected'],
    ]);
    const again = await tool('editor', 'advancePromotion', {
      promotion: 'mcp-3',
      replay_artifacts: [ARTIFACT],
    });
    expect(again.error).toMatchObject({
      code: 'PROMOTION_FINISHED',
      details: { stage: 'rejected' },
    });
  });

  it('an unknown promotion is UNKNOWN_PROMOTION; a body out of shape is refused before any step', async () => {
    const unknown = await tool('editor', 'advancePromotion', { promotion: 'nope' });
    expect(unknown.error).toMatchObject({ code: 'UNKNOWN_PROMOTION' });
    await held('mcp-4');
    const before = await head();
    const bad = await tool('editor', 'advancePromotion', {
      promotion: 'mcp-4',
      replay_artifacts: 'x',
    });
    expect(bad.error?.code).toMatch(/^INVALID_/);
    expect(await head()).toBe(before);
  });
});
