import { execFileSync } from 'node:child_process';
import {
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { fill, smallTmpfs } from '../helpers/disk.js';
import { refundProtocol, tempDir } from '../helpers/runtime.js';

let dir: string;
let cleanup: () => void;
const file = (name: string, value: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
};

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  file('protocol.json', refundProtocol());
  // validate signs with an existing keyring and never creates one.
  expect((await runCli(['keys', 'init', '--data', join(dir, 'data')])).code).toBe(0);
});
afterAll(() => cleanup());

const data = () => join(dir, 'data');

describe('canonry validate', () => {
  it('exits 0 conformant, 2 invalid, 3 drift', async () => {
    const ok = await runCli([
      'validate',
      '--protocol',
      join(dir, 'protocol.json'),
      '--artifact',
      file('a.json', { amount: 20 }),
      '--data',
      data(),
      '--json',
    ]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).data).toEqual({ conformant: true, label: 'AUTO_APPROVE' });
    const invalid = await runCli([
      'validate',
      '--protocol',
      join(dir, 'protocol.json'),
      '--artifact',
      file('b.json', { amount: 'x' }),
      '--data',
      data(),
    ]);
    expect(invalid.code).toBe(2);
    expect(invalid.stdout).toMatch(/^INVALID_REQUEST/);
    const drifting = file('p2.json', {
      ...refundProtocol(),
      rules: [{ label: 'BLOCK', condition: { '>': [{ var: 'amount' }, 100] } }],
    });
    const drift = await runCli([
      'validate',
      '--protocol',
      drifting,
      '--artifact',
      join(dir, 'a.json'),
      '--data',
      data(),
    ]);
    expect(drift.code).toBe(3);
    expect(drift.stdout).toMatch(/^INTERPRETATION_DRIFT/);
  });

  it('never mints keys: without a keyring it says how to make one and creates nothing', async () => {
    const empty = join(dir, 'no-keys');
    const res = await runCli([
      'validate',
      '--protocol',
      join(dir, 'protocol.json'),
      '--artifact',
      file('k.json', { amount: 20 }),
      '--data',
      empty,
    ]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('canonry: KEYRING_MISSING:');
    expect(res.stderr).toContain('canonry keys init');
    expect(existsSync(join(empty, 'keys'))).toBe(false);
    expect(existsSync(join(empty, 'canonry.db'))).toBe(false);
  });

  it('refuses bad input with a typed error and exit 1', async () => {
    const cases: Array<[string[], string]> = [
      [
        ['--protocol', join(dir, 'missing.json'), '--artifact', join(dir, 'a.json')],
        'FILE_UNREADABLE',
      ],
      [
        ['--protocol', file('junk.json', '{nope'), '--artifact', join(dir, 'a.json')],
        'MALFORMED_FILE',
      ],
      [
        [
          '--protocol',
          file('bad.json', { ...refundProtocol(), labels: [] }),
          '--artifact',
          join(dir, 'a.json'),
        ],
        'INVALID_PROTOCOL',
      ],
      [
        [
          '--protocol',
          join(dir, 'protocol.json'),
          '--artifact',
          join(dir, 'a.json'),
          '--metadata-hash',
          'abc',
        ],
        'INVALID_HASH',
      ],
    ];
    // Not a regular file (a FIFO would wait for a writer forever, a device never ends), or one
    // over the bound (sparse: it costs no disk): refused before anything is read.
    const fifo = join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    const huge = join(dir, 'huge.json');
    writeFileSync(huge, '');
    truncateSync(huge, 65 * 1024 * 1024);
    for (const path of [fifo, dir, '/dev/zero']) {
      cases.push([['--protocol', path, '--artifact', join(dir, 'a.json')], 'FILE_UNREADABLE']);
    }
    cases.push([['--protocol', huge, '--artifact', join(dir, 'a.json')], 'MALFORMED_FILE']);
    for (const [args, code] of cases) {
      const res = await runCli(['validate', ...args, '--data', data()]);
      expect(res.code, args[1]).toBe(1);
      expect(res.stderr).toContain(`canonry: ${code}:`);
    }
    // An --event-out that cannot be written: a typed error, not INTERNAL.
    const out = await runCli([
      'validate',
      '--protocol',
      join(dir, 'protocol.json'),
      '--artifact',
      file('ok.json', { amount: 20 }),
      '--event-out',
      dir,
      '--data',
      data(),
    ]);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('canonry: INVALID_ARGUMENT: cannot write --event-out');
    // One on a full disk: STORE_FULL (free space and run it again), and nothing half-written left.
    const disk = smallTmpfs('validate --event-out on a full disk', 'canonry-out-full-');
    try {
      if (disk.mounted) {
        fill(join(disk.dir, 'filler'));
        const full = await runCli([
          'validate',
          '--protocol',
          join(dir, 'protocol.json'),
          '--artifact',
          file('ok.json', { amount: 20 }),
          '--event-out',
          join(disk.dir, 'event.json'),
          '--data',
          data(),
        ]);
        expect(full.code).toBe(1);
        expect(full.stderr).toContain('canonry: STORE_FULL: cannot write --event-out');
        expect(readdirSync(disk.dir)).toEqual(['filler']);
      }
    } finally {
      disk.release();
    }
    const usage = await runCli(['validate', '--artifact', join(dir, 'a.json')]);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toMatch(/required option/);
  });
});

