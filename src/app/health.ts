import type { Journal, Quarantine } from '../journal/index.js';
import type { Store } from '../store/index.js';
import type { Keyring } from '../trust/index.js';

/** What `GET /healthz` reports. */
export interface Health {
  /** False when any chain is quarantined: some projects cannot be written. */
  readonly ok: boolean;
  readonly store: string;
  readonly journal: {
    /** Chains that did not verify; their appends are refused. */
    readonly broken: readonly Quarantine[];
    /** Projects with entries past their last signed checkpoint (the timer will sign them). */
    readonly unsigned: number;
  };
  readonly trust: {
    readonly root_fingerprint: string;
    /** True for an auto-created root: not production-grade attestation (TCP/AP §10). */
    readonly development: boolean;
  };
}

/** The runtime's health, from what it knows without touching the database. */
export function healthOf(journal: Journal, keyring: Keyring, store: Store): Health {
  const broken = journal.quarantined();
  return {
    ok: broken.length === 0,
    store: store.description,
    journal: { broken, unsigned: journal.unsignedProjects().length },
    trust: {
      root_fingerprint: keyring.rootFingerprint,
      development: keyring.development,
    },
  };
}
