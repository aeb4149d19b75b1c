// Proposal governance through the built CLI (run `npm run build` first): a tool token; `intent`
// required in a proposal file; after STALE_APPROVAL, `canon proposal` says which base to acknowledge
// and `canon approve` commits only with `--base`; a closed proposal reads as decided, not pending.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/runtime.js';

let dir: string;
let cleanup: () => void;
const tok: Record<string, string> = {};

beforeAll(() => {
  ({ dir, cleanup } = tempDir('canonry-cli-gov-'));
});
afterAll(() => cleanup?.());

const cli = (args: string[]) => runCli([...args, '--data', dir], { env: { CANONRY_TOKEN: '' } });
const json = async (args: string[]) => {
  const r = await cli([...args, '--json']);
  expect(r.code, `${args.join(' ')}: ${r.stderr}${r.stdout}`).toBe(0);
  return JSON.parse(r.stdout);
};
const proposeFile = async (token: string, body: unknown, flags = ['--json']) => {
  const file = join(dir, 'proposal.json');
  writeFileSync(file, JSON.stringify(body));
  return cli(['canon', 'propose', '--file', file, '--token', token, ...flags]);
};
const fact = (text: string) => ({ object_type: 'fact', title: 'Release train', text });

describe('canonry canon governance', { timeout: 240_000 }, () => {
  it('issues a tool token', async () => {
    for (const [name, role] of [
      ['alice', 'owner'],
      ['bob', 'editor'],
      ['assistant', 'agent'],
      ['ci', 'tool'],
    ] as const) {
      const out = await json([
        'tokens',
        'create',
        '--project',
        'p',
        '--principal',
        name,
        '--role',
        role,
      ]);
      expect(out.info).toMatchObject({ principal: name, role });
      tok[name] = out.token;
    }
  });

  it('a proposal file without intent is refused', async () => {
    const r = await proposeFile(
      tok.alice!,
      {
        object_id: 'release.train',
        base_version: null,
        candidate: fact('The release train is weekly.'),
      },
      [],
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^canonry: INVALID_PROPOSAL: intent is required/);
  });

  it('after STALE_APPROVAL only `approve --base <new head>` commits', async () => {
    const made = JSON.parse(
      (
        await proposeFile(tok.alice!, {
          object_id: 'release.train',
          intent: 'create',
          base_version: null,
          candidate: fact('The release train is weekly.'),
        })
      ).stdout,
    );
    const v1 = made.committed.version_hash;
    const held = JSON.parse(
      (
        await proposeFile(tok.assistant!, {
          object_id: 'release.train',
          intent: 'update',
          base_version: v1,
          candidate: fact('The release train is weekly. Hotfixes ship daily.'),
        })
      ).stdout,
    );
    const id = held.proposal.proposal_id;
    const moved = JSON.parse(
      (
        await proposeFile(tok.alice!, {
          object_id: 'release.train',
          intent: 'update',
          base_version: v1,
          candidate: fact('The release train is biweekly.'),
        })
      ).stdout,
    );
    const v2 = moved.committed.version_hash;

    const stale = await cli(['canon', 'approve', id, '--token', tok.bob!]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/^canonry: STALE_APPROVAL:/);
    const view = await cli(['canon', 'proposal', id, '--token', tok.bob!]);
    expect(view.stdout).toContain(`approve with --base ${v2}`);
    expect(view.stdout).toContain('CURRENT   The release train is biweekly.');

    const again = await cli(['canon', 'approve', id, '--token', tok.bob!]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^canonry: BASE_NOT_ACKNOWLEDGED:/);
    const done = await cli(['canon', 'approve', id, '--base', v2, '--token', tok.bob!]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/^approved: .*→ committed, now version 3/);

    const closed = await cli(['canon', 'proposal', id, '--token', tok.ci!]);
    expect(closed.stdout.split('\n')[0]).toBe(
      `${id} update release.train: committed, editor approval was required, approved by bob (editor)`,
    );
    expect(closed.stdout).not.toContain('needs');
  });
});
