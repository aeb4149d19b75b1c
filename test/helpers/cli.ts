import { type SpawnOptions, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './runtime.js';

/** The built CLI; `npm test` builds it first. */
export const CLI = join(ROOT, 'dist/cli/main.js');

/**
 * The default working directory: empty, so no test depends on a `.canonry` left in the checkout
 * (the CLI's default data directory is relative to the working directory).
 */
const EMPTY_CWD = mkdtempSync(join(tmpdir(), 'canonry-cwd-'));

/** Runs `canonry …` as a child process and collects its exit code and output. */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; input?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build`);
  const spawnOptions: SpawnOptions = {
    cwd: options.cwd ?? EMPTY_CWD,
    env: { ...process.env, ...options.env },
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], spawnOptions);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => {
      stdout += d;
    });
    child.stderr!.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin!.end(options.input ?? '');
  });
}

/**
 * Issues one token per principal of project `project` in data directory `dir` through
 * `canonry tokens create … --json`; resolves to the secrets by principal.
 */
export async function issueTokens(
  dir: string,
  project: string,
  principals: readonly (readonly [name: string, role: string])[],
): Promise<Record<string, string>> {
  const tokens: Record<string, string> = {};
  for (const [name, role] of principals) {
    const r = await runCli([
      'tokens',
      'create',
      '--project',
      project,
      '--principal',
      name,
      '--role',
      role,
      '--data',
      dir,
      '--json',
    ]);
    if (r.code !== 0) throw new Error(`tokens create ${name}: ${r.stderr}`);
    tokens[name] = (JSON.parse(r.stdout) as { token: string }).token;
  }
  return tokens;
}
