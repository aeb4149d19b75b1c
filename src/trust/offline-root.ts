import { resolve } from 'node:path';
import { CanonryError, type ContentHash } from '../core/index.js';
import { createIssuerCertificate } from './certificate-builder.js';
import { serialHex } from './certificate-fields.js';
import { readCertificateRequest } from './certificate-request.js';
import { OFFLINE_ROOT_NAME } from './development-root.js';
import { rawPublicKey } from './ed25519.js';
import { claimEmptyDirectory, writeFileAtomic } from './keyring-files.js';
import { mintRoot, privateKeyPem } from './keyring-state.js';
import { loadOfflineRoot, type OfflineRootState, ROOT_FILES } from './offline-root-load.js';
import { type IssuedEntry, serializeIssuanceLog } from './offline-root-log.js';
import { parseCertificate } from './parsed-certificate.js';
import { createRevocationList, nextRevocationList } from './revocation-list-builder.js';
import { readRevocationList } from './revocation-list-reader.js';
import { unwrap } from './unwrap.js';

/** A certificate the offline root issued (public material only). */
export interface IssuedCertificate {
  fingerprint: ContentHash;
  serialNumber: string;
  /** `canonry issuer <n>`, the number the requesting keyring gave it. */
  commonName: string;
  certificatePem: string;
  issuedAt: string;
  revoked: boolean;
}

/** The outcome of signing a request. */
export interface SignedIssuer {
  certificatePem: string;
  fingerprint: ContentHash;
  /** True when this key already had a certificate, which is returned again unchanged. */
  alreadyIssued: boolean;
}

/**
 * A root kept on an offline machine, in a directory of its own (0700, files 0600): its key and
 * certificate, its current revocation list and `issued.json`, the record of every issuer it signed.
 * Servers pin its certificate (`keys init --root-cert`) and never see its key.
 */
export class OfflineRoot {
  /** The root certificate (PEM) that servers and relying parties pin. */
  readonly certificatePem: string;
  /** `sha256:` over the root certificate's DER. */
  readonly fingerprint: ContentHash;
  #state: OfflineRootState;
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(state: OfflineRootState) {
    this.#state = state;
    this.certificatePem = state.root.pem;
    this.fingerprint = state.root.fingerprint;
  }

  /**
   * Creates a root (subject `canonry offline root`, 20 years) and its first, empty revocation list
   * (number 1) in `dir`, which must be empty or absent (KEYRING_EXISTS otherwise).
   */
  static async create(dir: string, options: { now?: Date } = {}): Promise<OfflineRoot> {
    const now = options.now ?? new Date();
    const path = resolve(dir);
    const release = await claimEmptyDirectory(path);
    const root = mintRoot(OFFLINE_ROOT_NAME, now);
    await writeFileAtomic(path, ROOT_FILES.key, privateKeyPem(root.privateKey));
    await writeFileAtomic(path, ROOT_FILES.certificate, root.pem);
    await writeFileAtomic(path, ROOT_FILES.revocationList, createRevocationList(1n, [], root, now));
    const log = { format: 1 as const, root_fingerprint: root.fingerprint, issued: [] };
    await writeFileAtomic(path, ROOT_FILES.log, serializeIssuanceLog(log));
    await release();
    return OfflineRoot.open(path);
  }

  /** Opens and checks the root in `dir`: KEYRING_MISSING or KEYRING_CORRUPT. */
  static async open(dir: string): Promise<OfflineRoot> {
    return new OfflineRoot(await loadOfflineRoot(resolve(dir)));
  }

  /** The current root-signed revocation list (PEM `X509 CRL`). */
  revocationListPem(): string {
    return this.#state.revocationList.pem;
  }

