// `canonry canon` disputes through the built CLI (run `npm run build` first), on a real data
// directory: a dispute proposed from a file keeps both claims (`canon object` lists them), and
// `canon resolve` records which claim stands and why (`canon provenance` shows it with the claims).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/runtime.js';

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  ({ dir, cleanup } = tempDir('canonry-cli-disputes-'));
});
afterAll(() => cleanup?.());

const cli = (args: string[], token = '') =>
  runCli([...args, '--data', dir], { env: { CANONRY_TOKEN: token } });
const json = async (args: string[], token: string) => {
  const r = await cli([...args, '--json'], token);
  expect(r.code, `${args.join(' ')}: ${r.stderr}${r.stdout}`).toBe(0);
  return JSON.parse(r.stdout);
};

describe('canonry canon resolve', { timeout: 240_000 }, () => {
  it('a dispute from a file keeps both claims; resolve records which stands and why', async () => {
    const tok: Record<string, string> = {};
    for (const [name, role] of [
      ['olivia', 'owner'],
      ['eddie', 'editor'],
    ] as const) {
      const out = await json(
        ['tokens', 'create', '--project', 'p', '--principal', name, '--role', role],
        '',
      );
      tok[name] = out.token;
    }
    const file = (name: string, value: unknown) => {
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify(value));
      return path;
    };
    const created = await json(
      [
        'canon',
        'propose',
        '--file',
        file('create.json', {
          object_id: 'ops.region',
          intent: 'create',
          base_version: null,
          candidate: { object_type: 'fact', title: 'Region', text: 'We deploy to eu-west-1.' },
        }),
      ],
      tok.olivia!,
    );
    const disputed = await json(
      [
        'canon',
        'propose',
        '--file',
        file('dispute.json', {
          object_id: 'ops.region',
          intent: 'dispute',
          base_version: created.committed.version_hash,
          candidate: { object_type: 'fact', title: 'Region', text: 'We deploy to eu-central-1.' },
        }),
      ],
      tok.eddie!,
    );
    const [, competing] = disputed.committed.claims;
    const shown = await cli(['canon', 'object', 'ops.region'], tok.olivia);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('disputed');
    expect(shown.stdout).toContain('open: "We deploy to eu-west-1." held by olivia (owner)');
    expect(shown.stdout).toContain(
      `claim ${competing.claim_id} open: "We deploy to eu-central-1." held by eddie (editor)`,
    );

    const missing = await cli(
      ['canon', 'resolve', 'ops.region', '--claim', competing.claim_id],
      tok.olivia,
    );
    expect(missing.code).not.toBe(0);
    const bad = await cli(
      ['canon', 'resolve', 'ops.region', '--claim', 'nope', '--rationale', 'x'],
      tok.olivia,
    );
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/^canonry: INVALID_BODY:/);
    const unknown = await cli(
      ['canon', 'resolve', 'ops.region', '--claim', `claim_${'0'.repeat(16)}`, '--rationale', 'x'],
      tok.olivia,
    );
    expect(unknown.stderr).toMatch(/^canonry: UNKNOWN_CLAIM:/);

    const resolved = await cli(
      [
        'canon',
        'resolve',
        'ops.region',
        '--claim',
        competing.claim_id,
        '--rationale',
        'The load balancer lives in Frankfurt.',
      ],
      tok.olivia,
    );
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(resolved.stdout).toMatch(/resolve ops\.region: .*→ committed, now version 3/);
    const walk = await cli(['canon', 'provenance', 'ops.region'], tok.eddie);
    expect(walk.stdout).toContain(
      `resolved: ${competing.claim_id} stands; why: The load balancer lives in Frankfurt.`,
    );
    expect(walk.stdout).toContain('set_aside: "We deploy to eu-west-1."');
    expect(walk.stdout).toContain(
      `claim ${competing.claim_id} stands: "We deploy to eu-central-1."`,
    );
  });
});
