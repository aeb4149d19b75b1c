import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Runs openssl with `args` in `cwd` and returns its exit status and stdout + stderr. */
export function opensslStatus(cwd: string, ...args: string[]): { ok: boolean; output: string } {
  const run = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
  return { ok: run.status === 0, output: `${run.stdout ?? ''}${run.stderr ?? ''}` };
}

/** Runs openssl with `args` in `cwd`; returns stdout and stderr together, throwing on failure. */
export function openssl(cwd: string, ...args: string[]): string {
  const { ok, output } = opensslStatus(cwd, ...args);
  if (!ok) throw new Error(`openssl ${args.join(' ')} failed: ${output}`);
  return output;
}

/** Writes `text` to `cwd/name` and returns the path. */
export function put(cwd: string, name: string, text: string): string {
  const path = join(cwd, name);
  writeFileSync(path, text);
  return path;
}

/** An openssl-made PKCS#10 request for a fresh key of `algorithm`, with extra `req` arguments. */
export function opensslRequest(
  cwd: string,
  name: string,
  subject: string,
  algorithm: string[] = ['-algorithm', 'ed25519'],
  extra: string[] = [],
): string {
  openssl(cwd, 'genpkey', ...algorithm, '-out', `${name}.key.pem`);
  openssl(
    cwd,
    'req',
    '-new',
    '-key',
    `${name}.key.pem`,
    '-subj',
    subject,
    '-out',
    `${name}.csr`,
    ...extra,
  );
  return openssl(cwd, 'req', '-in', `${name}.csr`);
}
