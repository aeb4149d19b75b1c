import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalBytes, canonicalize, contentHash } from '../../src/core/index.js';
import {
  assembleQualifiedEvent,
  type CognitiveAsset,
  effectivePolicyHash,
  eventBytes,
  governanceOf,
  type QualifiedEvent,
  QualifiedEventVerifier,
  signQualifiedEvent,
  verifyQualifiedEvent,
} from '../../src/evolution/index.js';
import { Keyring } from '../../src/trust/index.js';
import { tempDir } from '../helpers/runtime.js';
import { asset, draft, enterprisePrivate, userPrivate } from './assets.js';

let keyring: Keyring;
let other: Keyring;
const cleanups: (() => void)[] = [];

beforeAll(async () => {
  const a = tempDir();
  const b = tempDir();
  cleanups.push(a.cleanup, b.cleanup);
  keyring = await Keyring.init(a.dir);
  other = await Keyring.init(b.dir);
});
afterAll(() => {
  for (const cleanup of cleanups) cleanup();
});

const sources: CognitiveAsset[] = [
  asset('a:1', userPrivate('alice')),
  asset('a:2', enterprisePrivate('acme')),
];
const anchor = () => ({ root: keyring.rootCertificatePem });

function assemble(k = keyring): QualifiedEvent {
  const result = assembleQualifiedEvent(draft(), sources, { signer: k.signer() });
  if (!result.ok) throw new Error(result.issues[0]!.message);
  return result.value;
}

const code = (result: { ok: boolean; issues?: readonly { code: string }[] }) =>
  result.ok ? 'OK' : result.issues![0]!.code;

/** A copy of `event` with `changes`, re-signed by `k` (an insider's key: chains to the root). */
function resign(
  event: QualifiedEvent,
  changes: Partial<QualifiedEvent>,
  k = keyring,
): QualifiedEvent {
  const {
    signature: _s,
    signing_identity: _i,
    signing_certificate: _c,
    ...claims
  } = { ...event, ...changes };
  return signQualifiedEvent(claims, k.signer());
}

