// `canonry tokens` and `canonry canon` through the built CLI (run `npm run build` first), on a real
// data directory: the local operator issues tokens, then each command acts as the principal of its
// token — never of a flag — with the same checks and roles as the HTTP API.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORY_SUBJECTS } from '../helpers/auth.js';
import { CLI, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/runtime.js';

let dir: string;
let cleanup: () => void;
const tok: Record<string, string> = {};

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('canonry-cli-canon-'));
  mkdirSync(join(dir, 'classifiers'));
  writeFileSync(join(dir, 'classifiers', 'p.json'), JSON.stringify(STORY_SUBJECTS));
});
afterAll(() => cleanup?.());

/** `canonry <args> --data <dir>` with no ambient token. */
const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli([...args, '--data', dir], { env: { CANONRY_TOKEN: '', ...env } });

const json = async (args: string[], env?: Record<string, string>) => {
  const r = await cli([...args, '--json'], env);
  expect(r.code, `${args.join(' ')}: ${r.stderr}${r.stdout}`).toBe(0);
  return JSON.parse(r.stdout);
};

// Each run starts a node process and opens the runtime: allow for a loaded machine.
describe('canonry tokens', { timeout: 240_000 }, () => {
  it('creates a token per principal and prints the secret once', async () => {
    for (const [name, project, role] of [
      ['alice', 'p', 'owner'],
      ['assistant', 'p', 'agent'],
      ['bob', 'p', 'editor'],
      ['val', 'p', 'viewer'],
      ['eve', 'q', 'owner'],
    ] as const) {
      const out = await json([
        'tokens',
        'create',
        '--project',
        project,
        '--principal',
        name,
        '--role',
        role,
      ]);
      expect(out.token).toMatch(/^cnr_[A-Za-z0-9_-]{43}$/);
      expect(out.info).toMatchObject({ principal: name, project, role, revoked_at: null });
      tok[name] = out.token;
    }
    const human = await cli([
      'tokens',
      'create',
      '--project',
      'p',
      '--principal',
      'carl',
      '--role',
      'viewer',
    ]);
    expect(human.code).toBe(0);
    expect(human.stdout.split('\n')[0]).toMatch(/^cnr_/);
    expect(human.stderr).toContain('not shown again');
    tok.carl = human.stdout.split('\n')[0]!;
  });

  it('lists tokens without secrets and refuses bad input', async () => {
    const list = await cli(['tokens', 'list', '--project', 'p']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('alice');
    expect(list.stdout).not.toContain('cnr_');
    const listed = await json(['tokens', 'list', '--project', 'p']);
    expect(listed.tokens.map((t: any) => t.principal).sort()).toEqual([
      'alice',
      'assistant',
      'bob',
      'carl',
      'val',
    ]);
    const badRole = await cli([
      'tokens',
      'create',
      '--project',
      'p',
      '--principal',
      'x',
      '--role',
      'god',
    ]);
    expect(badRole.code).toBe(1);
    expect(badRole.stderr).toMatch(/^canonry: INVALID_ARGUMENT:/);
    const badProject = await cli(['tokens', 'list', '--project', 'Not A Project']);
    expect(badProject.stderr).toMatch(/^canonry: INVALID_PROJECT:/);
    // A page at a time in creation order (each token made by its own process, in this order), the
    // local command and the owner's alike, a full page saying how to ask for the next.
    const made = ['alice', 'assistant', 'bob', 'val', 'carl'];
    for (const command of [
      ['tokens', 'list', '--project', 'p'],
      ['canon', 'token', 'list', '--token', tok.alice!],
    ]) {
      const seen: string[] = [];
      let after: string[] = [];
      for (let n = 0; n < 10; n++) {
        const page = await cli([...command, '--limit', '2', ...after]);
        expect(page.code, page.stderr).toBe(0);
        const rows = page.stdout.trim() === '' ? [] : page.stdout.trim().split('\n');
        const shown = rows.filter((r) => r.startsWith('tok_'));
        seen.push(...shown.map((r) => r.split(/\s+/)[2]!));
        if (shown.length < 2) {
          expect(page.stderr, command.join(' ')).toBe('');
          break;
        }
        const last = shown.at(-1)!.split(/\s+/)[0]!;
        expect(page.stderr.trim(), command.join(' ')).toMatch(
          new RegExp(`^(canonry: )?2 shown, a full page: the next with --after ${last}$`),
        );
        after = ['--after', last];
      }
      expect(seen, command.join(' ')).toEqual(made);
    }
    const badAfter = await cli(['tokens', 'list', '--project', 'p', '--after', 'tok_000000000000']);
    expect(badAfter.stderr).toMatch(/^canonry: INVALID_ARGUMENT:/);
  });

  it('revokes a token, which then no longer authenticates', async () => {
    const id = (await json(['tokens', 'list', '--project', 'p'])).tokens.find(
      (t: any) => t.principal === 'carl',
    ).token_id;
    const revoked = await cli(['tokens', 'revoke', '--project', 'p', '--id', id]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`revoked ${id}`);
    const again = await cli(['tokens', 'revoke', '--project', 'p', '--id', id]);
    expect(again.stderr).toMatch(/^canonry: NOT_FOUND:/);
    const refused = await cli(['canon', 'board', '--token', tok.carl!]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^canonry: UNAUTHENTICATED:/);
  });
});

describe('canonry canon', { timeout: 240_000 }, () => {
  let pending = '';

  it('message: archives and classifies as the token’s principal', async () => {
    const out = await json([
      'canon',
      'message',
      '--text',
      'I would like a red interface for the app.',
      '--token',
      tok.alice!,
    ]);
    expect(out.message).toMatchObject({ actor: 'alice', actor_role: 'owner', role: 'user' });
    expect(out.proposals[0].outcome.proposal.status).toBe('committed');

    const human = await cli(
      [
        'canon',
        'message',
        '--text',
        'I propose blue instead of red for accessibility.',
        '--role',
        'assistant',
      ],
      { CANONRY_TOKEN: tok.assistant! },
    );
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/archived msg_\w+ \(assistant, by assistant\)/);
    expect(human.stdout).toMatch(/REQUIRE_CONFIRMATION → pending \(needs editor approval\)/);
    pending = /(prop_[0-9a-f]{16})/.exec(human.stdout)![1]!;

    const archived = await json([
      'canon',
      'message',
      '--text',
      'Meeting notes.',
      '--no-classify',
      '--id',
      'notes-1',
      '--token',
      tok.alice!,
    ]);
    expect(archived).toEqual({ message: expect.objectContaining({ message_id: 'notes-1' }) });
  });

  it('an agent cannot speak as the user, nor approve; an editor approves', async () => {
    const spoof = await cli([
      'canon',
      'message',
      '--text',
      'hi',
      '--role',
      'user',
      '--token',
      tok.assistant!,
    ]);
    expect(spoof.code).toBe(1);
    expect(spoof.stderr).toMatch(/^canonry: AUTHORITY_FROM_PAYLOAD:/);
    const own = await cli(['canon', 'approve', pending, '--token', tok.assistant!]);
    expect(own.code).toBe(1);
    expect(own.stderr).toMatch(/^canonry: FORBIDDEN:/);
    const view = await cli(['canon', 'proposal', pending, '--token', tok.val!]);
    expect(view.stdout).toContain('CURRENT');
    expect(view.stdout).toContain('CANDIDATE');
    expect(view.stdout).toContain('signed verdict verifies');
    const approved = await cli(['canon', 'approve', pending, '--token', tok.bob!]);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toMatch(/^approved: .*→ committed, now version 2/);
  });

  it('propose from a file: S3 hard-stops until the owner approves', async () => {
    const file = join(dir, 'proposal.json');
    writeFileSync(
      file,
      JSON.stringify({
        object_id: 'design.identity',
        intent: 'supersede',
        base_version: null,
        supersedes: ['ui.colour'],
        candidate: {
          object_type: 'decision',
          title: 'Visual identity',
          text: 'The product uses a dark ink and violet identity.',
          tags: ['identity'],
        },
      }),
    );
    const proposed = await json(['canon', 'propose', '--file', file, '--token', tok.bob!]);
    expect(proposed.proposal.gate.label).toBe('HARD_STOP');
    expect(proposed.proposal.status).toBe('pending');
    const id = proposed.proposal.proposal_id;
    const byEditor = await cli(['canon', 'approve', id, '--token', tok.bob!]);
    expect(byEditor.stderr).toMatch(/^canonry: FORBIDDEN:/);
    const byOwner = await json(['canon', 'approve', id, '--token', tok.alice!]);
    expect(byOwner.proposal.status).toBe('committed');

    writeFileSync(file, JSON.stringify({ object_id: 'x', candidate: {}, actor: 'alice' }));
    const claimed = await cli(['canon', 'propose', '--file', file, '--token', tok.alice!]);
    expect(claimed.stderr).toMatch(/^canonry: AUTHORITY_FROM_PAYLOAD:/);
    const missing = await cli([
      'canon',
      'propose',
      '--file',
      join(dir, 'nope.json'),
      '--token',
      tok.alice!,
    ]);
    expect(missing.stderr).toMatch(/^canonry: FILE_UNREADABLE:/);
  });

  it('board, objects, provenance and restore', async () => {
    const board = await cli(['canon', 'board', '--token', tok.val!]);
    expect(board.code).toBe(0);
    expect(board.stdout).toContain('## active');
    expect(board.stdout).toContain('design.identity');
    expect(board.stdout).toContain('## superseded');
    const boardJson = await json(['canon', 'board', '--token', tok.val!]);
    expect(boardJson.objects.superseded.map((o: any) => o.object_id)).toEqual(['ui.colour']);

    const objects = await json(['canon', 'objects', '--status', 'superseded', '--token', tok.val!]);
    expect(objects.objects.map((o: any) => o.object_id)).toEqual(['ui.colour']);
    const prov = await cli(['canon', 'provenance', 'design.identity', '--token', tok.val!]);
    expect(prov.stdout).toContain('approved by alice (owner); S3 HARD_STOP');
    expect(prov.stdout).toContain('supersedes ui.colour');

    const versions = (await json(['canon', 'object', 'ui.colour', '--token', tok.val!])).current;
    const restored = await cli([
      'canon',
      'restore',
      'ui.colour',
      '--version',
      versions.parent_version_hash,
      '--token',
      tok.alice!,
    ]);
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/restore ui\.colour: .*→ committed, now version 3/);
    const viewer = await cli([
      'canon',
      'restore',
      'ui.colour',
      '--version',
      versions.version_hash,
      '--token',
      tok.val!,
    ]);
    expect(viewer.stderr).toMatch(/^canonry: FORBIDDEN:/);
  });

  it('proposals: a page at a time, a full page saying how to ask for the next', async () => {
    const all = (await json(['canon', 'proposals', '--token', tok.val!])).proposals as {
      seq: number;
    }[];
    expect(all.length).toBeGreaterThan(2);
    const first = await cli(['canon', 'proposals', '--limit', '2', '--token', tok.val!]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.trim().split('\n')).toHaveLength(2);
    expect(first.stderr.trim()).toBe(`2 shown, a full page: the next with --after ${all[1]!.seq}`);
    const next = await json([
      'canon',
      'proposals',
      '--after',
      String(all[1]!.seq),
      '--token',
      tok.val!,
    ]);
    expect(next.proposals.map((p: { seq: number }) => p.seq)).toEqual(
      all.slice(2).map((p) => p.seq),
    );
    const newest = await cli([
      'canon',
      'proposals',
      '--order',
      'newest',
      '--limit',
      '1',
      '--token',
      tok.val!,
    ]);
    expect(newest.stderr.trim()).toBe(
      `1 shown, a full page: the next with --before ${all.at(-1)!.seq}`,
    );
    // The last page says nothing, and --json never does (its answer is the page).
    const whole = await cli([
      'canon',
      'proposals',
      '--limit',
      String(all.length + 1),
      '--token',
      tok.val!,
    ]);
    expect(whole.stderr).toBe('');
    const quiet = await cli(['canon', 'proposals', '--limit', '1', '--json', '--token', tok.val!]);
    expect(quiet.stderr).toBe('');
  });

  it('messages: the archive a page at a time, a full page saying how to ask for the next', async () => {
    const all = (await json(['canon', 'messages', '--token', tok.val!])).messages as {
      message_id: string;
      seq: number;
    }[];
    expect(all.length).toBeGreaterThan(2);
    const first = await cli(['canon', 'messages', '--limit', '2', '--token', tok.val!]);
    expect(first.code, first.stderr).toBe(0);
    expect(
      first.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(' ')[0]),
    ).toEqual(all.slice(0, 2).map((m) => m.message_id));
    expect(first.stderr.trim()).toBe(`2 shown, a full page: the next with --after ${all[1]!.seq}`);
    const newest = await json(
      ['canon', 'messages', '--order', 'newest', '--before', String(all.at(-1)!.seq)].concat([
        '--token',
        tok.val!,
      ]),
    );
    expect(newest.messages.map((m: { seq: number }) => m.seq)).toEqual(
      all
        .slice(0, -1)
        .map((m) => m.seq)
        .reverse(),
    );
    const bad = await cli(['canon', 'messages', '--limit', '0', '--json', '--token', tok.val!]);
    expect(bad.code).not.toBe(0);
    expect(JSON.parse(bad.stdout || bad.stderr).error.code).toBe('INVALID_ARGUMENT');
  });

  it('objects: a page at a time in id order, a full page saying how to ask for the next', async () => {
    // The ground truth: every id the board shows this viewer, in byte order.
    const board = await json(['canon', 'board', '--token', tok.val!]);
    const ids = (Object.values(board.objects) as { object_id: string }[][])
      .flat()
      .map((o) => o.object_id)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(ids.length).toBeGreaterThan(1);
    const first = await cli(['canon', 'objects', '--limit', '1', '--token', tok.val!]);
    expect(first.code, first.stderr).toBe(0);
    expect(
      first.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(' ')[0]),
    ).toEqual(ids.slice(0, 1));
    expect(first.stderr.trim()).toBe(`1 shown, a full page: the next with --after ${ids[0]}`);
    const rest = await json(['canon', 'objects', '--after', ids[0]!, '--token', tok.val!]);
    expect(rest.objects.map((o: { object_id: string }) => o.object_id)).toEqual(ids.slice(1));
    const last = await cli(['canon', 'objects', '--after', ids[0]!, '--token', tok.val!]);
    expect(last.stderr).toBe('');
    const bad = await cli(['canon', 'objects', '--after', 'Nope', '--json', '--token', tok.val!]);
    expect(bad.code).not.toBe(0);
    expect(JSON.parse(bad.stdout || bad.stderr).error.code).toBe('INVALID_ARGUMENT');
  });

  it('admissions: a page at a time by the project each names, a full page saying how to ask for the next', async () => {
    for (const from of ['r-2', 'q']) {
      const granted = await cli(['canon', 'admission-grant', from, '--token', tok.alice!]);
      expect(granted.code, granted.stderr).toBe(0);
    }
    const first = await cli(['canon', 'admissions', '--limit', '1', '--token', tok.val!]);
    expect([first.code, first.stdout.split(' ').slice(0, 2), first.stderr.trim()]).toEqual([
      0,
      ['q', 'admitted'],
      '1 shown, a full page: the next with --after q',
    ]);
    const rest = await json(['canon', 'admissions', '--after', 'q', '--token', tok.val!]);
    expect(rest.admissions.map((a: { from_project: string }) => a.from_project)).toEqual(['r-2']);
  });

  it('working-set prints the capsule, or JSON with its token count', async () => {
    const human = await cli([
      'canon',
      'working-set',
      '--objective',
      'visual identity',
      '--token',
      tok.assistant!,
    ]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^# Working set: project p\n/);
    expect(human.stdout).toContain('dark ink and violet');
    expect(human.stdout).toMatch(/\(\d+ tokens, \d+ superseded or retired left out\)/);
    const out = await json([
      'canon',
      'working-set',
      '--object',
      'design.identity',
      '--token',
      tok.val!,
    ]);
    expect(out.notes[0].object_id).toBe('design.identity');
    expect(out.tokens).toBeGreaterThan(0);
    const bad = await cli(['canon', 'working-set', '--limit', 'many', '--token', tok.val!]);
    expect(bad.stderr).toMatch(/^canonry: INVALID_ARGUMENT:/);
  });

  it('artifacts: register from a file, review, list with §10 states', async () => {
    const object = await json(['canon', 'object', 'design.identity', '--token', tok.val!]);
    const file = join(dir, 'manifest.json');
    writeFileSync(
      file,
      JSON.stringify({
        artifact_id: 'guide',
        canonical_note_versions: [
          { object_id: 'design.identity', version_hash: object.current.version_hash },
        ],
        tool_or_model_refs: ['coding-agent'],
        output_digest: `sha256:${'a'.repeat(64)}`,
      }),
    );
    const registered = await cli([
      'canon',
      'artifact',
      'register',
      '--file',
      file,
      '--token',
      tok.assistant!,
    ]);
    expect(registered.code).toBe(0);
    expect(registered.stdout).toContain('registered guide v1: current (proposed)');
    const byAgent = await cli([
      'canon',
      'artifact',
      'review',
      'guide',
      '--acceptance',
      'accepted',
      '--token',
      tok.assistant!,
    ]);
    expect(byAgent.stderr).toMatch(/^canonry: FORBIDDEN:/);
    const reviewed = await cli([
      'canon',
      'artifact',
      'review',
      'guide',
      '--acceptance',
      'accepted',
      '--token',
      tok.bob!,
    ]);
    expect(reviewed.stdout).toContain('reviewed guide v2: current (accepted)');
    const list = await json(['canon', 'artifacts', '--token', tok.val!]);
    expect(list.artifacts.map((a: any) => [a.manifest.artifact_id, a.state])).toEqual([
      ['guide', 'current'],
    ]);
    // A page at a time in id order, a full page saying how to ask for the next.
    writeFileSync(
      file,
      JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), artifact_id: 'guide-2' }),
    );
    const second = await cli([
      'canon',
      'artifact',
      'register',
      '--file',
      file,
      '--token',
      tok.assistant!,
    ]);
    expect(second.code, second.stderr).toBe(0);
    const first = await cli(['canon', 'artifacts', '--limit', '1', '--token', tok.val!]);
    expect([first.code, first.stdout.split(' ')[0], first.stderr.trim()]).toEqual([
      0,
      'guide',
      '1 shown, a full page: the next with --after guide',
    ]);
    const next = await cli([
      'canon',
      'artifacts',
      '--after',
      'guide',
      '--json',
      '--token',
      tok.val!,
    ]);
    expect([
      next.stderr,
      JSON.parse(next.stdout).artifacts.map((a: any) => a.manifest.artifact_id),
    ]).toEqual(['', ['guide-2']]);
    const bad = await cli(['canon', 'artifacts', '--limit', '1001', '--json', '--token', tok.val!]);
    expect(bad.code).not.toBe(0);
    expect(JSON.parse(bad.stdout || bad.stderr).error.code).toBe('INVALID_ARGUMENT');
  });

  it('refuses a bad, missing or other project’s token', async () => {
    const bad = await cli(['canon', 'board', '--token', 'cnr_nope']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^canonry: UNAUTHENTICATED:/);
    const none = await cli(['canon', 'objects']);
    expect(none.stderr).toMatch(/^canonry: UNAUTHENTICATED:/);
    const jsonError = await cli(['canon', 'objects', '--json']);
    expect(jsonError.code).toBe(1);
    expect(JSON.parse(jsonError.stdout).error.code).toBe('UNAUTHENTICATED');
    const other = await cli(['canon', 'board', '--project', 'p', '--token', tok.eve!]);
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/^canonry: FORBIDDEN:/);
    const otherWrite = await cli([
      'canon',
      'message',
      '--project',
      'p',
      '--text',
      'red',
      '--token',
      tok.eve!,
    ]);
    expect(otherWrite.stderr).toMatch(/^canonry: FORBIDDEN:/);
    // Eve's own project is empty: her token never reaches p's canon.
    const own = await json(['canon', 'objects', '--token', tok.eve!]);
    expect(own.objects).toEqual([]);
  });
});

