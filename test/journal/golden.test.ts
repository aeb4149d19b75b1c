import {
  createHash,
  createPrivateKey,
  createPublicKey,
  sign,
  verify,
  X509Certificate,
} from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ContentHash, canonicalize, contentHash } from '../../src/core/index.js';
import {
  type EntryInput,
  exportSegment,
  Journal,
  type JournalEntry,
  receiptFor,
  signCheckpoint,
  verifySegment,
  withoutHash,
} from '../../src/journal/index.js';
import {
  type AgenticProtocol,
  compileProtocol,
  Kernel,
  signConformanceEvent,
  verifyConformanceEvent,
} from '../../src/kernel/index.js';
import type { Store } from '../../src/store/index.js';
import { documentBytes, type Signer } from '../../src/trust/index.js';
import { ENGINES } from '../helpers/stores.js';

/**
 * canonry's own formats, byte for byte, against vectors generated once (`generate.mjs` beside them):
 * any change to a hashed or signed byte fails here. The format versioning rule is in the README.
 */
const DIR = join(import.meta.dirname, '../fixtures/golden');
const fixture = <T>(name: string): T => JSON.parse(readFileSync(join(DIR, name), 'utf8')) as T;

const keys = fixture<{
  root_certificate: string;
  issuer_certificate: string;
  issuer_private_key: string;
  issuer_fingerprint: ContentHash;
}>('keys.json');
const golden = fixture<{
  project: string;
  at: string;
  entries: { input: EntryInput; canonical: string; hash: ContentHash }[];
}>('entries.json');
const receiptVector = fixture<{ seq: number; canonical: string; receipt_hash: string }>(
  'receipt.json',
);
const checkpointVector = fixture<{
  input: { project: string; seq: number; head_hash: ContentHash };
  signed_bytes: string;
  signature: string;
  canonical: string;
}>('checkpoint.json');
const eventVector = fixture<{
  input: { protocol: AgenticProtocol; artifact: unknown; generation_metadata: unknown };
  protocol_hash: ContentHash;
  artifact_hash: ContentHash;
  generation_metadata_hash: ContentHash;
  label: string;
  signed_bytes: string;
  signature: string;
  canonical: string;
}>('conformance-event.json');
const segmentText = readFileSync(join(DIR, 'segment.jsonl'), 'utf8');

const key = createPrivateKey(keys.issuer_private_key);
const signer: Signer = Object.freeze({
  fingerprint: keys.issuer_fingerprint,
  certificatePem: keys.issuer_certificate,
  sign: (message: Uint8Array) => sign(null, message, key),
});
const issuerKey = createPublicKey(
  new X509Certificate(keys.issuer_certificate).publicKey.export({
    format: 'pem',
    type: 'spki',
  }),
);
const anchor = { root: keys.root_certificate };

const sha256 = (text: string) =>
  `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
const verifies = (bytes: string, signature: string) =>
  verify(null, Buffer.from(bytes, 'utf8'), issuerKey, Buffer.from(signature, 'base64url'));

describe('golden vectors: the fixture is self-consistent', () => {
  it('each entry hash is sha256 of its canonical text, linked to the one before', () => {
    let prev: string | null = null;
    for (const { canonical, hash } of golden.entries) {
      expect(sha256(canonical)).toBe(hash);
      const parsed = JSON.parse(canonical) as { prev_hash: string };
      if (prev !== null) expect(parsed.prev_hash).toBe(prev);
      prev = hash;
    }
  });

  it('the checkpoint and the conformance event are Ed25519 over their signed bytes', () => {
    expect(verifies(checkpointVector.signed_bytes, checkpointVector.signature)).toBe(true);
    expect(verifies(eventVector.signed_bytes, eventVector.signature)).toBe(true);
    expect(verifies(`${eventVector.signed_bytes} `, eventVector.signature)).toBe(false);
  });
});

describe('golden vectors: canonry writes exactly these bytes', () => {
  it('a receipt', () => {
    const entry = JSON.parse(segmentText.split('\n')[receiptVector.seq]!) as JournalEntry;
    const receipt = receiptFor(entry);
    expect(canonicalize(receipt)).toBe(receiptVector.canonical);
    expect(receipt.receipt_hash).toBe(receiptVector.receipt_hash);
    const { receipt_hash: _h, ...unhashed } = receipt;
    expect(sha256(canonicalize(unhashed))).toBe(receiptVector.receipt_hash);
  });

  it('a signed checkpoint', () => {
    const { project, seq, head_hash } = checkpointVector.input;
    const checkpoint = signCheckpoint(project, seq, head_hash, signer);
    const { signature, ...unsigned } = checkpoint;
    expect(documentBytes(unsigned).toString('utf8')).toBe(checkpointVector.signed_bytes);
    expect(signature.value).toBe(checkpointVector.signature);
    expect(canonicalize(checkpoint)).toBe(checkpointVector.canonical);
  });

  it('a signed conformance event, by the kernel and by the general path', () => {
    const { protocol, artifact, generation_metadata } = eventVector.input;
    const compiled = compileProtocol(protocol);
    expect(compiled.hash).toBe(eventVector.protocol_hash);
    const metadataHash = contentHash(generation_metadata);
    expect(metadataHash).toBe(eventVector.generation_metadata_hash);
    const { event, verdict } = new Kernel({ signer }).evaluate(artifact, compiled, metadataHash);
    expect(verdict.artifactHash).toBe(eventVector.artifact_hash);
    expect(canonicalize(event)).toBe(eventVector.canonical);
    const general = signConformanceEvent(verdict, protocol, metadataHash, signer);
    expect(canonicalize(general)).toBe(eventVector.canonical);
    const { signature, ...unsigned } = event!;
    expect(documentBytes(unsigned).toString('utf8')).toBe(eventVector.signed_bytes);
    expect(signature.value).toBe(eventVector.signature);
    expect(verifyConformanceEvent(JSON.parse(eventVector.canonical), anchor).ok).toBe(true);
  });

  it('the stored segment verifies offline from the pinned root, and one changed byte fails it', async () => {
    const report = await verifySegment(segmentText, anchor);
    expect(report).toMatchObject({ ok: true, checked: 3, head: { seq: 3 } });
    const edited = segmentText.replace('"actor":"bob"', '"actor":"bub"');
    expect(edited).not.toBe(segmentText);
    expect((await verifySegment(edited, anchor)).ok).toBe(false);
  });
});

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`golden vectors on ${engine.name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    afterEach(async () => {
      await store.close();
      await cleanup();
    });

    it('appends the entries and exports the segment byte for byte', async () => {
      ({ store, cleanup } = await engine.fresh());
      const journal = new Journal(store, {
        signer: () => signer,
        now: () => new Date(golden.at),
      });
      const appended: JournalEntry[] = [];
      for (const { input } of golden.entries)
        appended.push((await journal.append(golden.project, input)).entry);
      const read = await journal.read(golden.project);
      golden.entries.forEach(({ canonical, hash }, i) => {
        expect(canonicalize(withoutHash(appended[i]!))).toBe(canonical);
        expect(appended[i]!.hash).toBe(hash);
        expect(canonicalize(withoutHash(read[i]!))).toBe(canonical);
      });
      let text = '';
      for await (const line of exportSegment(journal, golden.project)) text += line;
      expect(text).toBe(segmentText);
    });
  });
}