describe('qualified events: signed and verified offline', () => {
  it('an assembled event verifies from the pinned root alone, with its sources, and is deterministic', () => {
    const event = assemble();
    expect(event.schema_version).toBe('gcs.qualified-cognitive-event.v1');
    expect(event.signing_identity).toBe(keyring.activeIssuer().fingerprint);
    expect(event.policy_hash).toBe(effectivePolicyHash(event));
    const result = verifyQualifiedEvent(JSON.parse(JSON.stringify(event)), anchor(), { sources });
    expect(code(result)).toBe('OK');
    expect(result.ok && result.developmentRoot).toBe(true);
    expect(canonicalize(assemble())).toBe(canonicalize(event));
  });

  it('refuses a malformed draft before signing anything, naming the field', () => {
    const bad = assembleQualifiedEvent(draft({ created_at: -1 }), sources, {
      signer: keyring.signer(),
    });
    expect(!bad.ok && [bad.issues[0]!.code, bad.issues[0]!.path]).toEqual([
      'INVALID_QUALIFIED_EVENT',
      'created_at',
    ]);
    const claims = assembleQualifiedEvent(draft({ execution_claims: ['has space'] }), sources, {
      signer: keyring.signer(),
    });
    expect(!claims.ok && claims.issues[0]!.path).toBe('execution_claims[0]');
  });

  it('a tampered event is refused: the signature covers every member', () => {
    const event = assemble();
    const tampered = { ...event, outcome: { ...event.outcome, label: 'LARGE' } };
    expect(code(verifyQualifiedEvent(tampered, anchor()))).toBe('SIGNATURE_INVALID');
    const rescored = { ...event, scores: { ...event.scores, confidence: 0.1 } };
    expect(code(verifyQualifiedEvent(rescored, anchor()))).toBe('SIGNATURE_INVALID');
    const unsourced = { ...event, source_assets: ['a:1'] };
    expect(code(verifyQualifiedEvent(unsourced, anchor()))).toBe('SIGNATURE_INVALID');
  });

  it('a re-scoped event is refused, however far the re-scoping goes', () => {
    const event = assemble();
    const widened = { ...event, allowed_principals: ['*'] };
    // the governance no longer hashes to policy_hash
    expect(code(verifyQualifiedEvent(widened, anchor()))).toBe('POLICY_HASH_MISMATCH');
    // re-hashed: the signature no longer covers it
    const rehashed = { ...widened, policy_hash: effectivePolicyHash(widened) };
    expect(code(verifyQualifiedEvent(rehashed, anchor()))).toBe('SIGNATURE_INVALID');
    // re-hashed and re-signed with a key that chains to the root: its sources refuse it
    const resigned = resign(event, {
      allowed_principals: ['*'],
      policy_hash: effectivePolicyHash(widened),
    });
    expect(code(verifyQualifiedEvent(resigned, anchor()))).toBe('OK');
    const checked = verifyQualifiedEvent(resigned, anchor(), { sources });
    expect(code(checked)).toBe('GOVERNANCE_WIDENED');
    expect(!checked.ok && checked.issues[0]!.path).toBe('allowed_principals');
    const dropped = resign(event, {
      privacy_scope: 'user_private',
      privacy_boundary: { constraints: [{ kind: 'user', id: 'alice' }] },
    });
    const fixed = resign(dropped, { policy_hash: effectivePolicyHash(dropped) });
    expect(code(verifyQualifiedEvent(fixed, anchor(), { sources }))).toBe('GOVERNANCE_WIDENED');
  });

  it('an unsigned event is refused as unsigned', () => {
    const { signature: _s, ...unsigned } = assemble();
    const result = verifyQualifiedEvent(unsigned, anchor());
    expect(code(result)).toBe('EVENT_UNSIGNED');
    expect(code(verifyQualifiedEvent({ ...unsigned, signature: '' }, anchor()))).toBe(
      'EVENT_UNSIGNED',
    );
    const { signing_identity: _i, ...anonymous } = assemble();
    expect(code(verifyQualifiedEvent(anonymous, anchor()))).toBe('EVENT_UNSIGNED');
  });

  it('refuses another root, a revoked issuer, and an identity that is not the certificate', async () => {
    expect(code(verifyQualifiedEvent(assemble(other), anchor()))).toBe('CHAIN_INVALID');
    const event = assemble();
    const mislabelled = { ...event, signing_identity: other.activeIssuer().fingerprint };
    expect(code(verifyQualifiedEvent(mislabelled, anchor()))).toBe('HASH_MISMATCH');
    const foreignCert = { ...event, signing_certificate: other.activeIssuer().certificatePem };
    expect(code(verifyQualifiedEvent(foreignCert, anchor()))).toBe('CHAIN_INVALID');
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const revoking = await Keyring.init(dir);
    const signed = assemble(revoking);
    const fingerprint = revoking.activeIssuer().fingerprint;
    await revoking.revoke(fingerprint);
    const pinned = {
      root: revoking.rootCertificatePem,
      revocationList: revoking.revocationListPem(),
    };
    expect(code(verifyQualifiedEvent(signed, pinned))).toBe('ISSUER_REVOKED');
  });

  it('checks the identity against the certificate before the signature', () => {
    const event = assemble();
    const { signing_identity: _i, signing_certificate: _c, signature: _s, ...claims } = event;
    const signer = keyring.signer();
    const lying = {
      ...claims,
      signing_identity: other.activeIssuer().fingerprint,
      signing_certificate: signer.certificatePem,
    };
    const forged = { ...lying, signature: signer.sign(eventBytes(lying)).toString('base64url') };
    expect(code(verifyQualifiedEvent(forged, anchor()))).toBe('HASH_MISMATCH');
  });

  it('refuses sources that are not the ones the event names or whose policies it was not resolved from', () => {
    const event = assemble();
    expect(code(verifyQualifiedEvent(event, anchor(), { sources: sources.slice(0, 1) }))).toBe(
      'SOURCE_POLICY_MISMATCH',
    );
    const swapped = [sources[0]!, asset('a:2', enterprisePrivate('acme', { policy_tags: [] }))];
    expect(code(verifyQualifiedEvent(event, anchor(), { sources: swapped }))).toBe(
      'SOURCE_POLICY_MISMATCH',
    );
    const orphan = resign(event, { provenance: { ...event.provenance, derived_from: ['a:1'] } });
    expect(code(verifyQualifiedEvent(orphan, anchor()))).toBe('SOURCE_POLICY_MISMATCH');
  });

  it('verifies an event without its certificate from certificates the anchor supplies', () => {
    const { signing_certificate: certificate, ...bare } = assemble();
    const event = resign(bare as QualifiedEvent, {});
    const { signing_certificate: _c, signature: _s, ...claims } = event;
    const signed = {
      ...claims,
      signature: keyring.signer().sign(eventBytes(claims)).toString('base64url'),
    };
    expect(code(verifyQualifiedEvent(signed, anchor()))).toBe('INVALID_CERTIFICATE');
    expect(code(verifyQualifiedEvent(signed, { ...anchor(), certificates: [certificate!] }))).toBe(
      'OK',
    );
  });

  it('a stored event of a newer minor keeps its version and its extra members, and verifies', () => {
    const event = resign(assemble(), {
      schema_version: 'gcs.qualified-cognitive-event.v1.3',
      ...({ fitness_packet: { generation: 4, fitness: [0.5, 0.25] } } as object),
    });
    const verifier = new QualifiedEventVerifier(anchor());
    const result = verifier.verify(JSON.parse(JSON.stringify(event)), { sources });
    expect(code(result)).toBe('OK');
    if (!result.ok) return;
    expect(result.value.version).toEqual({ major: 1, minor: 3 });
    expect(result.value.extensions).toEqual(['fitness_packet']);
    expect(canonicalize(result.value.event)).toBe(canonicalize(event));
  });

  it('refuses a __proto__ member smuggled into a signed event: it would be read, never verified', () => {
    const event = resign(assemble(), {
      schema_version: 'gcs.qualified-cognitive-event.v1.1',
      ...({ note: 'a newer member' } as object),
    });
    const wire = JSON.stringify(event);
    const smuggled = (member: string) =>
      JSON.parse(`{"__proto__":${member},${wire.slice(1)}`) as unknown;
    const verifier = new QualifiedEventVerifier(anchor());
    for (const member of [
      '{"replay":{"plan_ref":"plan:EVIL","seeds":[666]},"tenant_scope":"evil","zzz":1}',
      '{"owner_id":"mallory"}',
    ]) {
      const result = verifier.verify(smuggled(member), { sources });
      expect(code(result)).toBe('INVALID_QUALIFIED_EVENT');
    }
    // Anywhere in the event: inside a newer member, or inside the outcome.
    const nested = JSON.parse(
      wire.replace('"note":"a newer member"', '"note":{"__proto__":{"x":1}}'),
    );
    expect(code(verifier.verify(nested, { sources }))).toBe('INVALID_QUALIFIED_EVENT');
    // The event as signed still verifies.
    expect(code(verifier.verify(JSON.parse(wire), { sources }))).toBe('OK');
  });
});

