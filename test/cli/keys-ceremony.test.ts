import { createPrivateKey } from 'node:crypto';
import {
  lstatSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { refundProtocol, tempDir } from '../helpers/runtime.js';
import { openssl } from '../trust/openssl.js';

// Made at load, so each describe can name its paths up front.
const { dir, cleanup } = tempDir('canonry-keys-');
beforeAll(() => {
  writeFileSync(join(dir, 'protocol.json'), JSON.stringify(refundProtocol()));
  writeFileSync(join(dir, 'artifact.json'), JSON.stringify({ amount: 640 }));
});
afterAll(() => cleanup());

const at = (...parts: string[]) => join(dir, ...parts);
const json = (res: { stdout: string }) => JSON.parse(res.stdout);

/** Runs canonry and expects it to fail with `code` (exit 1, `canonry: CODE:` on stderr). */
async function refused(args: string[], code: string): Promise<string> {
  const res = await runCli(args);
  expect(res.code, `${args.join(' ')}\n${res.stderr}`).toBe(1);
  expect(res.stderr, args.join(' ')).toContain(`canonry: ${code}:`);
  return res.stderr;
}

/** Runs canonry and expects exit 0. */
async function ok(args: string[]) {
  const res = await runCli(args);
  expect(res.code, `${args.join(' ')}\n${res.stderr}`).toBe(0);
  return res;
}

/** A conformance event signed by the keyring in `data`, written to `name`. */
async function signedEvent(data: string, name: string): Promise<string> {
  const res = await ok([
    'validate',
    '--protocol',
    at('protocol.json'),
    '--artifact',
    at('artifact.json'),
    '--data',
    data,
    '--json',
  ]);
  writeFileSync(at(name), JSON.stringify(json(res).attestation));
  return at(name);
}

/** Every regular file under `root`, recursively. */
function filesUnder(root: string): string[] {
  return readdirSync(root, { withFileTypes: true }).flatMap((entry) => {
    const path = join(root, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** One ceremony round: csr on the server, sign offline, install on the server. */
async function certify(data: string, rootDir: string, name: string): Promise<string> {
  await ok(['keys', 'csr', '--data', data, '--out', at(`${name}.csr`)]);
  await ok([
    'keys',
    'offline',
    'sign',
    at(`${name}.csr`),
    '--root-dir',
    rootDir,
    '--out',
    at(`${name}.pem`),
  ]);
  const installed = json(
    await ok(['keys', 'install-issuer', at(`${name}.pem`), '--data', data, '--json']),
  );
  return installed.issuers.find((i: { active: boolean }) => i.active).fingerprint;
}

/** Spawning the CLI takes seconds on a loaded machine; these steps spawn it a dozen times each. */
const STEP = 240_000;

describe('the offline root ceremony through the CLI', () => {
  const rootDir = at('root');
  const data = at('server');
  const rootCert = join(rootDir, 'root.cert.pem');
  const firstList = at('crl-1.pem');
  let first: string;
  let event: string;

  it(
    'a root made offline is pinned by a server that cannot sign until it has an issuer',
    async () => {
      const made = json(await ok(['keys', 'offline', 'init', '--root-dir', rootDir, '--json']));
      expect(statSync(rootDir).mode & 0o777).toBe(0o700);
      expect(statSync(join(rootDir, 'root.key.pem')).mode & 0o777).toBe(0o600);
      await refused(['keys', 'offline', 'init', '--root-dir', rootDir], 'KEYRING_EXISTS');

      writeFileSync(firstList, readFileSync(join(rootDir, 'revocation.crl.pem')));
      const init = json(
        await ok([
          'keys',
          'init',
          '--root-cert',
          rootCert,
          '--crl',
          firstList,
          '--data',
          data,
          '--json',
        ]),
      );
      expect(init).toMatchObject({
        root: made.root,
        development_root: false,
        root_key: 'offline',
        can_sign: false,
        issuers: [],
      });
      const noIssuer = await refused(
        [
          'validate',
          '--protocol',
          at('protocol.json'),
          '--artifact',
          at('artifact.json'),
          '--data',
          data,
        ],
        'NO_ACTIVE_ISSUER',
      );
      expect(noIssuer).toContain('canonry keys csr');
    },
    STEP,
  );

  it(
    'csr, offline sign, install-issuer: events verify from the root; no root key on the server',
    async () => {
      await ok(['keys', 'csr', '--data', data, '--out', at('one.csr')]);
      expect(openssl(dir, 'req', '-in', at('one.csr'), '-verify', '-noout')).toMatch(/verify OK/);
      const pending = readdirSync(join(data, 'keys')).filter((n) => n.startsWith('pending-'));
      expect(pending).toEqual(['pending-issuer-1.key.pem']);
      expect(statSync(join(data, 'keys', pending[0]!)).mode & 0o777).toBe(0o600);
      const listed = json(await ok(['keys', 'list', '--data', data, '--json']));
      expect(listed.pending_issuer).toMatchObject({ number: 1 });

      await ok([
        'keys',
        'offline',
        'sign',
        at('one.csr'),
        '--root-dir',
        rootDir,
        '--out',
        at('one.pem'),
      ]);
      expect(openssl(dir, 'verify', '-CAfile', rootCert, at('one.pem'))).toContain(': OK');
      const installed = json(
        await ok(['keys', 'install-issuer', at('one.pem'), '--data', data, '--json']),
      );
      expect(installed).toMatchObject({ can_sign: true, pending_issuer: null });
      first = installed.issuers[0].fingerprint as string;

      event = await signedEvent(data, 'event-1.json');
      const verified = json(
        await ok([
          'verify',
          '--event',
          event,
          '--root',
          rootCert,
          '--revocations',
          join(rootDir, 'revocation.crl.pem'),
          '--artifact',
          at('artifact.json'),
          '--protocol',
          at('protocol.json'),
          '--require-production-root',
          '--json',
        ]),
      );
      expect(verified).toMatchObject({
        verified: true,
        label: 'MANAGER_REVIEW',
        development_root: false,
      });

      // Nothing in the data directory holds the root's private key, in any encoding.
      const rootKey = readFileSync(join(rootDir, 'root.key.pem'), 'utf8');
      const d = createPrivateKey(rootKey).export({ format: 'jwk' }).d as string;
      const raw = Buffer.from(d, 'base64url');
      for (const file of filesUnder(data)) {
        expect(file).not.toMatch(/root\.key/);
        const bytes = readFileSync(file);
        expect(bytes.includes(raw), file).toBe(false);
        expect(bytes.toString('latin1'), file).not.toContain(d);
        expect(bytes.toString('latin1'), file).not.toContain(rootKey.split('\n')[1]);
      }
      expect(statSync(join(data, 'keys')).mode & 0o777).toBe(0o700);
      for (const name of readdirSync(join(data, 'keys'))) {
        expect(statSync(join(data, 'keys', name)).mode & 0o777, name).toBe(0o600);
      }
    },
    STEP,
  );

  it(
    'rotates by a new request and revokes from the root machine',
    async () => {
      expect(await refused(['keys', 'rotate', '--data', data], 'ROOT_KEY_OFFLINE')).toContain(
        'keys csr',
      );
      expect(
        await refused(['keys', 'revoke', first, '--data', data], 'ROOT_KEY_OFFLINE'),
      ).toContain('keys offline revoke');

      // Rotation by a second request, then revocation of the first issuer from the root machine.
      const second = await certify(data, rootDir, 'two');
      expect(second).not.toBe(first);
      expect(readdirSync(join(data, 'keys')).filter((n) => n.endsWith('.key.pem'))).toEqual([
        'issuer-2.key.pem',
      ]);
      await ok(['verify', '--event', event, '--root', rootCert, '--data', data]);
      const newer = await signedEvent(data, 'event-2.json');
      await ok([
        'keys',
        'offline',
        'revoke',
        first,
        '--root-dir',
        rootDir,
        '--out',
        at('crl-2.pem'),
      ]);
      const afterInstall = json(
        await ok(['keys', 'install-crl', at('crl-2.pem'), '--data', data, '--json']),
      );
      expect(afterInstall.issuers.map((i: { revoked: boolean }) => i.revoked)).toEqual([
        true,
        false,
      ]);
      const old = await runCli([
        'verify',
        '--event',
        event,
        '--root',
        rootCert,
        '--data',
        data,
        '--json',
      ]);
      expect(old.code).toBe(1);
      expect(json(old).error.code).toBe('ISSUER_REVOKED');
      await ok(['verify', '--event', newer, '--root', rootCert, '--data', data]);
      await refused(['keys', 'install-crl', firstList, '--data', data], 'STALE_REVOCATION_LIST');
      await refused(
        ['keys', 'install-crl', at('crl-2.pem'), '--data', data],
        'STALE_REVOCATION_LIST',
      );

      const issued = json(await ok(['keys', 'offline', 'list', '--root-dir', rootDir, '--json']));
      expect(issued.issued.map((i: { revoked: boolean }) => i.revoked)).toEqual([true, false]);
    },
    STEP,
  );
});

describe('hostile inputs to the ceremony', () => {
  const rootDir = at('h-root');
  const otherRoot = at('h-other');
  const data = at('h-server');
  const other = at('h-other-server');
  const sign = (file: string, root = rootDir) => [
    'keys',
    'offline',
    'sign',
    file,
    '--root-dir',
    root,
  ];

  it(
    'init refuses a bad root or list',
    async () => {
      await ok(['keys', 'offline', 'init', '--root-dir', rootDir]);
      await ok(['keys', 'offline', 'init', '--root-dir', otherRoot]);
      const pin = (d: string, r: string) => [
        'keys',
        'init',
        '--root-cert',
        join(r, 'root.cert.pem'),
        '--crl',
        join(r, 'revocation.crl.pem'),
        '--data',
        d,
      ];
      writeFileSync(
        at('garbage.pem'),
        '-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n',
      );
      writeFileSync(at('empty.pem'), '');
      await refused(
        [
          'keys',
          'init',
          '--root-cert',
          at('garbage.pem'),
          '--crl',
          join(rootDir, 'revocation.crl.pem'),
          '--data',
          data,
        ],
        'INVALID_CERTIFICATE',
      );
      await refused(
        [
          'keys',
          'init',
          '--root-cert',
          join(rootDir, 'root.cert.pem'),
          '--crl',
          join(otherRoot, 'revocation.crl.pem'),
          '--data',
          data,
        ],
        'CHAIN_INVALID',
      );
      await refused(
        ['keys', 'init', '--root-cert', join(rootDir, 'root.cert.pem'), '--data', data],
        'INVALID_ARGUMENT',
      );
      await refused(
        [
          'keys',
          'init',
          '--root-cert',
          at('missing.pem'),
          '--crl',
          at('missing.pem'),
          '--data',
          data,
        ],
        'FILE_UNREADABLE',
      );
      await ok(pin(data, rootDir));
      await ok(pin(other, rootDir));
    },
    STEP,
  );

  it(
    'the root refuses a tampered or foreign request',
    async () => {
      await ok(['keys', 'csr', '--data', data, '--out', at('h.csr')]);
      const csr = readFileSync(at('h.csr'), 'utf8');
      const body = Buffer.from(csr.replace(/-----[A-Z ]+-----/g, '').replace(/\s/g, ''), 'base64');
      body[body.length - 1]! ^= 0x01;
      const lines = body
        .toString('base64')
        .match(/.{1,64}/g)!
        .join('\n');
      writeFileSync(
        at('tampered.csr'),
        `-----BEGIN CERTIFICATE REQUEST-----\n${lines}\n-----END CERTIFICATE REQUEST-----\n`,
      );
      await refused(sign(at('tampered.csr')), 'SIGNATURE_INVALID');
      await refused(sign(at('garbage.pem')), 'INVALID_CSR');
      await refused(sign(at('empty.pem')), 'INVALID_CSR');
      await refused(sign(join(rootDir, 'root.cert.pem')), 'INVALID_CSR');
      await refused(sign(at('h.csr'), at('nowhere')), 'KEYRING_MISSING');
    },
    STEP,
  );

  it(
    'install-issuer refuses another root, a CA, another key and junk',
    async () => {
      await ok([...sign(at('h.csr'), otherRoot), '--out', at('foreign.pem')]);
      await ok(['keys', 'csr', '--data', other, '--out', at('other.csr')]);
      await ok([...sign(at('other.csr')), '--out', at('other-key.pem')]);
      const install = (file: string) => ['keys', 'install-issuer', file, '--data', data];
      await refused(install(at('foreign.pem')), 'CHAIN_INVALID');
      await refused(install(join(rootDir, 'root.cert.pem')), 'CHAIN_INVALID');
      await refused(install(at('other-key.pem')), 'PENDING_KEY_MISMATCH');
      await refused(install(at('garbage.pem')), 'INVALID_CERTIFICATE');
      await refused(install(at('h.csr')), 'INVALID_CERTIFICATE');
      await refused(install(at('missing.pem')), 'FILE_UNREADABLE');
      const listed = json(await ok(['keys', 'list', '--data', data, '--json']));
      expect(listed).toMatchObject({ can_sign: false, issuers: [], pending_issuer: { number: 1 } });
    },
    STEP,
  );

  it(
    'install-crl refuses foreign lists and junk; development keyrings refuse the ceremony',
    async () => {
      await ok([
        'keys',
        'offline',
        'revoke',
        json(await ok([...sign(at('h.csr'), otherRoot), '--json'])).fingerprint,
        '--root-dir',
        otherRoot,
        '--out',
        at('foreign-crl.pem'),
      ]);
      await refused(
        ['keys', 'install-crl', at('foreign-crl.pem'), '--data', data],
        'CHAIN_INVALID',
      );
      await refused(
        ['keys', 'install-crl', at('garbage.pem'), '--data', data],
        'INVALID_CERTIFICATE',
      );
      await refused(
        ['keys', 'offline', 'revoke', `sha256:${'0'.repeat(64)}`, '--root-dir', rootDir],
        'UNKNOWN_ISSUER',
      );

      const dev = at('h-dev');
      await ok(['keys', 'init', '--data', dev]);
      await refused(['keys', 'csr', '--data', dev], 'DEVELOPMENT_ROOT');
      await refused(
        ['keys', 'install-crl', join(rootDir, 'revocation.crl.pem'), '--data', dev],
        'DEVELOPMENT_ROOT',
      );
    },
    STEP,
  );

  it(
    'never writes --out over an existing file without --force, nor through a link with it',
    async () => {
      const rootKey = join(rootDir, 'root.key.pem');
      const key = readFileSync(rootKey);
      const overKey = await refused([...sign(at('h.csr')), '--out', rootKey], 'INVALID_ARGUMENT');
      expect(overKey).toContain('exists; pass --force');
      symlinkSync(rootKey, at('innocent.pem'));
      await refused([...sign(at('h.csr')), '--out', at('innocent.pem')], 'INVALID_ARGUMENT');
      const forced = await refused(
        [...sign(at('h.csr')), '--out', at('innocent.pem'), '--force'],
        'INVALID_ARGUMENT',
      );
      expect(forced).toContain('not a regular file');
      // Refused before anything is revoked.
      const issued = json(await ok([...sign(at('h.csr')), '--json'])).fingerprint;
      const list = readFileSync(join(rootDir, 'revocation.crl.pem'));
      await refused(
        ['keys', 'offline', 'revoke', issued, '--root-dir', rootDir, '--out', rootKey],
        'INVALID_ARGUMENT',
      );
      expect(readFileSync(join(rootDir, 'revocation.crl.pem')).equals(list)).toBe(true);
      expect(readFileSync(rootKey).equals(key)).toBe(true);
      expect(lstatSync(at('innocent.pem')).isSymbolicLink()).toBe(true);

      // --force replaces a regular file, and only that.
      writeFileSync(at('old.pem'), 'old');
      await ok([...sign(at('h.csr')), '--out', at('old.pem'), '--force']);
      expect(readFileSync(at('old.pem'), 'utf8')).toMatch(/^-----BEGIN CERTIFICATE-----/);
      const outs = readdirSync(dir).filter((n) => n.endsWith('.tmp'));
      expect(outs).toEqual([]);
      await refused(
        [
          'validate',
          '--protocol',
          at('protocol.json'),
          '--artifact',
          at('artifact.json'),
          '--data',
          data,
          '--event-out',
          at('old.pem'),
        ],
        'INVALID_ARGUMENT',
      );
    },
    STEP,
  );
});

describe('the development root, as the CLI shows it', () => {
  it(
    'keys init / list say development; verify reports it and can refuse it',
    async () => {
      const data = at('dev');
      const init = await ok(['keys', 'init', '--data', data]);
      expect(init.stdout).toContain('(development root)');
      expect(init.stdout).toContain('warning: development root');
      const listed = json(await ok(['keys', 'list', '--data', data, '--json']));
      expect(listed).toMatchObject({ development_root: true, root_key: 'local', can_sign: true });
      const human = await ok(['keys', 'list', '--data', data]);
      expect(human.stdout).toMatch(/root {4}sha256:[0-9a-f]{64} \(development root\)/);
      expect(human.stdout).toContain('not production-grade attestation');

      const event = await signedEvent(data, 'dev-event.json');
      const rootPath = at('dev-root.pem');
      writeFileSync(rootPath, (await ok(['keys', 'root', '--data', data])).stdout);
      const verified = await ok([
        'verify',
        '--event',
        event,
        '--root',
        rootPath,
        '--data',
        data,
        '--json',
      ]);
      expect(json(verified)).toMatchObject({ verified: true, development_root: true });
      const text = await ok(['verify', '--event', event, '--root', rootPath, '--data', data]);
      expect(text.stdout).toMatch(/^VERIFIED /);
      expect(text.stdout).toContain('warning: development root');
      const strict = await runCli([
        'verify',
        '--event',
        event,
        '--root',
        rootPath,
        '--data',
        data,
        '--require-production-root',
        '--json',
      ]);
      expect(strict.code).toBe(1);
      expect(json(strict)).toMatchObject({ verified: false, error: { code: 'DEVELOPMENT_ROOT' } });

      const production = at('prod-list');
      await ok(['keys', 'offline', 'init', '--root-dir', at('prod-root')]);
      await ok([
        'keys',
        'init',
        '--root-cert',
        at('prod-root', 'root.cert.pem'),
        '--crl',
        at('prod-root', 'revocation.crl.pem'),
        '--data',
        production,
      ]);
      const plain = await ok(['keys', 'list', '--data', production]);
      expect(plain.stdout).toContain('(root key offline)');
      expect(plain.stdout).not.toContain('development');
      expect(plain.stdout).toContain('no active issuer');
    },
    STEP,
  );
});

describe('an --out whose folder does not exist', () => {
  const rootDir = at('o-root');
  const data = at('o-server');
  const missing = (name: string) => at('o-no-such-folder', name);

  it(
    'is refused before csr, offline sign or offline revoke change anything',
    async () => {
      await ok(['keys', 'offline', 'init', '--root-dir', rootDir]);
      const pin = ['--root-cert', join(rootDir, 'root.cert.pem')];
      await ok([
        'keys',
        'init',
        ...pin,
        '--crl',
        join(rootDir, 'revocation.crl.pem'),
        '--data',
        data,
      ]);

      const csr = await refused(
        ['keys', 'csr', '--data', data, '--out', missing('x.csr')],
        'INVALID_ARGUMENT',
      );
      expect(csr).toContain('its folder does not exist');
      expect(json(await ok(['keys', 'list', '--data', data, '--json'])).pending_issuer).toBeNull();
      expect(readdirSync(join(data, 'keys')).filter((n) => n.startsWith('pending-'))).toEqual([]);

      await ok(['keys', 'csr', '--data', data, '--out', at('o.csr')]);
      await refused(
        ['keys', 'offline', 'sign', at('o.csr'), '--root-dir', rootDir, '--out', missing('i.pem')],
        'INVALID_ARGUMENT',
      );
      const listed = () => ok(['keys', 'offline', 'list', '--root-dir', rootDir, '--json']);
      expect(json(await listed()).issued).toEqual([]);

      await ok([
        'keys',
        'offline',
        'sign',
        at('o.csr'),
        '--root-dir',
        rootDir,
        '--out',
        at('o.pem'),
      ]);
      await ok(['keys', 'install-issuer', at('o.pem'), '--data', data]);
      const [issued] = json(await listed()).issued;
      await refused(
        [
          'keys',
          'offline',
          'revoke',
          issued.fingerprint,
          '--root-dir',
          rootDir,
          '--out',
          missing('crl.pem'),
        ],
        'INVALID_ARGUMENT',
      );
      expect(json(await listed()).issued).toEqual([
        expect.objectContaining({ fingerprint: issued.fingerprint, revoked: false }),
      ]);
    },
    STEP,
  );
});
