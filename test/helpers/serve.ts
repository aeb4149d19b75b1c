import { type ChildProcess, spawn } from 'node:child_process';
import { CLI } from './cli.js';

/** A `canonry serve` child process on an ephemeral loopback port. */
export interface ServeProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the process wrote to stderr so far (its log goes there). */
  stderr(): string;
  /** True while the process has not exited. */
  alive(): boolean;
  /** The exit code once it exited (null while it runs, or when a signal ended it). */
  exitCode(): number | null;
  /** SIGTERM, then SIGKILL after a grace period; resolves once it exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `canonry serve --port 0` with the given data directory, arguments and environment, and
 * resolves once it listens. Rejects with its stderr if it exits first (or after `timeoutMs`).
 */
export function startServe(
  dataDir: string,
  options: { args?: string[]; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--port', '0', '--data', dataDir, ...(options.args ?? [])],
    { env: { ...process.env, CANONRY_LOG_LEVEL: 'warn', ...options.env } },
  );
  let stderr = '';
  let exited = false;
  let code: number | null = null;
  const exit = new Promise<void>((done) =>
    child.on('exit', (c) => {
      exited = true;
      code = c;
      done();
    }),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start: ${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.stderr!.on('data', (d) => {
      stderr += d;
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match && !exited) {
        clearTimeout(timer);
        resolve({
          url: match[1]!,
          child,
          stderr: () => stderr,
          alive: () => !exited,
          exitCode: () => code,
          stop: async (signal = 'SIGTERM') => {
            if (exited) return;
            child.kill(signal);
            const grace = setTimeout(() => child.kill('SIGKILL'), 5_000);
            await exit;
            clearTimeout(grace);
          },
        });
      }
    });
    child.stdout!.resume();
    void exit.then(() => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}) before listening: ${stderr}`));
    });
  });
}

/** Runs `canonry serve` expecting it to refuse to start; resolves to its exit code and stderr. */
export function serveRefuses(
  dataDir: string,
  options: { args?: string[]; env?: Record<string, string> } = {},
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [CLI, 'serve', '--port', '0', '--data', dataDir, ...(options.args ?? [])],
      { env: { ...process.env, CANONRY_LOG_LEVEL: 'warn', ...options.env } },
    );
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
      if (/listening on/.test(stderr)) {
        child.kill('SIGKILL');
        reject(new Error(`serve started but was expected to refuse: ${stderr}`));
      }
    });
    child.stdout.resume();
    // On 'close', not 'exit': the last line may still be in the pipe when the process exits.
    child.on('close', (code) => resolve({ code, stderr }));
  });
}
