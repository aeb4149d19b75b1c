// A promotion from the built CLI (child processes) on a real data directory where the coordinator
// made the events, as a user would, with nothing handed in by a library caller: `canon
// promotion-start` with advance false holds the candidate at proposed, `canon promotion-advance`
// takes it through replay validation against the stored events (an AIR candidate against a relay
// window, replayed from its journaled answers; a protocol candidate against the kernel's verdict,
// with the artifact the audit does not keep given by `--replay-artifacts`), checks and publication
// into its canary; advancing again is refused, typed, exit 1.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import type { Principal } from '../../src/canon/index.js';
import {
  EventStore,
  KERNEL_VERDICT_CLASS,
  RELAY_WINDOW_CLASS,
  type StoredEvent,
} from '../../src/evolution/index.js';
import { EMPTY_METADATA_HASH } from '../../src/kernel/index.js';
import { ScriptedModel } from '../../src/models/index.js';
import { issueTokens, runCli } from '../helpers/cli.js';
import { oneFactAnswer } from '../helpers/model-answers.js';
import { readRepoJson, tempDir } from '../helpers/runtime.js';

const PROJECT = 'promo-cli';
const AGENT: Principal = { id: 'agent-1', project: PROJECT, role: 'agent' };
const artifact = { amount: 500 };

let dir: string;
let cleanup: () => void;
let windowEvent: string;
let verdictEvent: string;
let protocol: Record<string, unknown>;
let refundHash: string;
let token: string;

const open = (): Promise<CanonryRuntime> =>
  createCanonry({ dataDir: dir, evolution: 'on', logLevel: 'silent' });

async function events(rt: CanonryRuntime, project: string): Promise<StoredEvent[]> {
  const store = new EventStore(rt.store);
  const rows = await store.list(project, { limit: 500 });
  return Promise.all(rows.map((r) => store.get(project, r.event_id)));
}

const cli = (args: string[]) =>
  runCli([...args, '--data', dir, '--json'], { env: { CANONRY_TOKEN: '' } });

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('canonry-promo-cli-'));
  protocol = readRepoJson('examples/refund/protocol.json') as Record<string, unknown>;
  let rt = await open();
  try {
    const registered = await rt.kernel.registry.register(protocol);
    refundHash = registered.protocol.hash;
    rt.kernel.evaluate(artifact, registered.protocol, EMPTY_METADATA_HASH);
    const answers = [oneFactAnswer('Install', 'the package is canonry')];
    const model = new ScriptedModel([{ match: () => true, respond: () => answers[0]! }]);
    const { session } = await rt.relay.start(AGENT, {
      mode: 'DOCUMENT',
      objective: 'A runbook',
      remaining: ['Install'],
    });
    await rt.relay.run(AGENT, session.session_id, model, { maxWindows: 1 });
  } finally {
    await rt.close();
  }
  rt = await open();
  try {
    await rt.evolution!.idle();
    const windows = (await events(rt, PROJECT)).filter(
      (e) => e.event.replay?.execution_class === RELAY_WINDOW_CLASS,
    );
    expect(windows).toHaveLength(1);
    windowEvent = windows[0]!.event.event_id;
    const verdicts = (await events(rt, 'evolution')).filter(
      (e) =>
        e.event.replay?.execution_class === KERNEL_VERDICT_CLASS &&
        e.event.outcome.protocol_hash === refundHash,
    );
    expect(verdicts).toHaveLength(1);
    verdictEvent = verdicts[0]!.event.event_id;
  } finally {
    await rt.close();
  }
  token = (await issueTokens(dir, PROJECT, [['editor', 'editor']])).editor!;
}, 240_000);
afterAll(() => cleanup?.());

/** `canon promotion-start --file` with advance false: the candidate held at proposed. */
async function held(candidate: Record<string, unknown>) {
  const file = join(dir, `${candidate.promotion_id}.json`);
  writeFileSync(file, JSON.stringify({ ...candidate, advance: false }));
  const r = await cli(['canon', 'promotion-start', '--file', file, '--token', token]);
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout).promotion.stage).toBe('candidate');
}

const stages = (out: string) =>
  (JSON.parse(out).promotion.history as { stage: string }[]).map((h) => h.stage);

describe('canonry canon promotion-advance', { timeout: 240_000 }, () => {
  it('an AIR candidate held at proposed is advanced into its canary against the stored relay window', async () => {
    await held({
      promotion_id: 'air-1',
      artifact_kind: 'air_settings',
      artifact: { mode: 'adaptive', iap_budget: 384 },
      baseline: null,
      canary: { share: 0.1, projects: [] },
      metric: { name: 'session_iq', margin: 0.02, min_samples: 5 },
      replay_events: [windowEvent],
    });
    const r = await cli(['canon', 'promotion-advance', 'air-1', '--token', token]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).promotion.stage).toBe('canary');
    expect(stages(r.stdout)).toEqual(['candidate', 'validated', 'checked', 'published', 'canary']);

    const again = await cli(['canon', 'promotion-advance', 'air-1', '--token', token]);
    expect(again.code).toBe(1);
    expect(`${again.stdout}${again.stderr}`).toMatch(/PROMOTION_ILLEGAL_TRANSITION/);
  });

  it('a protocol candidate is advanced against the kernel verdict with the artifact given', async () => {
    await held({
      promotion_id: 'proto-1',
      artifact_kind: 'agentic_protocol',
      artifact: { ...protocol, version: `${protocol.version}.1` },
      baseline: refundHash,
      canary: { share: 0, projects: [PROJECT] },
      metric: { name: 'drift_free', margin: 0.05, min_samples: 3 },
      replay_events: [verdictEvent],
    });
    const r = await cli([
      'canon',
      'promotion-advance',
      'proto-1',
      '--replay-artifacts',
      JSON.stringify([artifact]),
      '--token',
      token,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).promotion.stage).toBe('canary');

    const unknown = await cli(['canon', 'promotion-advance', 'nope', '--token', token]);
    expect(unknown.code).toBe(1);
    expect(`${unknown.stdout}${unknown.stderr}`).toMatch(/UNKNOWN_PROMOTION/);
  });
});
