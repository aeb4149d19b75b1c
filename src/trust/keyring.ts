import { CanonryError, type ContentHash, isCanonryError } from '../core/index.js';
import { createKeyring } from './keyring-create.js';
import {
  issuerCertificateFile,
  issuerKeyFile,
  KEYRING_FILES,
  removeFile,
  writeFileAtomic,
} from './keyring-files.js';
import { type IndexedIssuer, type KeyringIndex, serializeKeyringIndex } from './keyring-index.js';
import { loadKeyring } from './keyring-load.js';
import { type KeyringState, mintIssuer, privateKeyPem } from './keyring-state.js';
import { nextRevocationList } from './revocation-list-builder.js';
import { readRevocationList } from './revocation-list-reader.js';
import { createSigner, type SignerHandle } from './signer.js';
import type { IssuerRecord, Signer, TrustBundle } from './types.js';

/**
 * A project keyring in `<dataDir>/keys/`: a self-signed Ed25519 root, root-signed issuers of which
 * one is active, and a root-signed X.509 CRL. Private keys live only in `#private` state and 0600
 * files; everything the keyring returns is public material or a {@link Signer}.
 */
export class Keyring {
  /** The root certificate (PEM) that relying parties pin. */
  readonly rootCertificatePem: string;
  /** `sha256:` over the root certificate's DER. */
  readonly rootFingerprint: ContentHash;
  #state: KeyringState;
  #signer: SignerHandle | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(state: KeyringState) {
    this.#state = state;
    this.rootCertificatePem = state.root.pem;
    this.rootFingerprint = state.root.fingerprint;
  }

  /** Creates a keyring in `dataDir`; KEYRING_EXISTS when one (or part of one) is already there. */
  static async init(dataDir: string, options: { now?: Date } = {}): Promise<Keyring> {
    await createKeyring(dataDir, options.now ?? new Date());
    return Keyring.open(dataDir);
  }

  /** Opens and fully checks the keyring in `dataDir`; KEYRING_MISSING or KEYRING_CORRUPT. */
  static async open(dataDir: string): Promise<Keyring> {
    return new Keyring(await loadKeyring(dataDir));
  }

  /** Opens the keyring in `dataDir`, creating it first when there is none. */
  static async openOrInit(dataDir: string): Promise<Keyring> {
    try {
      return await Keyring.open(dataDir);
    } catch (error) {
      if (!isCanonryError(error, 'KEYRING_MISSING')) throw error;
    }
    try {
      return await Keyring.init(dataDir);
    } catch (error) {
      // Another process initialised it between our open and init.
      if (isCanonryError(error, 'KEYRING_EXISTS')) return Keyring.open(dataDir);
      throw error;
    }
  }

  /** Every issuer, oldest first. */
  issuers(): IssuerRecord[] {
    return this.#state.index.issuers.map((entry) => this.#record(entry));
  }

  /** The issuer whose key signs now. */
  activeIssuer(): IssuerRecord {
    const { index } = this.#state;
    return this.#record(index.issuers.find((i) => i.fingerprint === index.active_issuer)!);
  }

  /** Mints a new active issuer; the old certificate stays so earlier events still verify. */
  rotate(options: { now?: Date } = {}): Promise<IssuerRecord> {
    return this.#exclusive(() => this.#rotate(options.now ?? new Date()));
  }

  /**
   * Revokes an issuer by fingerprint with a new root-signed list (CRL number + 1). Revoking the
   * active issuer first rotates to a fresh one so signing keeps working. Revoking twice is a no-op.
   */
  revoke(fingerprint: string, options: { now?: Date } = {}): Promise<IssuerRecord> {
    return this.#exclusive(() => this.#revoke(fingerprint, options.now ?? new Date()));
  }

  /** The current root-signed revocation list (PEM `X509 CRL`). */
  revocationListPem(): string {
    return this.#state.revocationList.pem;
  }

  /** Public trust material for relying parties: root, every issuer, and the revocation list. */
  trustBundle(): TrustBundle {
    return {
      root: this.rootCertificatePem,
      root_fingerprint: this.rootFingerprint,
      issuers: this.issuers().map((i) => ({
        fingerprint: i.fingerprint,
        certificate: i.certificatePem,
        active: i.active,
        revoked: i.revoked,
      })),
      revocation_list: this.revocationListPem(),
    };
  }

  /** A signer for the active issuer; it stops working once a rotation retires that issuer. */
  signer(): Signer {
    const active = this.activeIssuer();
    if (this.#signer?.signer.fingerprint !== active.fingerprint) {
      this.#signer?.retire();
      this.#signer = createSigner(active.fingerprint, active.certificatePem, this.#state.activeKey);
    }
    return this.#signer.signer;
  }

  #record(entry: IndexedIssuer): IssuerRecord {
    return {
      fingerprint: entry.fingerprint,
      serialNumber: entry.serial,
      certificatePem: this.#state.certificates.get(entry.fingerprint)!,
      createdAt: entry.created_at,
      active: entry.status === 'active',
      revoked: entry.status === 'revoked',
    };
  }

  #exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Writes the index (the commit point), then updates memory with no await in between. */
  async #commit(index: KeyringIndex, apply: (state: KeyringState) => void): Promise<void> {
    await writeFileAtomic(this.#state.dir, KEYRING_FILES.index, serializeKeyringIndex(index));
    this.#state.index = index;
    apply(this.#state);
  }

  async #rotate(now: Date): Promise<IssuerRecord> {
    const { dir, root, index } = this.#state;
    const previous = index.issuers.find((i) => i.status === 'active')!;
    const number = Math.max(...index.issuers.map((i) => i.number)) + 1;
    const minted = mintIssuer(number, root, now);
    await writeFileAtomic(dir, issuerCertificateFile(number), minted.pem);
    await writeFileAtomic(dir, issuerKeyFile(number), privateKeyPem(minted.privateKey));
    const issuers = index.issuers.map((i) =>
      i === previous ? { ...i, status: 'retired' as const } : i,
    );
    const next = {
      ...index,
      active_issuer: minted.entry.fingerprint,
      issuers: [...issuers, minted.entry],
    };
    await this.#commit(next, (state) => {
      state.certificates.set(minted.entry.fingerprint, minted.pem);
      state.activeKey = minted.privateKey;
      this.#signer?.retire();
      this.#signer = undefined;
    });
    // The index now names the new issuer, so the retired key is never needed again.
    await removeFile(dir, issuerKeyFile(previous.number));
    return this.#record(minted.entry);
  }

  async #revoke(fingerprint: string, now: Date): Promise<IssuerRecord> {
    const target = this.#state.index.issuers.find((i) => i.fingerprint === fingerprint);
    if (target === undefined) {
      throw new CanonryError('UNKNOWN_ISSUER', 'no issuer with that fingerprint in this keyring');
    }
    if (target.status === 'revoked') return this.#record(target);
    if (target.status === 'active') await this.#rotate(now);
    const { dir, root, revocationList } = this.#state;
    const pem = nextRevocationList(revocationList.list, target.serial, root, now);
    const read = readRevocationList(pem, root);
    if (!read.ok) throw new CanonryError('INTERNAL', 'generated an unreadable revocation list');
    // The list is written before the index: a crash in between leaves a listed issuer that the
    // loader treats as revoked, never an index claiming a revocation the signed list lacks.
    await writeFileAtomic(dir, KEYRING_FILES.revocationList, pem);
    const index = this.#state.index;
    const revoked: IndexedIssuer = { ...target, status: 'revoked' };
    const issuers = index.issuers.map((i) => (i.fingerprint === fingerprint ? revoked : i));
    await this.#commit({ ...index, issuers }, (state) => {
      state.revocationList = { pem, list: read.value };
    });
    return this.#record(revoked);
  }
}