  /** Every issuer certificate this root signed, oldest first. */
  issued(): IssuedCertificate[] {
    return this.#state.log.issued.map((e) => ({
      fingerprint: e.fingerprint,
      serialNumber: e.serial,
      commonName: e.common_name,
      certificatePem: e.certificate,
      issuedAt: e.issued_at,
      revoked: e.revoked_at !== null,
    }));
  }

  /**
   * Signs an issuer request (`keys csr` on a server) into an issuer certificate: CA:false,
   * digitalSignature, 10 years capped at the root's expiry. The request is hostile input:
   * INVALID_CSR (malformed, not an issuer request, the root's own key), SIGNATURE_INVALID (its
   * self-signature fails), ISSUER_REVOKED (a certificate for this key was revoked). A key already
   * certified gets its certificate again.
   */
  signRequest(requestPem: string, options: { now?: Date } = {}): Promise<SignedIssuer> {
    return this.#exclusive(() => this.#sign(requestPem, options.now ?? new Date()));
  }

  async #sign(requestPem: string, now: Date): Promise<SignedIssuer> {
    const request = unwrap(readCertificateRequest(requestPem));
    const { root, log, dir } = this.#state;
    const key = request.rawPublicKey.toString('base64url');
    if (rawPublicKey(root.publicKey).toString('base64url') === key) {
      throw new CanonryError('INVALID_CSR', "the request is for the root's own key");
    }
    const known = log.issued.find((e) => e.public_key === key);
    if (known?.revoked_at === null) {
      return {
        certificatePem: known.certificate,
        fingerprint: known.fingerprint,
        alreadyIssued: true,
      };
    }
    if (known !== undefined) {
      throw new CanonryError(
        'ISSUER_REVOKED',
        'a certificate for this key was revoked; make a new key with `canonry keys csr --new`',
      );
    }
    if (root.notAfter.getTime() <= now.getTime()) {
      throw new CanonryError('CHAIN_INVALID', 'the root certificate has expired');
    }
    const pem = createIssuerCertificate(request.subject, request.publicKey, root, now);
    const parsed = parseCertificate(pem)!;
    const entry: IssuedEntry = {
      fingerprint: parsed.fingerprint,
      serial: serialHex(parsed.fields.serial),
      common_name: request.commonName,
      public_key: key,
      issued_at: now.toISOString(),
      revoked_at: null,
      certificate: pem,
    };
    const next = { ...log, issued: [...log.issued, entry] };
    await writeFileAtomic(dir, ROOT_FILES.log, serializeIssuanceLog(next));
    this.#state.log = next;
    return { certificatePem: pem, fingerprint: entry.fingerprint, alreadyIssued: false };
  }

  /**
   * Revokes an issuer this root signed, by fingerprint: a new list with CRL number + 1, written
   * here and returned for servers to install (`keys install-crl`). UNKNOWN_ISSUER when this root
   * never signed it; revoking twice returns the current list unchanged.
   */
  revoke(
    fingerprint: string,
    options: { now?: Date } = {},
  ): Promise<{ revocationListPem: string; number: bigint }> {
    return this.#exclusive(() => this.#revoke(fingerprint, options.now ?? new Date()));
  }

  #exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #revoke(
    fingerprint: string,
    now: Date,
  ): Promise<{ revocationListPem: string; number: bigint }> {
    const { root, log, dir, revocationList } = this.#state;
    const target = log.issued.find((e) => e.fingerprint === fingerprint);
    if (target === undefined) {
      throw new CanonryError(
        'UNKNOWN_ISSUER',
        'this root issued no certificate with that fingerprint',
      );
    }
    if (target.revoked_at !== null) {
      return { revocationListPem: revocationList.pem, number: revocationList.list.number };
    }
    const pem = nextRevocationList(revocationList.list, target.serial, root, now);
    const read = readRevocationList(pem, root);
    if (!read.ok) throw new CanonryError('INTERNAL', 'generated an unreadable revocation list');
    // The list first: the loader marks a listed serial revoked in the log if we stop in between.
    await writeFileAtomic(dir, ROOT_FILES.revocationList, pem);
    const revoked = { ...target, revoked_at: now.toISOString() };
    const next = { ...log, issued: log.issued.map((e) => (e === target ? revoked : e)) };
    await writeFileAtomic(dir, ROOT_FILES.log, serializeIssuanceLog(next));
    this.#state.log = next;
    this.#state.revocationList = { pem, list: read.value };
    return { revocationListPem: pem, number: read.value.number };
  }
}
