import { type CanonryError, type ContentHash, isCanonryError } from '../core/index.js';
import { validity, withinValidity } from './check-issuer.js';
import { createKeyring, createOfflineKeyring, type OfflineRootMaterial } from './keyring-create.js';
import { initialising, KEYRING_FILES, keysDirectory, writeFileAtomic } from './keyring-files.js';
import { type Commit, issuerOutOfDate, noActiveIssuer } from './keyring-guards.js';
import {
  type IndexedIssuer,
  type RootKeyLocation,
  serializeKeyringIndex,
} from './keyring-index.js';
import { installIssuer, installRevocationList, requestIssuer } from './keyring-install.js';
import { loadKeyring } from './keyring-load.js';
import { revokeIssuer, rotateIssuer } from './keyring-rotation.js';
import type { KeyringState } from './keyring-state.js';
import { parseCertificate } from './parsed-certificate.js';
import { createSigner, type SignerHandle, type SignerValidity } from './signer.js';
import type {
  IssuerRecord,
  IssuerRequest,
  PendingIssuerRecord,
  RevocationListInstall,
  Signer,
  TrustBundle,
} from './types.js';

/** Options for {@link Keyring.init}. */
export interface KeyringInitOptions {
  now?: Date;
  /**
   * Pin a root kept on an offline machine instead of minting a development root here: its
   * certificate and a revocation list it signed. The keyring starts with no issuer.
   */
  offlineRoot?: OfflineRootMaterial;
}

/** How long an open waits for another process that is creating the keyring, at most. */
const INIT_WAIT_MS = 10_000;

/**
 * A project keyring in `<dataDir>/keys/`: an Ed25519 root, root-signed issuers of which at most
 * one is active, and a root-signed X.509 CRL. A development keyring holds its root key and rotates
 * and revokes by itself; a production keyring pins a root whose key stays offline and takes its
 * issuers and lists from the root machine. Private keys live only in `#state` and 0600 files;
 * everything the keyring returns is public material or a {@link Signer}.
 */
