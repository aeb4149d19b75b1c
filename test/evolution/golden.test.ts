import { createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ContentHash, canonicalize } from '../../src/core/index.js';
import {
  assembleQualifiedEvent,
  type CognitiveAsset,
  type EventDraft,
  effectivePolicyHash,
  eventBytes,
  verifyQualifiedEvent,
} from '../../src/evolution/index.js';
import type { Signer } from '../../src/trust/index.js';

/** The qualified event vector (test/fixtures/golden, README there: the versioning rule). */
const DIR = join(import.meta.dirname, '../fixtures/golden');
const fixture = <T>(name: string): T => JSON.parse(readFileSync(join(DIR, name), 'utf8')) as T;
const keys = fixture<{
  root_certificate: string;
  issuer_certificate: string;
  issuer_private_key: string;
  issuer_fingerprint: ContentHash;
}>('keys.json');
const vector = fixture<{
  input: { sources: CognitiveAsset[]; draft: EventDraft };
  policy_hash: ContentHash;
  source_policy_hashes: ContentHash[];
  signed_bytes: string;
  signature: string;
  canonical: string;
}>('qualified-event.json');

const key = createPrivateKey(keys.issuer_private_key);
const signer: Signer = Object.freeze({
  fingerprint: keys.issuer_fingerprint,
  certificatePem: keys.issuer_certificate,
  sign: (message: Uint8Array) => sign(null, message, key),
});

describe('golden vector: gcs.qualified-cognitive-event.v1', () => {
  it('canonry resolves, hashes and signs exactly these bytes', () => {
    const result = assembleQualifiedEvent(vector.input.draft, vector.input.sources, { signer });
    if (!result.ok) throw new Error(result.issues[0]!.message);
    const { signature, ...claims } = result.value;
    expect(result.value.policy_hash).toBe(vector.policy_hash);
    expect(result.value.source_policy_hashes).toEqual(vector.source_policy_hashes);
    expect(eventBytes(claims).toString('utf8')).toBe(vector.signed_bytes);
    expect(signature).toBe(vector.signature);
    expect(canonicalize(result.value)).toBe(vector.canonical);
  });

  it('the stored event verifies from the pinned root and its sources', () => {
    const stored = JSON.parse(vector.canonical);
    expect(effectivePolicyHash(stored)).toBe(vector.policy_hash);
    const result = verifyQualifiedEvent(
      stored,
      { root: keys.root_certificate },
      { sources: vector.input.sources },
    );
    expect(result.ok).toBe(true);
    const altered = JSON.parse(vector.canonical.replace('"pii"', '"pii2"'));
    expect(verifyQualifiedEvent(altered, { root: keys.root_certificate }).ok).toBe(false);
  });
});
