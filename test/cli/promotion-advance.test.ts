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
import type { Principal } from '../../src/canon/index.js';
import { issueTokens, runCli } from '../helpers/cli.js';
import { madeReplayEvents } from '../helpers/replay-events.js';
import { tempDir } from '../helpers/runtime.js';

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

const cli = (args: string[]) =>
  runCli([...args, '--data', dir, '--json'], { env: { CANONRY_TOKEN: '' } });

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('canonry-promo-cli-'));
  const made = await madeReplayEvents(dir, AGENT, artifact, [
    ['Install', 'the package is canonry'],
  ]);
  ({ protocol, refundHash } = made);
  expect(made.windows).toHaveLength(1);
  windowEvent = made.windows[0]!.event.event_id;
  expect(made.verdicts).toHaveLength(1);
  verdictEvent = made.verdicts[0]!.event.event_id;
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
