import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.js';
import { ROOT, tempDir } from '../helpers/runtime.js';

const temp = tempDir('canonry-cli-polish-');
afterAll(() => temp.cleanup());

describe('canonry tokens create', () => {
  const data = join(temp.dir, 'tokens');

  it('prints the token alone on stdout, and what it is on stderr', async () => {
    const made = await runCli([
      'tokens',
      'create',
      '--project',
      'p',
      '--principal',
      'ada',
      '--role',
      'editor',
      '--data',
      data,
    ]);
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^cnr_[A-Za-z0-9_-]{20,}\n$/);
    const token = made.stdout.trim();
    expect(made.stderr).toMatch(/tok_[0-9a-f]+: ada is editor of p/);
    expect(made.stderr).not.toContain(token);

    // The token on stdout is the one issued: the CLI authenticates with it.
    const listed = await runCli(['tokens', 'list', '--project', 'p', '--data', data, '--json']);
    const [info] = JSON.parse(listed.stdout).tokens;
    expect(made.stderr).toContain(info.token_id);
    const asAda = await runCli([
      'canon',
      'objects',
      '--project',
      'p',
      '--token',
      token,
      '--data',
      data,
      '--json',
    ]);
    expect(asAda.code, asAda.stderr).toBe(0);
  });

  it('prints token and details as one JSON document with --json, nothing on stderr', async () => {
    const made = await runCli([
      'tokens',
      'create',
      '--project',
      'p',
      '--principal',
      'bo',
      '--role',
      'viewer',
      '--data',
      data,
      '--json',
    ]);
    expect(made.code).toBe(0);
    expect(made.stderr).toBe('');
    const out = JSON.parse(made.stdout);
    expect(out.token).toMatch(/^cnr_/);
    expect(out.info).toEqual(expect.objectContaining({ principal: 'bo', role: 'viewer' }));
  });

  it('writes nothing when a flag is wrong, and never makes a data directory to list or revoke', async () => {
    const fresh = join(temp.dir, 'never-made');
    const wrong = [
      ['create', '--project', 'p', '--principal', 'ada', '--role', 'bogus'],
      ['create', '--project', 'p', '--principal', 'two words', '--role', 'viewer'],
      ['create', '--project', 'p', '--principal', 'ada', '--role', 'viewer', '--db', 'mysql://x'],
      ['list', '--project', 'p'],
      ['revoke', '--project', 'p', '--id', 'tok_0123456789ab'],
    ];
    const codes: string[] = [];
    for (const args of wrong) {
      const res = await runCli(['tokens', ...args, '--data', fresh, '--json']);
      expect(res.code, args.join(' ')).toBe(1);
      codes.push(JSON.parse(res.stdout).error.code);
      expect(existsSync(fresh), args.join(' ')).toBe(false);
    }
    expect(codes).toEqual([
      'INVALID_ARGUMENT',
      'INVALID_ARGUMENT',
      'INVALID_ARGUMENT',
      'KEYRING_MISSING',
      'KEYRING_MISSING',
    ]);
  });
});

describe('a command refused on a data directory that does not exist', () => {
  it('makes no data directory: a token cannot be valid there, and a bad project is refused first', async () => {
    const fresh = join(temp.dir, 'never-made-for-a-token');
    const refused = [
      ['canon', 'objects', '--token', 'cnr_not_issued_here'],
      ['canon', 'board', '--project', 'p', '--token', 'cnr_not_issued_here'],
      ['canon', 'objects'],
      ['mcp', '--token', 'cnr_not_issued_here'],
      [
        'relay',
        'run',
        '--mode',
        'DOCUMENT',
        '--objective',
        'o',
        '--sections',
        'a',
        '--token',
        'cnr_x',
      ],
      [
        'relay',
        'run',
        '--mode',
        'DOCUMENT',
        '--objective',
        'o',
        '--sections',
        'a',
        '--project',
        'Bad',
      ],
      [
        'relay',
        'run',
        '--mode',
        'DOCUMENT',
        '--objective',
        'o',
        '--sections',
        'a',
        '--project',
        'kernel',
      ],
    ];
    const codes: string[] = [];
    for (const args of refused) {
      const res = await runCli([...args, '--data', fresh]);
      expect(res.code, args.join(' ')).toBe(1);
      codes.push(/^canonry: ([A-Z_]+):/.exec(res.stderr)?.[1] ?? res.stderr);
      expect(existsSync(fresh), args.join(' ')).toBe(false);
    }
    expect(codes).toEqual([
      'KEYRING_MISSING',
      'KEYRING_MISSING',
      'UNAUTHENTICATED',
      'KEYRING_MISSING',
      'KEYRING_MISSING',
      'INVALID_PROJECT',
      'FORBIDDEN',
    ]);
  });
});

