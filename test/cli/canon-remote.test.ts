import { createServer } from 'node:http';
// `canonry canon …` runs the same operations in process (--data) and over HTTP against a real
// `canonry serve` on loopback (--url): the same answers, the same typed refusals, the same principal.
// Writes go through one face and are read back through the other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueTokens, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/runtime.js';
import { type ServeProcess, startServe } from '../helpers/serve.js';

let dir: string;
let cleanup: () => void;
let serve: ServeProcess;
const tok: Record<string, string> = {};

/** `canonry canon <args>` in process against the data directory. */
const local = (args: string[], token: string) =>
  runCli(['canon', ...args, '--data', dir, '--token', token], { env: { CANONRY_TOKEN: '' } });
/** The same command over HTTP against the running server. */
const remote = (args: string[], token: string, project = 'p') =>
  runCli(['canon', ...args, '--url', serve.url, '--project', project, '--token', token], {
    env: { CANONRY_TOKEN: '' },
  });

const ok = async (run: Promise<{ code: number; stdout: string; stderr: string }>) => {
  const r = await run;
  expect(r.code, r.stderr + r.stdout).toBe(0);
  return JSON.parse(r.stdout);
};
const refusal = async (run: Promise<{ code: number; stdout: string; stderr: string }>) => {
  const r = await run;
  expect(r.code).toBe(1);
  return /^canonry: ([A-Z_]+):/.exec(r.stderr)?.[1];
};

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('canonry-cli-remote-'));
  Object.assign(
    tok,
    await issueTokens(dir, 'p', [
      ['olivia', 'owner'],
      ['eddie', 'editor'],
      ['agent', 'agent'],
    ]),
  );
  serve = await startServe(dir);
}, 120_000);
afterAll(async () => {
  await serve?.stop();
  cleanup?.();
});