describe('canonry serve', { timeout: 240_000 }, () => {
  it('never writes a token to its logs, even at trace level', async () => {
    const { token: owner } = await json([
      'tokens',
      'create',
      '--project',
      'p',
      '--principal',
      'operator',
      '--role',
      'owner',
    ]);
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--data', dir], {
      env: { ...process.env, CANONRY_LOG_LEVEL: 'trace', CANONRY_TOKEN: '' },
    });
    let logs = '';
    child.stdout.on('data', (d) => {
      logs += d;
    });
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (d) => {
        logs += d;
        const m = /listening on (http:\/\/\S+)/.exec(logs);
        if (m) resolve(m[1]!);
      });
      child.on('exit', () => reject(new Error(`serve exited: ${logs}`)));
    });
    try {
      const auth = (token: string) => ({ authorization: `Bearer ${token}` });
      expect((await fetch(`${url}/v1/projects/p/board`, { headers: auth(owner) })).status).toBe(
        200,
      );
      expect(
        (await fetch(`${url}/v1/projects/p/board`, { headers: auth(`${owner}x`) })).status,
      ).toBe(401);
      const created = await fetch(`${url}/v1/projects/p/tokens`, {
        method: 'POST',
        headers: { ...auth(owner), 'content-type': 'application/json' },
        body: JSON.stringify({ principal: 'logged', role: 'viewer' }),
      });
      const secret = ((await created.json()) as { token: string }).token;
      expect(secret).toMatch(/^cnr_/);
      await new Promise((r) => setTimeout(r, 200));
      expect(logs).toContain('/v1/projects/p/board');
      for (const token of [owner, secret]) expect(logs).not.toContain(token.slice(4));
      expect(logs).not.toContain('cnr_');
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('close', r));
    }
  });
});
