import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalize, contentHash } from '../../src/core/index.js';
import {
  type ConformanceEvent,
  compileProtocol,
  EMPTY_METADATA_HASH,
  Kernel,
  verifyConformanceEvent,
} from '../../src/kernel/index.js';
import { Keyring } from '../../src/trust/index.js';
import { refundProtocol, tempDir } from '../helpers/runtime.js';

let keyring: Keyring;
let other: Keyring;
const dirs: Array<() => void> = [];

beforeAll(async () => {
  const a = tempDir();
  const b = tempDir();
  dirs.push(a.cleanup, b.cleanup);
  keyring = await Keyring.init(a.dir);
  other = await Keyring.init(b.dir);
});
afterAll(() => {
  for (const cleanup of dirs) cleanup();
});

function sign(
  artifact: unknown,
  protocol: unknown = refundProtocol(),
  k = keyring,
): ConformanceEvent {
  const kernel = new Kernel({ signer: k.signer() });
  const { event } = kernel.evaluate(artifact, compileProtocol(protocol), EMPTY_METADATA_HASH);
  if (!event) throw new Error('expected a conformant verdict');
  return event;
}

const pinned = () => ({
  root: keyring.rootCertificatePem,
  revocationList: keyring.revocationListPem(),
});

describe('conformance events', () => {
  it('are byte-identical for the same inputs and carry no clock', () => {
    const a = canonicalize(sign({ amount: 20 }));
    const b = canonicalize(sign(JSON.parse('{ "amount": 20 }')));
    expect(a).toBe(b);
    expect(a).not.toMatch(/20\d\d-\d\d-\d\dT/);
  });

  it('come with the envelope as JSON text, byte for byte JSON.stringify, from validate and attest only', async () => {
    const kernel = new Kernel({ signer: keyring.signer() });
    const { protocol } = await kernel.registry.register(refundProtocol());
    for (const artifact of [{ amount: 20 }, { amount: 640 }, { amount: 5000 }, { amount: 'x' }]) {
      const body = {
        artifact,
        agentic_protocol: protocol.hash,
        generation_metadata_hash: EMPTY_METADATA_HASH,
      };
      const validated = await kernel.validate(body);
      const evaluated = kernel.evaluate(artifact, protocol, EMPTY_METADATA_HASH);
      expect(evaluated.json).toBeUndefined();
      expect(canonicalize(validated.envelope)).toBe(canonicalize(evaluated.envelope));
      if (validated.verdict.class === 'CONFORMANT') {
        expect(validated.json).toBe(JSON.stringify(validated.envelope));
      } else {
        // Not conformant: no event to reuse; the server serialises the small envelope itself.
        expect(validated.json).toBeUndefined();
      }
    }
  });

  it('signed off the event loop by validate, many in flight at once, are the bytes evaluate signs', async () => {
    const kernel = new Kernel({ signer: keyring.signer() });
    const { protocol } = await kernel.registry.register(refundProtocol());
    // Same labels, so the requests share each label's byte template while their signatures wait.
    const amounts = Array.from({ length: 120 }, (_, i) => [20, 640, 5000][i % 3]! + i / 100);
    const validated = await Promise.all(
      amounts.map((amount) =>
        kernel.validate({
          artifact: { amount },
          agentic_protocol: protocol.hash,
          generation_metadata_hash: EMPTY_METADATA_HASH,
        }),
      ),
    );
    for (const [i, result] of validated.entries()) {
      const amount = amounts[i]!;
      const inline = kernel.evaluate({ amount }, protocol, EMPTY_METADATA_HASH);
      expect(result.event).not.toBeNull();
      expect(canonicalize(result.event)).toBe(canonicalize(inline.event));
      expect(result.json).toBe(JSON.stringify(result.envelope));
      const verified = verifyConformanceEvent(JSON.parse(JSON.stringify(result.event)), {
        ...pinned(),
        artifact: { amount },
      });
      expect(verified.ok).toBe(true);
    }
    expect(kernel.verdictCounts().get('CONFORMANT')).toBe(amounts.length * 2);
  });

  it('bind the protocol, artifact and metadata hashes, the label and the issuer certificate', () => {
    const event = sign({ amount: 20 });
    expect(event.protocol.hash).toBe(contentHash(refundProtocol()));
    expect(event.artifact_hash).toBe(contentHash({ amount: 20 }));
    expect(event.generation_metadata_hash).toBe(EMPTY_METADATA_HASH);
    expect(event.label).toBe('AUTO_APPROVE');
    expect(event.issuer.certificate).toBe(keyring.activeIssuer().certificatePem);
    expect(event.issuer.fingerprint).toBe(keyring.activeIssuer().fingerprint);
  });

  it('verify offline with the pinned root and every binding', () => {
    const result = verifyConformanceEvent(sign({ amount: 75 }), {
      ...pinned(),
      artifact: { amount: 75 },
      protocol: refundProtocol(),
      generationMetadataHash: EMPTY_METADATA_HASH,
    });
    expect(result.ok).toBe(true);
  });

  it('fail against another root', () => {
    const result = verifyConformanceEvent(sign({ amount: 20 }), { root: other.rootCertificatePem });
    expect(result.ok ? null : result.issues[0]!.code).toBe('CHAIN_INVALID');
  });

  it('fail when a bound hash or the re-derived verdict does not match', () => {
    const event = sign({ amount: 20 });
    const code = (opts: Record<string, unknown>) => {
      const r = verifyConformanceEvent(event, { ...pinned(), ...opts });
      return r.ok ? 'OK' : r.issues[0]!.code;
    };
    expect(code({ artifact: { amount: 21 } })).toBe('HASH_MISMATCH');
    expect(code({ protocol: { ...refundProtocol(), version: '1.1' } })).toBe('HASH_MISMATCH');
    expect(code({ generationMetadataHash: contentHash({ model: 'x' }) })).toBe('HASH_MISMATCH');
    expect(code({ artifact: { amount: 20 }, protocol: refundProtocol() })).toBe('OK');
  });

  it('a flipped byte in any field fails verification', () => {
    const event = sign({ amount: 640 });
    const fields = flatten(event);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: fields.length - 1 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (which, at, xor) => {
          const [path, value] = fields[which]!;
          const bytes = Buffer.from(String(value), 'utf8');
          const i = at % bytes.length;
          bytes[i] = bytes[i]! ^ xor;
          const flipped = bytes.toString('utf8');
          if (flipped === String(value)) return;
          const tampered = structuredClone(event) as unknown as Record<string, unknown>;
          setPath(tampered, path, typeof value === 'number' ? Number(flipped) : flipped);
          expect(verifyConformanceEvent(tampered, pinned()).ok).toBe(false);
        },
      ),
      { numRuns: 600 },
    );
  });

  it('from a rotated-out issuer still verify; from a revoked issuer they fail', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const ring = await Keyring.init(dir);
      const before = sign({ amount: 20 }, refundProtocol(), ring);
      await ring.rotate();
      const after = sign({ amount: 20 }, refundProtocol(), ring);
      expect(after.issuer.fingerprint).not.toBe(before.issuer.fingerprint);
      const trust = () => ({
        root: ring.rootCertificatePem,
        revocationList: ring.revocationListPem(),
      });
      expect(verifyConformanceEvent(before, trust()).ok).toBe(true);
      await ring.revoke(before.issuer.fingerprint);
      const revoked = verifyConformanceEvent(before, trust());
      expect(revoked.ok ? 'OK' : revoked.issues[0]!.code).toBe('ISSUER_REVOKED');
      expect(verifyConformanceEvent(after, trust()).ok).toBe(true);
    } finally {
      cleanup();
    }
  });

  it('reject hostile shapes without throwing', () => {
    const event = sign({ amount: 20 }) as unknown as Record<string, unknown>;
    const hostile: unknown[] = [
      null,
      [],
      'event',
      { ...event, extra: 1 },
      {
        ...event,
        signature: { alg: 'RS256', value: (event.signature as { value: string }).value },
      },
      {
        ...event,
        signature: { alg: 'Ed25519', value: `${(event.signature as { value: string }).value}A` },
      },
      { ...event, v: 2 },
      { ...event, conformant: false },
      {
        ...event,
        issuer: {
          fingerprint: (event.issuer as { fingerprint: string }).fingerprint,
          certificate: 'junk',
        },
      },
    ];
    for (const input of hostile) {
      const result = verifyConformanceEvent(input, pinned());
      expect(result.ok).toBe(false);
    }
  });
});

function flatten(value: unknown, path: string[] = []): Array<[string[], string | number]> {
  if (typeof value === 'string' || typeof value === 'number') return [[path, value]];
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => flatten(v, [...path, k]));
  }
  return [];
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[path.at(-1)!] = value;
}