describe('canon against a data directory and against a server', { timeout: 240_000 }, () => {
  it('writes through one face, reads the same through both', async () => {
    const set = await ok(
      remote(
        [
          'subject',
          'set',
          'ui.colour',
          '--title',
          'Interface colour',
          '--type',
          'preference',
          '--keywords',
          'red,blue,colour',
          '--json',
        ],
        tok.olivia!,
      ),
    );
    expect(Object.keys(set.config.subjects)).toContain('ui.colour');

    const said = await ok(
      remote(['message', 'I would like a red interface for the app.', '--json'], tok.olivia!),
    );
    expect(said.message.actor).toBe('olivia');
    expect(said.proposals[0].outcome.committed.version_id).toBe(1);

    // The agent proposes through the data directory; the gate holds it for a person.
    const proposed = await ok(
      local(
        [
          'message',
          'I propose blue instead of red for accessibility.',
          '--role',
          'assistant',
          '--json',
        ],
        tok.agent!,
      ),
    );
    const id = proposed.proposals[0].outcome.proposal.proposal_id as string;
    expect(proposed.proposals[0].outcome.proposal.status).toBe('pending');

    for (const args of [
      ['board'],
      ['objects'],
      ['proposals', '--status', 'pending'],
      ['proposal', id],
      ['provenance', 'ui.colour'],
      ['versions', 'ui.colour'],
      ['working-set', '--objective', 'the colour of the interface', '--limit', '5'],
      ['messages'],
    ]) {
      const [viaData, viaServer] = await Promise.all([
        ok(local([...args, '--json'], tok.eddie!)),
        ok(remote([...args, '--json'], tok.eddie!)),
      ]);
      expect(viaServer, args.join(' ')).toEqual(viaData);
    }

    // An agent never approves, through either face; an editor does, through the server.
    expect(await refusal(local(['approve', id], tok.agent!))).toBe('FORBIDDEN');
    expect(await refusal(remote(['approve', id], tok.agent!))).toBe('FORBIDDEN');
    const approved = await ok(remote(['approve', id, '--json'], tok.eddie!));
    expect(approved.proposal.status).toBe('committed');
    const object = await ok(local(['object', 'ui.colour', '--json'], tok.agent!));
    expect(object.current.content.text).toMatch(/blue/);
  });

  it('refuses alike: the same typed code from both faces', async () => {
    const cases: string[][] = [
      ['approve', `prop_${'0'.repeat(16)}`],
      ['approve', 'nope'],
      ['reject', `prop_${'0'.repeat(16)}`],
      ['restore', 'ui.colour', '--version', 'sha256:zz'],
      ['working-set', '--object', 'BAD ID'],
      ['objects', '--status', 'gone'],
      ['token', 'create', '--principal', 'x', '--role', 'god'],
      ['subjects'],
    ];
    for (const args of cases) {
      const token = args[0] === 'subjects' ? tok.agent! : tok.olivia!;
      const [viaData, viaServer] = await Promise.all([
        refusal(local(args, token)),
        refusal(remote(args, token)),
      ]);
      expect(viaData, args.join(' ')).toMatch(/^[A-Z_]+$/);
      expect(viaServer, args.join(' ')).toBe(viaData);
    }
    // A flag's field is named by its flag.
    const missing = await remote(['reject', `prop_${'0'.repeat(16)}`], tok.olivia!);
    expect(missing.stderr).toMatch(/^canonry: INVALID_BODY: reason is required \(--reason\)/);
  });

  it('needs a project, a token and a reachable canonry server with --url', async () => {
    const noProject = await runCli(['canon', 'board', '--url', serve.url, '--token', tok.olivia!]);
    expect(noProject.stderr).toMatch(/^canonry: INVALID_ARGUMENT: .*--project/);
    const noToken = await runCli(['canon', 'board', '--url', serve.url, '--project', 'p'], {
      env: { CANONRY_TOKEN: '' },
    });
    expect(noToken.stderr).toMatch(/^canonry: UNAUTHENTICATED:/);
    expect(await refusal(remote(['board'], tok.olivia!, 'q'))).toBe('FORBIDDEN');
    const unreachable = await runCli([
      'canon',
      'board',
      '--url',
      'http://127.0.0.1:9',
      '--project',
      'p',
      '--token',
      tok.olivia!,
    ]);
    expect(unreachable.stderr).toMatch(/^canonry: SERVER_UNREACHABLE:/);

    // A server that answers, but not as canonry: not an INTERNAL error of ours.
    const other = createServer((req, res) => {
      if (req.url?.includes('/board')) res.writeHead(404).end();
      else res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}');
    });
    await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
    try {
      const { port } = other.address() as { port: number };
      for (const command of ['board', 'objects']) {
        const answered = await runCli([
          'canon',
          command,
          '--url',
          `http://127.0.0.1:${port}`,
          '--project',
          'p',
          '--token',
          tok.olivia!,
        ]);
        expect(answered.stderr, command).toMatch(
          /^canonry: SERVER_UNREACHABLE: .* answered (404|500) without canonry's error envelope/,
        );
      }
    } finally {
      other.close();
    }
  });

  it('ends a call to a server that never answers at --timeout, and refuses a bad one', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    try {
      const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
      const args = ['canon', 'board', '--url', url, '--project', 'p', '--token', tok.olivia!];
      const started = performance.now();
      const hung = await runCli([...args, '--timeout', '1']);
      expect(hung.code).toBe(1);
      expect(hung.stderr).toMatch(/^canonry: SERVER_UNREACHABLE: .* did not answer within 1 s\n$/);
      expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
      // From the environment too, and for the relay's and MCP's --url alike.
      const viaEnv = await runCli(['relay', 'show', 'rs_x', ...args.slice(2)], {
        env: { CANONRY_TIMEOUT: '1' },
      });
      expect(viaEnv.stderr).toMatch(/did not answer within 1 s/);
      for (const bad of ['0', '1.5', 'soon', '86401']) {
        const refused = await runCli([...args, '--timeout', bad]);
        expect({ bad, stderr: refused.stderr }).toEqual({
          bad,
          stderr: expect.stringMatching(
            /^canonry: INVALID_ARGUMENT: --timeout must be whole seconds/,
          ),
        });
      }
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('prints a created token alone on stdout, what it is on stderr', async () => {
    const made = await remote(
      ['token', 'create', '--principal', 'erin', '--role', 'agent'],
      tok.olivia!,
    );
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^cnr_\S+\n$/);
    expect(made.stderr).toMatch(/^tok_\w+: erin is agent of p\n$/);
  });
});
