import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContentHash, canonicalize } from '../../src/core/index.js';
import {
  type ConformanceEvent,
  EventEncoder,
  signConformanceEvent,
  verifyConformanceEvent,
} from '../../src/kernel/index.js';
import { documentBytes, Keyring, type Signer } from '../../src/trust/index.js';
import { tempDir } from '../helpers/runtime.js';

let keyring: Keyring;
let cleanup: () => void;
beforeAll(async () => {
  const t = tempDir();
  cleanup = t.cleanup;
  keyring = await Keyring.init(t.dir);
});
afterAll(() => cleanup());

const hash = fc.stringMatching(/^[0-9a-f]{64}$/).map((h) => `sha256:${h}` as ContentHash);
const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 });

describe('EventEncoder', () => {
  it('signs exactly the RFC 8785 bytes of the event without its signature', () => {
    const encoder = new EventEncoder();
    const signer = keyring.signer();
    fc.assert(
      fc.property(
        hash,
        hash,
        hash,
        text,
        text,
        text,
        (protocolHash, artifact, meta, slug, version, label) => {
          const event = encoder.sign(
            signer,
            { hash: protocolHash, slug, version },
            artifact,
            meta,
            label,
          );
          const { signature, ...unsigned } = event;
          const verified = verifyConformanceEvent(JSON.parse(JSON.stringify(event)), {
            root: keyring.rootCertificatePem,
          });
          expect(verified.ok).toBe(true);
          expect(canonicalize(unsigned)).toContain(`"label":${JSON.stringify(label)}`);
          expect(signature.alg).toBe('Ed25519');
        },
      ),
      { numRuns: 200 },
    );
  });

  it('writes the JSON text of the event byte for byte as JSON.stringify, and signs the same bytes as sign', () => {
    const encoder = new EventEncoder();
    const signer = keyring.signer();
    fc.assert(
      fc.property(
        hash,
        hash,
        hash,
        text,
        text,
        text,
        (protocolHash, artifact, meta, slug, version, label) => {
          const protocol = { hash: protocolHash, slug, version };
          const { event, json } = encoder.encode(signer, protocol, artifact, meta, label);
          expect(json).toBe(JSON.stringify(event));
          // Ed25519 is deterministic: the same bytes signed give the same signature.
          const signed = encoder.sign(signer, protocol, artifact, meta, label);
          expect(signed.signature).toEqual(event.signature);
          expect(
            verifyConformanceEvent(JSON.parse(json), { root: keyring.rootCertificatePem }).ok,
          ).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('one encoder alternating between two signers writes the bytes a fresh encoder and the general path write', async () => {
    const t = tempDir();
    try {
      const other = await Keyring.init(t.dir);
      const signers: Signer[] = [keyring.signer(), other.signer()];
      expect(signers[0]!.fingerprint).not.toBe(signers[1]!.fingerprint);
      const cached = new EventEncoder();
      const protocol = { hash: `sha256:${'c'.repeat(64)}` as ContentHash, slug: 's', version: '1' };
      const meta = `sha256:${'d'.repeat(64)}` as ContentHash;
      for (let i = 0; i < 12; i++) {
        const signer = signers[i % 2]!;
        const artifact = `sha256:${i.toString(16).padStart(64, '0')}` as ContentHash;
        const label = `L${i}`;
        const event = cached.sign(signer, protocol, artifact, meta, label);
        const fresh = new EventEncoder().sign(signer, protocol, artifact, meta, label);
        const general = signConformanceEvent(
          {
            class: 'CONFORMANT',
            label,
            protocolHash: protocol.hash,
            artifactHash: artifact,
            detail: { reason: 'matched' },
          },
          protocol,
          meta,
          signer,
        );
        expect(event.issuer).toEqual({
          fingerprint: signer.fingerprint,
          certificate: signer.certificatePem,
        });
        expect(canonicalize(event)).toBe(canonicalize(fresh));
        expect(canonicalize(event)).toBe(canonicalize(general));
        const { signature: _s, ...unsigned } = event;
        expect(documentBytes(unsigned).toString('utf8')).toBe(canonicalize(unsigned));
      }
    } finally {
      t.cleanup();
    }
  });

  it('a rotated keyring signs with its new issuer at once; a reloaded signer writes the same bytes', async () => {
    const t = tempDir();
    try {
      const rotating = await Keyring.init(t.dir);
      const encoder = new EventEncoder();
      const protocol = { hash: `sha256:${'e'.repeat(64)}` as ContentHash, slug: 'r', version: '2' };
      const meta = `sha256:${'f'.repeat(64)}` as ContentHash;
      const sign = (signer: Signer): ConformanceEvent =>
        encoder.sign(signer, protocol, meta, meta, 'OK');
      const before = sign(rotating.signer());
      await rotating.rotate();
      const after = sign(rotating.signer());
      expect(after.issuer.fingerprint).toBe(rotating.activeIssuer().fingerprint);
      expect(after.issuer.fingerprint).not.toBe(before.issuer.fingerprint);
      expect(after.issuer.certificate).toBe(rotating.signer().certificatePem);
      // Another Keyring object over the same files: a new Signer with the same fingerprint.
      const reloaded = (await Keyring.open(t.dir)).signer();
      expect(reloaded).not.toBe(rotating.signer());
      expect(canonicalize(sign(reloaded))).toBe(canonicalize(after));
      // A signer naming a fingerprint with another certificate gets its own block, never a cached one.
      const liar: Signer = { ...reloaded, certificatePem: before.issuer.certificate };
      expect(sign(liar).issuer.certificate).toBe(before.issuer.certificate);
      const root = rotating.rootCertificatePem;
      expect(verifyConformanceEvent(JSON.parse(JSON.stringify(after)), { root }).ok).toBe(true);
    } finally {
      t.cleanup();
    }
  });

  it('keeps one template per protocol and label, through a full cache and back', () => {
    const encoder = new EventEncoder();
    const signer = keyring.signer();
    const protocols = ['a', 'b'].map((c) => ({
      hash: `sha256:${c.repeat(64)}` as ContentHash,
      slug: `p-${c}`,
      version: '1',
    }));
    const root = keyring.rootCertificatePem;
    // 2 × 600 templates pass the cache's bound (1,024), so it empties once on the way; the same
    // label under two protocols must never share bytes, before or after.
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 600; i++) {
        for (const protocol of protocols) {
          const artifact =
            `sha256:${(i * 2 + round).toString(16).padStart(64, '0')}` as ContentHash;
          const event = encoder.sign(signer, protocol, artifact, artifact, `L${i}`);
          if (i % 97 !== 0) continue;
          expect(event.protocol.hash).toBe(protocol.hash);
          expect(verifyConformanceEvent(JSON.parse(JSON.stringify(event)), { root }).ok).toBe(true);
          const { signature: _s, ...unsigned } = event;
          expect(canonicalize(unsigned)).toContain(`"slug":"${protocol.slug}"`);
        }
      }
    }
  });
});