describe('usage errors', () => {
  it('are a JSON error on stdout with --json, exit 1, and nothing on stderr', async () => {
    for (const args of [
      ['tokens', 'create', '--project', 'p', '--role', 'owner', '--json'],
      ['validate', '--artifact', 'a.json', '--json'],
      ['no-such-command', '--json'],
      ['journal', 'read', '--project', 'p', '--no-such-flag', '--json'],
    ]) {
      const run = await runCli(args);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr, args.join(' ')).toBe('');
      const out = JSON.parse(run.stdout);
      expect(out.error.code).toBe('INVALID_ARGUMENT');
      expect(out.error.message).not.toMatch(/^error:/);
    }
    const missing = JSON.parse(
      (await runCli(['tokens', 'create', '--project', 'p', '--role', 'owner', '--json'])).stdout,
    );
    expect(missing.error.message).toContain('--principal');
  });

  it('stay commander text on stderr without --json', async () => {
    const run = await runCli(['tokens', 'create', '--project', 'p', '--role', 'owner']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain("error: required option '--principal <name>' not specified");
  });

  it('leave --help and --version alone', async () => {
    const help = await runCli(['tokens', '--help', '--json']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: canonry tokens');
  });
});

describe('a reader that closes the pipe early', () => {
  /** Runs the CLI with its stdout pipe closed by the reader before anything is written. */
  function closedPipe(args: string[]): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [CLI, ...args], {
        cwd: temp.dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (d) => {
        stderr += d;
      });
      child.on('close', (code) => resolve({ code, stderr }));
    });
  }

  it('costs no stack trace and no failure', async () => {
    const demo = join(temp.dir, 'demo');
    for (const args of [
      ['--help'],
      ['demo', '--data', demo],
      ['journal', 'export', '--project', 'demo', '--data', demo],
    ]) {
      const run = await closedPipe(args);
      expect(run.stderr, args.join(' ')).not.toMatch(/EPIPE|Error|\n\s+at /);
      expect(run.code, args.join(' ')).toBe(0);
    }
  });

  it('as in a shell: canonry journal export … | head -1', async () => {
    const data = join(temp.dir, 'exported');
    expect((await runCli(['demo', '--data', data])).code).toBe(0);
    const shell = spawnSync(
      'bash',
      [
        '-c',
        `set -o pipefail; node ${JSON.stringify(CLI)} journal export --project demo --data ${JSON.stringify(data)} | head -1`,
      ],
      { encoding: 'utf8' },
    );
    expect(shell.status, shell.stderr).toBe(0);
    expect(shell.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect(JSON.parse(shell.stdout)).toEqual(expect.objectContaining({ project: 'demo' }));
    expect(shell.stderr).not.toMatch(/EPIPE|Error|\n\s+at /);
  });
});

describe("the README's offline verification", () => {
  let block: string;
  beforeAll(() => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const at = readme.indexOf('…and anyone verifies the attestation offline');
    const fence = readme.indexOf('```sh\n', at);
    block = readme.slice(fence + 6, readme.indexOf('```', fence + 6));
  });

  it('runs verbatim (in a checkout-shaped directory) and verifies', () => {
    const dir = join(temp.dir, 'checkout');
    spawnSync('mkdir', ['-p', dir]);
    // What the README's commands need from the checkout: the npm script and the example protocol.
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'readme', private: true, scripts: { canonry: `node ${CLI}` } }),
    );
    symlinkSync(join(ROOT, 'examples'), join(dir, 'examples'));
    // The block before it started the server, which creates the keys; here: keys init.
    expect(spawnSync(process.execPath, [CLI, 'keys', 'init'], { cwd: dir }).status).toBe(0);

    const run = spawnSync('bash', ['-euo', 'pipefail', '-c', block], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('CONFORMANT AUTO_APPROVE');
    expect(run.stdout).toMatch(/VERIFIED AUTO_APPROVE \(issuer sha256:[0-9a-f]{64}\)/);
    for (const check of ['signature', 'chain', 'revocation', 'artifact_hash', 'protocol_hash']) {
      expect(run.stdout).toContain(`${check}: ok`);
    }
    const event = JSON.parse(readFileSync(join(dir, 'event.json'), 'utf8'));
    expect(typeof event).toBe('object');
  });
});

describe("the README's demo output", () => {
  /** What changes from run to run — signatures, times, the token, the data path — as the README writes it. */
  const normalise = (text: string, dataDir: string) =>
    text
      .replace(/sha256:([0-9a-f]{12})[0-9a-f]{52}/g, 'sha256:…')
      .replace(/sha256:[0-9a-f]{12}…/g, 'sha256:…')
      .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '2026-…Z')
      .replace(/cnr_[A-Za-z0-9_-]+/g, 'cnr_…')
      .replaceAll(dataDir, '/path/to/checkout/.canonry')
      .trimEnd();

  it('is what `npm run demo` prints, line for line', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const start = readme.indexOf('$ npm run demo\n') + '$ npm run demo\n'.length;
    const shown = readme.slice(start, readme.indexOf('```', start));
    const cwd = join(temp.dir, 'readme-demo');
    spawnSync('mkdir', ['-p', cwd]);
    // `npm run demo` is `canonry demo` in the checkout: its data in ./.canonry.
    const run = spawnSync(process.execPath, [CLI, 'demo'], { cwd, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(normalise(shown, '/path/to/checkout/.canonry')).toBe(
      normalise(run.stdout, join(cwd, '.canonry')),
    );
  });
});
