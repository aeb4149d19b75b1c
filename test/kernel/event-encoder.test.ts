import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContentHash, canonicalize } from '../../src/core/index.js';
import { EventEncoder, verifyConformanceEvent } from '../../src/kernel/index.js';
import { Keyring } from '../../src/trust/index.js';
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
});