describe('canonry verify and keys', () => {
  it('an artifact file whose bytes are not UTF-8 binds nothing, even where they read as U+FFFD', async () => {
    const protocol = refundProtocol() as { constraints: { properties: Record<string, unknown> } };
    protocol.constraints.properties.note = { type: 'string' };
    const protocolPath = file('note-protocol.json', protocol);
    const artifactPath = file('note.json', { amount: 20, note: 'a\uFFFDb' });
    const res = await runCli([
      'validate',
      '--protocol',
      protocolPath,
      '--artifact',
      artifactPath,
      '--data',
      data(),
      '--json',
    ]);
    expect(res.code).toBe(0);
    const eventPath = file('note-event.json', JSON.parse(res.stdout).attestation);
    const rootPath = file(
      'note-root.pem',
      (await runCli(['keys', 'root', '--data', data()])).stdout,
    );
    const genuine = readFileSync(artifactPath);
    const at = genuine.indexOf(Buffer.from('\uFFFD', 'utf8'));
    expect(at).toBeGreaterThan(0);
    // Another file: the encoded U+FFFD replaced by one byte that is not UTF-8 at all.
    const altered = join(dir, 'note-altered.json');
    writeFileSync(
      altered,
      Buffer.concat([genuine.subarray(0, at), Buffer.from([0xff]), genuine.subarray(at + 3)]),
    );
    const verify = (artifact: string) =>
      runCli([
        'verify',
        '--event',
        eventPath,
        '--root',
        rootPath,
        '--no-revocation',
        '--artifact',
        artifact,
        '--protocol',
        protocolPath,
        '--json',
      ]);
    expect((await verify(artifactPath)).code).toBe(0);
    const r = await verify(altered);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error.code).toBe('MALFORMED_FILE');
  });

  it('verifies an event offline from the pinned root; a changed character fails it', async () => {
    const res = await runCli([
      'validate',
      '--protocol',
      join(dir, 'protocol.json'),
      '--artifact',
      file('c.json', { amount: 640 }),
      '--data',
      data(),
      '--json',
    ]);
    const event = JSON.parse(res.stdout).attestation;
    const eventPath = file('event.json', event);
    const root = await runCli(['keys', 'root', '--data', data()]);
    expect(root.stdout).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(root.stdout).not.toMatch(/PRIVATE/);
    const rootPath = file('root.pem', root.stdout);
    const crlPath = file('crl.pem', (await runCli(['keys', 'crl', '--data', data()])).stdout);

    const verified = await runCli([
      'verify',
      '--event',
      eventPath,
      '--root',
      rootPath,
      '--revocations',
      crlPath,
      '--artifact',
      join(dir, 'c.json'),
      '--protocol',
      join(dir, 'protocol.json'),
    ]);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^VERIFIED MANAGER_REVIEW/);

    const withDataDir = await runCli(['verify', '--event', eventPath, '--root', rootPath], {
      env: { CANONRY_DATA: data() },
    });
    expect(withDataDir.code).toBe(0);

    const text = readFileSync(eventPath, 'utf8');
    const at = text.indexOf('MANAGER_REVIEW');
    const tampered = file(
      'tampered.json',
      `${text.slice(0, at)}MANAGER_REVIEX${text.slice(at + 14)}`,
    );
    const failed = await runCli([
      'verify',
      '--event',
      tampered,
      '--root',
      rootPath,
      '--revocations',
      crlPath,
      '--json',
    ]);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout).error.code).toBe('SIGNATURE_INVALID');

    const mismatch = await runCli([
      'verify',
      '--event',
      eventPath,
      '--root',
      rootPath,
      '--revocations',
      crlPath,
      '--artifact',
      join(dir, 'a.json'),
    ]);
    expect(mismatch.code).toBe(1);
    expect(mismatch.stdout).toMatch(/HASH_MISMATCH/);

    const noList = await runCli([
      'verify',
      '--event',
      eventPath,
      '--root',
      rootPath,
      '--data',
      join(dir, 'nowhere'),
    ]);
    expect(noList.code).toBe(1);
    expect(noList.stderr).toContain('INVALID_ARGUMENT');

    const otherData = join(dir, 'other');
    await runCli(['keys', 'init', '--data', otherData]);
    const otherRoot = file(
      'other-root.pem',
      (await runCli(['keys', 'root', '--data', otherData])).stdout,
    );
    const wrongRoot = await runCli([
      'verify',
      '--event',
      eventPath,
      '--root',
      otherRoot,
      '--no-revocation',
    ]);
    expect(wrongRoot.code).toBe(1);
    expect(wrongRoot.stdout).toMatch(/CHAIN_INVALID/);
  });

  it('rotates and revokes: old events verify after rotation and fail after revocation', async () => {
    const d = join(dir, 'rotate');
    const init = await runCli(['keys', 'init', '--data', d, '--json']);
    expect(init.code).toBe(0);
    expect(statSync(join(d, 'keys')).mode & 0o777).toBe(0o700);
    expect((await runCli(['keys', 'init', '--data', d])).stderr).toContain('KEYRING_EXISTS');
    const first = JSON.parse(init.stdout).issuers[0].fingerprint as string;
    const res = await runCli([
      'validate',
      '--protocol',
      join(dir, 'protocol.json'),
      '--artifact',
      join(dir, 'a.json'),
      '--data',
      d,
      '--json',
    ]);
    const eventPath = file('old-event.json', JSON.parse(res.stdout).attestation);
    const rootPath = file('rot-root.pem', (await runCli(['keys', 'root', '--data', d])).stdout);

    const rotated = JSON.parse((await runCli(['keys', 'rotate', '--data', d, '--json'])).stdout);
    expect(rotated.issuers).toHaveLength(2);
    expect(rotated.issuers.find((i: { active: boolean }) => i.active).fingerprint).not.toBe(first);
    expect(
      (await runCli(['verify', '--event', eventPath, '--root', rootPath, '--data', d])).code,
    ).toBe(0);

    expect((await runCli(['keys', 'revoke', first, '--data', d])).code).toBe(0);
    const after = await runCli([
      'verify',
      '--event',
      eventPath,
      '--root',
      rootPath,
      '--data',
      d,
      '--json',
    ]);
    expect(after.code).toBe(1);
    expect(JSON.parse(after.stdout).error.code).toBe('ISSUER_REVOKED');

    const unknown = await runCli(['keys', 'revoke', `sha256:${'a'.repeat(64)}`, '--data', d]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('UNKNOWN_ISSUER');
    const missing = await runCli(['keys', 'root', '--data', join(dir, 'empty')]);
    expect(missing.stderr).toContain('KEYRING_MISSING');
  });
});
