import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_METADATA_HASH } from '../../src/kernel/index.js';
import { CLI, runCli } from '../helpers/cli.js';
import { refundProtocol, tempDir } from '../helpers/runtime.js';

let dir: string;
let cleanup: () => void;
const children: ChildProcess[] = [];

beforeAll(() => {
  ({ dir, cleanup } = tempDir());
});
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  cleanup();
});

/** Starts `canonry serve` on an ephemeral port and resolves to its base URL. */
function serve(env: Record<string, string>): Promise<string> {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--port', '0', '--data', join(dir, 'data')],
    {
      env: { ...process.env, CANONRY_LOG_LEVEL: 'silent', ...env },
    },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
      const match = /listening on (http:\/\/[^\s]+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}

async function validate(url: string, artifact: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(`${url}/v1/validate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      artifact,
      agentic_protocol: refundProtocol(),
      generation_metadata_hash: EMPTY_METADATA_HASH,
    }),
  });
  return { status: res.status, text: await res.text() };
}

describe('canonry serve', () => {
  it('gives byte-identical verdicts and events whatever the time zone, locale or process', async () => {
    const a = await serve({ TZ: 'UTC', LANG: 'C' });
    const b = await serve({ TZ: 'Pacific/Kiritimati', LANG: 'tr_TR.UTF-8', LC_ALL: 'tr_TR.UTF-8' });
    for (const artifact of [{ amount: 20 }, { amount: 640 }, { amount: 1e7 }, { amount: 'x' }]) {
      const [ra, rb] = [await validate(a, artifact), await validate(b, artifact)];
      expect(rb.status).toBe(ra.status);
      expect(rb.text).toBe(ra.text);
    }
  });

  it('refuses a bad port with a typed error', async () => {
    const res = await runCli(['serve', '--port', '70000', '--data', join(dir, 'data')]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('INVALID_ARGUMENT');
  });
});

describe('canonry demo', () => {
  it('runs the refund loop: one refund moves, injection and large amounts never reach it', async () => {
    const res = await runCli(['demo', 'refund', '--data', join(dir, 'demo'), '--json']);
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out.results.map((r: { terminal: string }) => r.terminal)).toEqual([
      'REFUNDED',
      'MANAGER_QUEUE',
      'BLOCKED',
      'HUMAN_REVIEW',
    ]);
    expect(out.ledger).toEqual([{ refund_id: 'rf_1', amount: 20, currency: 'USD' }]);
    expect(out.verified_event.result).toBe('VERIFIED');
    const human = await runCli(['demo', 'refund', '--data', join(dir, 'demo')]);
    expect(human.stdout).toContain('extract_refund');
    expect(human.stdout).toMatch(/INVALID_REQUEST → HUMAN_REVIEW/);
  });
});

describe('canonry demo (the LCSM §1 story)', () => {
  it('ends with the violet identity current, the colour positions superseded or rejected, the component stale', async () => {
    const res = await runCli(['demo', '--data', join(dir, 'story'), '--json']);
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out.steps).toHaveLength(7);
    expect(out.board.active.map((o: { object_id: string }) => o.object_id)).toEqual([
      'design.identity',
    ]);
    expect(
      out.board.superseded.map((o: { object_id: string; superseded_by: string }) => [
        o.object_id,
        o.superseded_by,
      ]),
    ).toEqual([['ui.colour', 'design.identity']]);
    const blue = out.proposals.find((p: { candidate: { text: string } }) =>
      p.candidate.text.includes('blue'),
    );
    expect(blue.status).toBe('rejected');
    expect(out.artifacts[0].manifest.acceptance_state).toBe('rejected');
    expect(out.artifacts[0].state).toBe('definitely_stale');
    expect(out.provenance.authorized_by.gate).toBe('HARD_STOP');
    expect(out.workingSet.capsule).toContain('violet');
    expect(out.workingSet.capsule).not.toMatch(/red is still preferred|I propose blue/i);
    // It leaves the project to open in the workbench, with a working owner token for it.
    expect(out.workbench).toEqual(
      expect.objectContaining({ project: 'demo', principal: 'alice', role: 'owner' }),
    );
    expect(out.workbench.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?project=demo$/);
    const shown = await runCli([
      'canon',
      'whoami',
      '--data',
      join(dir, 'story'),
      '--project',
      'demo',
      '--token',
      out.workbench.token,
      '--json',
    ]);
    expect(JSON.parse(shown.stdout)).toEqual({
      project: 'demo',
      principal: 'alice',
      role: 'owner',
    });
    const human = await runCli(['demo', '--data', join(dir, 'story2')]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Provenance of design.identity');
    expect(human.stdout).toMatch(/receipt rcpt:demo:\d+/);
    expect(human.stdout).toMatch(/Open it in the workbench:[\s\S]*\?project=demo[\s\S]*cnr_/);
  });

  it('refuses an unknown demo', async () => {
    const res = await runCli(['demo', 'nope', '--data', join(dir, 'x')]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('INVALID_ARGUMENT');
  });
});