export class Keyring {
  /** The root certificate (PEM) that relying parties pin. */
  readonly rootCertificatePem: string;
  /** `sha256:` over the root certificate's DER. */
  readonly rootFingerprint: ContentHash;
  /**
   * True for a development root (TCP/AP §10): minted by the server with its key in the data
   * directory (or a pinned root whose subject says development). Not production-grade attestation.
   */
  readonly development: boolean;
  /** Where the root's private key is: in this keyring, or offline. */
  readonly rootKey: RootKeyLocation;
  #state: KeyringState;
  #signer: SignerHandle | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(state: KeyringState) {
    this.#state = state;
    this.rootCertificatePem = state.root.pem;
    this.rootFingerprint = state.root.fingerprint;
    this.development = state.index.development_root;
    this.rootKey = state.index.root_key;
  }

  /**
   * Creates a keyring in `dataDir`: a development keyring by default, or one pinned to an offline
   * root with `offlineRoot`. KEYRING_EXISTS when one (or part of one) is already there.
   */
  static async init(dataDir: string, options: KeyringInitOptions = {}): Promise<Keyring> {
    const now = options.now ?? new Date();
    if (options.offlineRoot === undefined) await createKeyring(dataDir, now);
    else await createOfflineKeyring(dataDir, options.offlineRoot, now);
    return Keyring.open(dataDir);
  }

  /** Opens and fully checks the keyring in `dataDir`; KEYRING_MISSING or KEYRING_CORRUPT. */
  static async open(dataDir: string): Promise<Keyring> {
    return new Keyring(await loadKeyring(dataDir));
  }

  /**
   * Opens the keyring of a process that signs (the server), creating a development keyring when
   * there is none. NO_ACTIVE_ISSUER, naming the next command, when it has no issuer to sign with.
   */
  static async openOrInit(dataDir: string): Promise<Keyring> {
    const keyring = await Keyring.#openOrCreate(dataDir);
    const problem = keyring.signingProblem();
    if (problem !== undefined) throw problem;
    return keyring;
  }

  static async #openOrCreate(dataDir: string): Promise<Keyring> {
    try {
      return await Keyring.#openSettled(dataDir);
    } catch (error) {
      if (!isCanonryError(error, 'KEYRING_MISSING')) throw error;
    }
    try {
      return await Keyring.init(dataDir);
    } catch (error) {
      // Another process initialised it (or is initialising it) between our open and init.
      if (isCanonryError(error, 'KEYRING_EXISTS')) return Keyring.#openSettled(dataDir);
      throw error;
    }
  }

  /**
   * Opens the keyring, waiting while another process that claimed the directory is still writing
   * it (its files are there before its index, which is written last): processes started together
   * on a fresh data directory all get the one keyring. A claim older than {@link INIT_WAIT_MS}
   * (a process that died mid-way) is reported as what it is, a keyring without an index.
   */
  static async #openSettled(dataDir: string): Promise<Keyring> {
    const until = Date.now() + INIT_WAIT_MS;
    let settled = false;
    for (;;) {
      try {
        return await Keyring.open(dataDir);
      } catch (error) {
        if (!isCanonryError(error, 'KEYRING_CORRUPT') || settled || Date.now() >= until) {
          throw error;
        }
        // Still being written: wait. Not any more: the writer may have finished between the open
        // and this look, so one more open decides.
        if (await initialising(keysDirectory(dataDir))) {
          await new Promise((done) => setTimeout(done, 20));
        } else settled = true;
      }
    }
  }

  /** True when an active issuer can sign. */
  get canSign(): boolean {
    return this.signingProblem() === undefined;
  }

  /**
   * Why this keyring cannot sign now (NO_ACTIVE_ISSUER naming the next step): no active issuer, or
   * one outside its window or its root's; undefined when it can.
   */
  signingProblem(): CanonryError | undefined {
    if (this.#state.activeKey === undefined) return noActiveIssuer(this.#state.index);
    const window = this.#validity(this.activeIssuer());
    const now = new Date();
    return withinValidity(window, now) ? undefined : window.outside(now);
  }

  /** Every issuer, oldest first. */
  issuers(): IssuerRecord[] {
    return this.#state.index.issuers.map((entry) => this.#record(entry));
  }

  /** The issuer whose key signs now; NO_ACTIVE_ISSUER when there is none. */
  activeIssuer(): IssuerRecord {
    const { index } = this.#state;
    const active = index.issuers.find((i) => i.fingerprint === index.active_issuer);
    if (active === undefined) throw noActiveIssuer(index);
    return this.#record(active);
  }

  /** The issuer key awaiting its certificate from the offline root, if any. */
  pendingIssuer(): PendingIssuerRecord | undefined {
    const pending = this.#state.index.pending_issuer;
    if (pending === null) return undefined;
    return { number: pending.number, publicKey: pending.public_key, createdAt: pending.created_at };
  }

  /**
   * Mints a new active issuer; the old certificate stays so earlier events still verify.
   * ROOT_KEY_OFFLINE on a keyring whose root key is offline.
   */
  async rotate(options: { now?: Date } = {}): Promise<IssuerRecord> {
    const now = options.now ?? new Date();
    return this.#record(await this.#exclusive((commit) => rotateIssuer(this.#state, commit, now)));
  }

  /**
   * Revokes an issuer by fingerprint with a new root-signed list (CRL number + 1). Revoking the
   * active issuer first rotates to a fresh one so signing keeps working. Revoking twice is a no-op.
   * ROOT_KEY_OFFLINE on a keyring whose root key is offline.
   */
  async revoke(fingerprint: string, options: { now?: Date } = {}): Promise<IssuerRecord> {
    const now = options.now ?? new Date();
    const revoked = await this.#exclusive((commit) =>
      revokeIssuer(this.#state, commit, fingerprint, now),
    );
    return this.#record(revoked);
  }

  /**
   * The PKCS#10 request for the pending issuer key, generating the key when none is pending
   * (offline root only; DEVELOPMENT_ROOT otherwise). Asking again returns the same request;
   * `fresh: true` discards the pending key and makes a new one.
   */
  requestIssuer(options: { now?: Date; fresh?: boolean } = {}): Promise<IssuerRequest> {
    const now = options.now ?? new Date();
    const fresh = options.fresh === true;
    return this.#exclusive((commit) => requestIssuer(this.#state, commit, now, fresh));
  }

  /**
   * Installs the issuer certificate the offline root signed for the pending key and makes it
   * active; the previous issuer is retired and its key deleted. Typed refusals: INVALID_CERTIFICATE,
   * CHAIN_INVALID, ISSUER_REVOKED, PENDING_KEY_MISMATCH, DEVELOPMENT_ROOT.
   */
  async installIssuer(certificatePem: string, options: { now?: Date } = {}): Promise<IssuerRecord> {
    const now = options.now ?? new Date();
    const entry = await this.#exclusive((commit) =>
      installIssuer(this.#state, commit, certificatePem, now),
    );
    return this.#record(entry);
  }

  /**
   * Installs a newer revocation list signed by the offline root (INVALID_CERTIFICATE,
   * CHAIN_INVALID, STALE_REVOCATION_LIST, DEVELOPMENT_ROOT). If it revokes the active issuer, the
   * keyring cannot sign (NO_ACTIVE_ISSUER) until a new issuer is installed.
   */
  async installRevocationList(listPem: string): Promise<RevocationListInstall> {
    const result = await this.#exclusive((commit) =>
      installRevocationList(this.#state, commit, listPem),
    );
    return { number: result.number, revoked: result.revoked.map((i) => this.#record(i)) };
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
      development_root: this.development,
      issuers: this.issuers().map((i) => ({
        fingerprint: i.fingerprint,
        certificate: i.certificatePem,
        active: i.active,
        revoked: i.revoked,
      })),
      revocation_list: this.revocationListPem(),
    };
  }

  /**
   * A signer for the active issuer; it stops working once a rotation, install or revocation
   * retires that issuer. NO_ACTIVE_ISSUER when there is none.
   */
  signer(): Signer {
    const active = this.activeIssuer();
    const key = this.#state.activeKey;
    if (key === undefined) throw noActiveIssuer(this.#state.index);
    if (this.#signer?.signer.fingerprint !== active.fingerprint) {
      this.#signer?.retire();
      this.#signer = createSigner(
        active.fingerprint,
        active.certificatePem,
        key,
        this.#validity(active),
      );
    }
    return this.#signer.signer;
  }

  /** When the active issuer (and the root above it) may sign, and the error outside that window. */
  #validity(active: IssuerRecord): SignerValidity {
    const { validFrom, validUntil } = validity(
      parseCertificate(active.certificatePem)!,
      parseCertificate(this.rootCertificatePem)!,
    );
    const index = this.#state.index;
    return {
      validFrom,
      validUntil,
      outside: (now) => issuerOutOfDate(index, active.fingerprint, { validFrom, validUntil }, now),
    };
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

  /** Runs one change at a time; each commits through {@link Keyring.#commit}. */
  #exclusive<T>(task: (commit: Commit) => Promise<T>): Promise<T> {
    const run = () => task((index, apply) => this.#commit(index, apply));
    const result = this.#queue.then(run, run);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  /**
   * Writes the index (the commit point), then updates memory with no await in between; a signer
   * handed out for an issuer that is no longer active stops working.
   */
  async #commit(
    index: KeyringState['index'],
    apply?: (state: KeyringState) => void,
  ): Promise<void> {
    await writeFileAtomic(this.#state.dir, KEYRING_FILES.index, serializeKeyringIndex(index));
    this.#state.index = index;
    apply?.(this.#state);
    if (this.#signer !== undefined && this.#signer.signer.fingerprint !== index.active_issuer) {
      this.#signer.retire();
      this.#signer = undefined;
    }
  }
}