describe('the canonical writers behind signing and hashing', () => {
  it('write exactly RFC 8785, whatever ids, optional members and newer-minor members an event holds', () => {
    const base = assemble();
    const awkward = fc.stringMatching(/^[\x21-\x7e]{1,12}$/);
    fc.assert(
      fc.property(
        fc.record(
          {
            source_node: awkward,
            allowed_roles: fc.uniqueArray(awkward, { minLength: 1, maxLength: 3 }),
            policy_tags: fc.uniqueArray(awkward, { maxLength: 3 }),
            outcome: fc.dictionary(
              fc.string(),
              fc.jsonValue({ maxDepth: 2 }).filter((v) => v !== undefined),
            ),
            session_id: fc.constant(undefined),
            replay: fc.constant(undefined),
            extra: fc.jsonValue({ maxDepth: 2 }),
          },
          { requiredKeys: ['source_node'] },
        ),
        (changes) => {
          const event = { ...base, ...JSON.parse(JSON.stringify(changes)) } as QualifiedEvent;
          const { signature: _s, ...claims } = event;
          expect(eventBytes(event).equals(canonicalBytes(claims))).toBe(true);
          expect(effectivePolicyHash(event)).toBe(contentHash(governanceOf(event)));
        },
      ),
      { numRuns: 500 },
    );
  });
});
