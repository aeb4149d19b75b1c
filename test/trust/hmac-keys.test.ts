import { spawn } from 'node:child_process';
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { HmacKeyring, hmacCheck, hmacSeal, Keyring } from '../../src/trust/index.js';
import { freshDir, rejectionCode } from './temp-dir.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const RACER = join(ROOT, 'test/fixtures/hmac-first-key.mjs');
const NO_ENV = { env: {} };
const bytes = (text: string) => new TextEncoder().encode(text);
const mode = async (path: string) => (await stat(path)).mode & 0o777;
const keyDir = (data: string, project: string) => join(data, 'keys', 'hmac', project);

/** The key bytes of `k<n>` as the file holds them, base64url and hex, for leak checks. */
async function keyTexts(data: string, project: string, n: number): Promise<string[]> {
  const file = JSON.parse(await readFile(join(keyDir(data, project), `k${n}.json`), 'utf8'));
  return [file.key, Buffer.from(file.key, 'base64url').toString('hex')];
}

/** The message of the error a promise rejects with. */
async function rejectionMessage(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'RESOLVED';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('HMAC keys in the data directory', () => {
  it('creates the first key on first use: 0600 in 0700 folders, written nowhere else', async () => {
    const data = await freshDir();
    const keyring = HmacKeyring.open(data, NO_ENV);
    expect(keyring.source).toBe('files');
    expect(existsSync(join(data, 'keys'))).toBe(false); // nothing until a key is used
    const seal = await hmacSeal(keyring, 'alpha', bytes('cso 1'));
    expect(seal).toMatch(/^hmac-sha256:k1:[0-9a-f]{64}$/);
    expect(await mode(join(data, 'keys'))).toBe(0o700);
    expect(await mode(join(data, 'keys', 'hmac'))).toBe(0o700);
    expect(await mode(keyDir(data, 'alpha'))).toBe(0o700);
    expect(await readdir(keyDir(data, 'alpha'))).toEqual(['k1.json']); // no temp file left
    expect(await mode(join(keyDir(data, 'alpha'), 'k1.json'))).toBe(0o600);
  });

  it('forces 0700 on an existing wider HMAC folder when it writes a key', async () => {
    const data = await freshDir();
    await mkdir(keyDir(data, 'alpha'), { recursive: true });
    await chmod(keyDir(data, 'alpha'), 0o755);
    await HmacKeyring.open(data, NO_ENV).current('alpha');
    expect(await mode(keyDir(data, 'alpha'))).toBe(0o700);
  });

  it('gives each project its own key: a seal of one project does not check in another', async () => {
    const keyring = HmacKeyring.open(await freshDir(), NO_ENV);
    const seal = await hmacSeal(keyring, 'alpha', bytes('same bytes'));
    const other = await hmacSeal(keyring, 'beta', bytes('same bytes'));
    expect(other.split(':')[1]).toBe('k1');
    expect(other).not.toBe(seal);
    expect(await hmacCheck(keyring, 'beta', bytes('same bytes'), seal)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('rotates: new seals use the new id, old seals still verify, here and in a fresh keyring', async () => {
    const data = await freshDir();
    const keyring = HmacKeyring.open(data, NO_ENV);
    const old = await hmacSeal(keyring, 'alpha', bytes('window 1'));
    expect(await keyring.rotate('alpha')).toMatchObject({ keyId: 'k2', status: 'current' });
    const fresh = await hmacSeal(keyring, 'alpha', bytes('window 2'));
    expect(fresh.split(':')[1]).toBe('k2');
    const reopened = HmacKeyring.open(data, NO_ENV);
    for (const ring of [keyring, reopened]) {
      expect(await hmacCheck(ring, 'alpha', bytes('window 1'), old)).toEqual({ ok: true });
      expect(await hmacCheck(ring, 'alpha', bytes('window 2'), fresh)).toEqual({ ok: true });
    }
    expect((await reopened.current('alpha')).keyId).toBe('k2');
    const listed = await reopened.keys('alpha');
    expect(listed.map((k) => [k.keyId, k.status])).toEqual([
      ['k1', 'retired'],
      ['k2', 'current'],
    ]);
    expect(await readdir(keyDir(data, 'alpha'))).toEqual(['k1.json', 'k2.json']);
    expect(await mode(join(keyDir(data, 'alpha'), 'k2.json'))).toBe(0o600);
  });

  it("follows another keyring's rotation at its next seal, and finds keys it has not loaded", async () => {
    const data = await freshDir();
    const a = HmacKeyring.open(data, NO_ENV);
    const b = HmacKeyring.open(data, NO_ENV);
    expect((await a.current('alpha')).keyId).toBe('k1');
    await b.rotate('alpha');
    const sealB = await hmacSeal(b, 'alpha', bytes('x'));
    expect(await hmacCheck(a, 'alpha', bytes('x'), sealB)).toEqual({ ok: true });
    expect((await a.current('alpha')).keyId).toBe('k2');
  });

  it('keeps every rotation when keyrings rotate at once', async () => {
    const data = await freshDir();
    await HmacKeyring.open(data, NO_ENV).current('alpha');
    const rings = Array.from({ length: 5 }, () => HmacKeyring.open(data, NO_ENV));
    const made = await Promise.all(rings.map((r) => r.rotate('alpha')));
    expect(made.map((k) => k.keyId).sort()).toEqual(['k2', 'k3', 'k4', 'k5', 'k6']);
    expect((await rings[0]!.keys('alpha')).map((k) => k.keyId)).toEqual([
      'k1',
      'k2',
      'k3',
      'k4',
      'k5',
      'k6',
    ]);
  });

  it('ends with one first key when keyrings in one process race to create it', async () => {
    const data = await freshDir();
    const rings = Array.from({ length: 8 }, () => HmacKeyring.open(data, NO_ENV));
    const seals = await Promise.all(rings.map((r) => hmacSeal(r, 'alpha', bytes('race'))));
    expect(new Set(seals).size).toBe(1);
    expect(await readdir(keyDir(data, 'alpha'))).toEqual(['k1.json']);
  });

  it('refuses project names that are not names (they become folder names)', async () => {
    const keyring = HmacKeyring.open(await freshDir(), NO_ENV);
    for (const project of ['../x', 'Alpha', '', 'a/b', '.hidden', 'x'.repeat(65)]) {
      expect(await rejectionCode(keyring.current(project)), project).toBe('INVALID_PROJECT');
      expect(await rejectionCode(keyring.rotate(project)), project).toBe('INVALID_PROJECT');
    }
  });

  it('reads key files as hostile input: a changed, truncated or symlinked file is KEYRING_CORRUPT', async () => {
    const data = await freshDir();
    const keyring = HmacKeyring.open(data, NO_ENV);
    await keyring.current('alpha');
    const file = join(keyDir(data, 'alpha'), 'k1.json');
    const original = JSON.parse(await readFile(file, 'utf8'));
    const [key] = await keyTexts(data, 'alpha', 1);
    const variants: Record<string, string> = {
      extra: JSON.stringify({ ...original, extra: 1 }),
      short: JSON.stringify({ ...original, key: original.key.slice(0, 42) }),
      project: JSON.stringify({ ...original, project: 'beta' }),
      id: JSON.stringify({ ...original, key_id: 'k2' }),
      truncated: JSON.stringify(original).slice(0, 40),
    };
    for (const [what, text] of Object.entries(variants)) {
      await writeFile(file, text);
      const fresh = HmacKeyring.open(data, NO_ENV);
      const message = await rejectionMessage(fresh.current('alpha'));
      expect(await rejectionCode(fresh.current('alpha')), what).toBe('KEYRING_CORRUPT');
      expect(message, what).not.toContain(key!.slice(0, 12));
    }
    await writeFile(join(data, 'elsewhere.json'), JSON.stringify(original));
    await rm(file);
    await symlink(join(data, 'elsewhere.json'), file);
    expect(await rejectionCode(HmacKeyring.open(data, NO_ENV).current('alpha'))).toBe(
      'KEYRING_CORRUPT',
    );
  });

  it('lives beside the X.509 keyring: HMAC keys first, then the keyring is still missing and creatable', async () => {
    const data = await freshDir();
    await HmacKeyring.open(data, NO_ENV).current('alpha');
    expect(await rejectionCode(Keyring.open(data))).toBe('KEYRING_MISSING');
    const keyring = await Keyring.openOrInit(data);
    expect(keyring.canSign).toBe(true);
    expect((await Keyring.open(data)).rootFingerprint).toBe(keyring.rootFingerprint);
    expect(await readdir(keyDir(data, 'alpha'))).toEqual(['k1.json']);
  });
});

describe('seals', () => {
  it('fails on any changed byte of the message or the MAC', async () => {
    const keyring = HmacKeyring.inMemory();
    const message = bytes('{"window":1,"claims":["a","b"]}');
    const seal = await hmacSeal(keyring, 'alpha', message);
    expect(await hmacCheck(keyring, 'alpha', message, seal)).toEqual({ ok: true });
    for (let i = 0; i < message.length; i++) {
      const tampered = Uint8Array.from(message);
      tampered[i]! ^= 0x01;
      expect(await hmacCheck(keyring, 'alpha', tampered, seal)).toEqual({
        ok: false,
        reason: 'mismatch',
      });
    }
    const last = seal.at(-1) === '0' ? '1' : '0';
    expect(await hmacCheck(keyring, 'alpha', message, `${seal.slice(0, -1)}${last}`)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(await hmacCheck(keyring, 'alpha', message.subarray(1), seal)).toMatchObject({
      ok: false,
    });
  });

  it('says unknown-key for a well-formed id this project has no key for', async () => {
    const keyring = HmacKeyring.inMemory();
    const seal = await hmacSeal(keyring, 'alpha', bytes('m'));
    const mac = seal.split(':')[2];
    for (const id of ['k2', 'k99', 'env-0badc0de']) {
      expect(await hmacCheck(keyring, 'alpha', bytes('m'), `hmac-sha256:${id}:${mac}`)).toEqual({
        ok: false,
        reason: 'unknown-key',
      });
      expect(await keyring.verify('alpha', id, bytes('m'), mac!)).toBe(false);
    }
    // Checking never creates: a project with no key has none afterwards.
    expect(await hmacCheck(keyring, 'beta', bytes('m'), seal)).toEqual({
      ok: false,
      reason: 'unknown-key',
    });
    expect(await keyring.keys('beta')).toEqual([]);
  });

  it('says malformed for anything that is not a seal', async () => {
    const keyring = HmacKeyring.inMemory();
    const seal = await hmacSeal(keyring, 'alpha', bytes('m'));
    const mac = seal.split(':')[2]!;
    const bad: unknown[] = [
      undefined,
      42,
      '',
      `hmac-sha512:k1:${mac}`,
      `hmac-sha256:k1:${mac.toUpperCase()}`,
      `hmac-sha256:k1:${mac.slice(2)}`,
      `hmac-sha256:k1:${mac}00`,
      `hmac-sha256:K1:${mac}`,
      `hmac-sha256:k0:${mac}`,
      `hmac-sha256::${mac}`,
      `hmac-sha256:k1:${mac}:extra`,
      ` ${seal}`,
      `${seal}\n`,
      `hmac-sha256:${'k'.repeat(200)}:${mac}`,
    ];
    for (const value of bad) {
      expect(await hmacCheck(keyring, 'alpha', bytes('m'), value), String(value)).toEqual({
        ok: false,
        reason: 'malformed',
      });
    }
    expect(await keyring.verify('alpha', 'k1', bytes('m'), mac.toUpperCase())).toBe(false);
  });

  it('keeps keys in memory for inMemory(): numbered, rotated, nothing on disk', async () => {
    const keyring = HmacKeyring.inMemory();
    expect(keyring.source).toBe('memory');
    const first = await hmacSeal(keyring, 'alpha', bytes('m'));
    await keyring.rotate('alpha');
    expect((await keyring.current('alpha')).keyId).toBe('k2');
    expect(await hmacCheck(keyring, 'alpha', bytes('m'), first)).toEqual({ ok: true });
    // Another in-memory keyring has other keys.
    expect(await hmacCheck(HmacKeyring.inMemory(), 'alpha', bytes('m'), first)).toEqual({
      ok: false,
      reason: 'unknown-key',
    });
  });
});

describe('the keys never leave the keyring', () => {
  it('shows only ids in JSON, inspect and errors', async () => {
    const data = await freshDir();
    const keyring = HmacKeyring.open(data, NO_ENV);
    const key = await keyring.current('alpha');
    await keyring.rotate('alpha');
    const rotated = await keyring.current('alpha');
    const secrets = [...(await keyTexts(data, 'alpha', 1)), ...(await keyTexts(data, 'alpha', 2))];
    const shown = [
      JSON.stringify(keyring),
      JSON.stringify(key),
      JSON.stringify(rotated),
      JSON.stringify(await keyring.keys('alpha')),
      inspect(keyring, { depth: Infinity, showHidden: true }),
      inspect(key, { depth: Infinity, showHidden: true }),
      inspect({ keyring, key }, { depth: Infinity, showHidden: true, customInspect: true }),
      String(keyring),
      Object.keys(key).join(),
      await rejectionMessage(keyring.current('../x')),
      await rejectionMessage(HmacKeyring.fromKey(secrets[1]!).rotate('alpha')),
    ];
    expect(JSON.parse(JSON.stringify(key))).toEqual({ keyId: 'k1' });
    expect(JSON.parse(JSON.stringify(keyring))).toEqual({ source: 'files' });
    for (const text of shown) {
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
    expect(Object.keys(key).sort()).toEqual(['keyId', 'sign', 'toJSON']);
    expect(Object.isFrozen(key)).toBe(true);
  });

  it('refuses to sign what is not bytes, without showing a key', async () => {
    const key = await HmacKeyring.inMemory().current('alpha');
    expect(() => key.sign('text' as unknown as Uint8Array)).toThrow(/Uint8Array/);
  });
});

describe('CANONRY_HMAC_KEY', () => {
  const master = randomBytes(32);
  const derived = (project: string) =>
    Buffer.from(
      hkdfSync('sha256', master, Buffer.alloc(0), `canonry hmac key v1 project:${project}`, 32),
    );

  it('is one key for every project, read as hex or base64, with an env-<8 hex> id', async () => {
    const data = await freshDir();
    const forms = [
      master.toString('hex'),
      master.toString('hex').toUpperCase(),
      master.toString('base64'),
      master.toString('base64url'),
      ` ${master.toString('base64')}\n`,
    ];
    const seals = new Set<string>();
    for (const value of forms) {
      const keyring = HmacKeyring.open(data, { env: { CANONRY_HMAC_KEY: value } });
      expect(keyring.source).toBe('environment');
      seals.add(await hmacSeal(keyring, 'alpha', bytes('m')));
    }
    expect(seals.size).toBe(1);
    const [seal] = [...seals];
    expect(seal).toMatch(/^hmac-sha256:env-[0-9a-f]{8}:[0-9a-f]{64}$/);
    expect(existsSync(join(data, 'keys'))).toBe(false); // nothing written
    // What an outside verifier holding the key computes: HMAC under the HKDF-derived project key.
    const mac = createHmac('sha256', derived('alpha')).update(bytes('m')).digest('hex');
    expect(seal!.split(':')[2]).toBe(mac);
    const other = HmacKeyring.fromKey(master.toString('hex'));
    expect(await hmacCheck(other, 'alpha', bytes('m'), seal)).toEqual({ ok: true });
    expect(await hmacCheck(other, 'beta', bytes('m'), seal)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    // Another key gets another id, so its seals are reported as made under an unknown key.
    const changed = HmacKeyring.fromKey(randomBytes(32).toString('hex'));
    expect(await hmacCheck(changed, 'alpha', bytes('m'), seal)).toEqual({
      ok: false,
      reason: 'unknown-key',
    });
  });

  it('still verifies keys the data directory made before it was set; rotation is refused', async () => {
    const data = await freshDir();
    const before = await hmacSeal(HmacKeyring.open(data, NO_ENV), 'alpha', bytes('m'));
    const keyring = HmacKeyring.open(data, { env: { CANONRY_HMAC_KEY: master.toString('hex') } });
    expect(await hmacCheck(keyring, 'alpha', bytes('m'), before)).toEqual({ ok: true });
    expect((await keyring.current('alpha')).keyId).toMatch(/^env-/);
    expect((await keyring.keys('alpha')).map((k) => k.status)).toEqual(['retired', 'current']);
    expect(await rejectionCode(keyring.rotate('alpha'))).toBe('INVALID_ARGUMENT');
    expect(await rejectionMessage(keyring.rotate('alpha'))).toContain('CANONRY_HMAC_KEY');
  });

  it('refuses a malformed value with INVALID_ARGUMENT naming the variable, never echoing it', () => {
    const bad = [
      randomBytes(31).toString('hex'), // too short
      randomBytes(31).toString('base64'),
      `${master.toString('hex')}z`,
      `${master.toString('base64').replace(/=+$/, '')}===`,
      'not base64 at all!!',
      'A'.repeat(2048),
    ];
    for (const value of bad) {
      let error: unknown;
      try {
        HmacKeyring.open('/nonexistent', { env: { CANONRY_HMAC_KEY: value } });
      } catch (e) {
        error = e;
      }
      expect((error as { code?: string }).code, value).toBe('INVALID_ARGUMENT');
      const message = (error as Error).message;
      expect(message).toContain('CANONRY_HMAC_KEY');
      expect(message).not.toContain(value.trim().slice(0, 16));
    }
  });
});

/** Starts a racer process; resolves once it is ready to go. */
function startRacer(data: string, project: string, message: string) {
  const child = spawn(process.execPath, [RACER, data, project, message], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  const waiting: Array<() => void> = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
    for (const wake of waiting.splice(0)) wake();
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  const line = async (n: number): Promise<string> => {
    while (lines.length <= n) {
      const exitedFirst = await Promise.race([
        new Promise<false>((wake) => waiting.push(() => wake(false))),
        exited.then(() => true),
      ]);
      if (exitedFirst && lines.length <= n) throw new Error(`racer exited: ${stderr}`);
    }
    return lines[n]!;
  };
  return {
    line,
    send: (text: string) => child.stdin.write(`${text}\n`),
    exited,
  };
}

describe('two processes make the first key at once', () => {
  it('end with one key that both use, and each verifies the other’s seal', async () => {
    for (const file of ['dist/trust/index.js', 'dist/trust/hmac-keyring.js']) {
      if (!existsSync(join(ROOT, file))) throw new Error(`${file} is missing: run npm run build`);
    }
    for (let round = 0; round < 3; round++) {
      const data = await freshDir();
      const racers = ['first', 'second'].map((m) => startRacer(data, 'alpha', `${m} ${round}`));
      for (const racer of racers) expect(await racer.line(0)).toBe('ready');
      for (const racer of racers) racer.send('go');
      const results = await Promise.all(
        racers.map(async (r) => JSON.parse(await r.line(1)) as { keyId: string; seal: string }),
      );
      expect(results.map((r) => r.keyId)).toEqual(['k1', 'k1']);
      expect(await readdir(keyDir(data, 'alpha'))).toEqual(['k1.json']);
      racers[0]!.send(JSON.stringify({ message: `second ${round}`, seal: results[1]!.seal }));
      racers[1]!.send(JSON.stringify({ message: `first ${round}`, seal: results[0]!.seal }));
      for (const racer of racers) {
        expect(JSON.parse(await racer.line(2))).toEqual({ ok: true });
        expect(await racer.exited).toBe(0);
      }
      // And this process, which made nothing, verifies both.
      const here = HmacKeyring.open(data, NO_ENV);
      for (const [i, m] of ['first', 'second'].entries()) {
        expect(await hmacCheck(here, 'alpha', bytes(`${m} ${round}`), results[i]!.seal)).toEqual({
          ok: true,
        });
      }
    }
  });
});
