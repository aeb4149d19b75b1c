import {
  createPrivateKey,
  createPublicKey,
  createSecretKey,
  generateKeyPairSync,
  sign,
} from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isCanonicalPointEncoding, verifyEd25519 } from '../../src/trust/index.js';
import { conformanceDir } from '../conformance-path.js';

interface VectorTest {
  tcId: number;
  comment: string;
  msg: string;
  sig: string;
  result: 'valid' | 'invalid' | 'acceptable';
}
interface V1Group {
  publicKey: { pk: string };
  publicKeyDer: string;
  tests: VectorTest[];
}
interface LegacyGroup {
  key: { pk: string; sk: string };
  keyDer: string;
  tests: VectorTest[];
}

function load<G>(path: string): { numberOfTests: number; testGroups: G[] } {
  return JSON.parse(readFileSync(conformanceDir('wycheproof', path), 'utf8'));
}

const hex = (s: string) => Buffer.from(s, 'hex');

describe('Wycheproof Ed25519 v1 (C2SP)', () => {
  const suite = load<V1Group>('testvectors_v1/ed25519_test.json');

  it('verifies exactly the valid vectors, with a KeyObject and with raw key bytes', () => {
    let count = 0;
    const mismatches: number[] = [];
    for (const group of suite.testGroups) {
      const key = createPublicKey({ key: hex(group.publicKeyDer), format: 'der', type: 'spki' });
      const raw = hex(group.publicKey.pk);
      for (const test of group.tests) {
        count++;
        const expected = test.result === 'valid';
        const viaKey = verifyEd25519(key, hex(test.msg), hex(test.sig));
        const viaRaw = verifyEd25519(raw, hex(test.msg), hex(test.sig));
        if (viaKey !== expected || viaRaw !== expected) mismatches.push(test.tcId);
      }
    }
    expect(count).toBe(151);
    expect(suite.numberOfTests).toBe(151);
    expect(mismatches).toEqual([]);
  });

  it('rejects test 151 (R encodes y = 1 with the x sign bit set) before OpenSSL sees it', () => {
    const group = suite.testGroups.find((g) => g.tests.some((t) => t.tcId === 151))!;
    const test = group.tests.find((t) => t.tcId === 151)!;
    expect(test.result).toBe('invalid');
    expect(isCanonicalPointEncoding(hex(test.sig).subarray(0, 32))).toBe(false);
    expect(verifyEd25519(hex(group.publicKey.pk), hex(test.msg), hex(test.sig))).toBe(false);
  });
});

describe('Wycheproof EdDSA legacy (google)', () => {
  const suite = load<LegacyGroup>('testvectors/eddsa_test.json');

  it('verification agrees with every result', () => {
    const mismatches: number[] = [];
    let count = 0;
    for (const group of suite.testGroups) {
      const key = createPublicKey({ key: hex(group.keyDer), format: 'der', type: 'spki' });
      for (const test of group.tests) {
        count++;
        if (verifyEd25519(key, hex(test.msg), hex(test.sig)) !== (test.result === 'valid')) {
          mismatches.push(test.tcId);
        }
      }
    }
    expect(count).toBe(suite.numberOfTests);
    expect(mismatches).toEqual([]);
  });

  it('signing each valid message with the group key reproduces the signature byte for byte', () => {
    let signed = 0;
    for (const group of suite.testGroups) {
      const privateKey = createPrivateKey({
        key: {
          kty: 'OKP',
          crv: 'Ed25519',
          d: hex(group.key.sk).toString('base64url'),
          x: hex(group.key.pk).toString('base64url'),
        },
        format: 'jwk',
      });
      for (const test of group.tests.filter((t) => t.result === 'valid')) {
        expect(sign(null, hex(test.msg), privateKey).toString('hex')).toBe(test.sig);
        signed++;
      }
    }
    expect(signed).toBeGreaterThan(0);
  });
});

describe('verifyEd25519 on hostile input', () => {
  it('returns false instead of throwing', () => {
    const key = hex('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
    const bad: unknown[] = [
      null,
      undefined,
      'text',
      42,
      {},
      [],
      new Uint8Array(31),
      new Uint8Array(33),
    ];
    for (const value of bad) {
      expect(verifyEd25519(value as Uint8Array, new Uint8Array(0), new Uint8Array(64))).toBe(false);
      expect(verifyEd25519(key, value as Uint8Array, new Uint8Array(64))).toBe(false);
      expect(verifyEd25519(key, new Uint8Array(0), value as Uint8Array)).toBe(false);
    }
    expect(
      verifyEd25519(createSecretKey(Buffer.alloc(32)), new Uint8Array(0), new Uint8Array(64)),
    ).toBe(false);
    const { publicKey: rsa } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    expect(verifyEd25519(rsa, new Uint8Array(0), new Uint8Array(64))).toBe(false);
  });

  it('refuses non-canonical point encodings', () => {
    const p = (1n << 255n) - 19n;
    const encode = (y: bigint, sign: boolean) => {
      const bytes = Buffer.from(y.toString(16).padStart(64, '0'), 'hex').reverse();
      if (sign) bytes[31] = (bytes[31] as number) | 0x80;
      return bytes;
    };
    expect(isCanonicalPointEncoding(encode(1n, false))).toBe(true);
    expect(isCanonicalPointEncoding(encode(1n, true))).toBe(false);
    expect(isCanonicalPointEncoding(encode(p - 1n, true))).toBe(false);
    expect(isCanonicalPointEncoding(encode(p, false))).toBe(false);
    expect(isCanonicalPointEncoding(encode(p + 1n, false))).toBe(false);
    expect(isCanonicalPointEncoding(encode(9n, true))).toBe(true);
  });
});
