import { AUTH_MIGRATIONS, TokenStore } from '../auth/index.js';
import {
  CANON_MIGRATIONS,
  CANON_PROJECTION,
  Canon,
  DEFAULT_GATE_PROTOCOL,
} from '../canon/index.js';
import { JOURNAL_MIGRATIONS, Journal } from '../journal/index.js';
import { FileProtocolStore, Kernel, ProtocolRegistry } from '../kernel/index.js';
import { openStore, type Store } from '../store/index.js';
import { type Keyring, Keyring as Keys } from '../trust/index.js';
import { type ClassifierSource, classifierSource } from './classifiers.js';
import { type CanonryConfig, type ConfigInput, resolveConfig } from './config.js';
import { JournalAuditSink } from './journal-audit-sink.js';
import { watchKeyring } from './keyring-watch.js';
import { dataPaths } from './paths.js';

/** A built runtime: everything the faces (server, CLI) need, wired once. */
export interface CanonryRuntime {
  readonly config: CanonryConfig;
  /** The current keyring; replaced when another process rotates or revokes. */
  readonly keyring: Keyring;
  readonly store: Store;
  readonly journal: Journal;
  readonly kernel: Kernel;
  /** The governed mutation loop (LCSM). */
  readonly canon: Canon;
  /** The classifier for a project's intake. */
  readonly classifierFor: ClassifierSource;
  readonly tokens: TokenStore;
  /** Waits for in-flight journal writes, then releases the database and files. */
  close(): Promise<void>;
}

/** Options that only code (not configuration) can give. */
export interface RuntimeOptions {
  /** Where background failures (an audit write that could not commit) are reported. */
  readonly onError?: (err: unknown) => void;
  /** Canon's clock: version timestamps, capture times and effective windows (tests inject one). */
  readonly now?: () => Date;
}

/**
 * Builds a runtime from configuration: opens the keyring (creating it on first start), the store
 * (the embedded SQLite file, or PostgreSQL when `db` names one) with every module's migrations, the
 * journal (checkpoints signed by the active issuer, canon's projection), the protocol registry, the
 * kernel (its private audit records go to the journal), canon with its stakes gate, the classifiers
 * and the token store.
 *
 * @example
 * const canonry = await createCanonry({ dataDir: './.canonry' });
 */
export async function createCanonry(
  input: ConfigInput | CanonryConfig = {},
  options: RuntimeOptions = {},
): Promise<CanonryRuntime> {
  const config = resolveConfig(input);
  const paths = dataPaths(config.dataDir);
  const trust = await watchKeyring(config.dataDir, await Keys.openOrInit(config.dataDir));
  const store = await openStore(config.db, config.dataDir, {
    journal: JOURNAL_MIGRATIONS,
    auth: AUTH_MIGRATIONS,
    canon: CANON_MIGRATIONS,
  });
  const journal = new Journal(store, {
    signer: () => trust.current().signer(),
    projections: [CANON_PROJECTION],
  });
  const audit = new JournalAuditSink(journal, options.onError);
  const registry = new ProtocolRegistry(new FileProtocolStore(paths.protocols));
  const kernel = new Kernel({ signer: () => trust.current().signer(), registry, audit });
  const gate = registry.register(DEFAULT_GATE_PROTOCOL).protocol;
  const canon = new Canon({ journal, kernel, gate, ...(options.now ? { now: options.now } : {}) });
  return {
    config,
    get keyring() {
      return trust.current();
    },
    store,
    journal,
    kernel,
    canon,
    classifierFor: classifierSource(config.dataDir),
    // Issuance and revocation are journaled in the token's project, never with the secret.
    tokens: new TokenStore(store, async ({ action, info }) => {
      await journal.append(info.project, {
        kind: `auth.token.${action}`,
        body: { token_id: info.token_id, principal: info.principal, role: info.role },
        actor: 'operator',
        authority: { system: 'auth' },
      });
    }),
    close: async () => {
      trust.stop();
      await audit.close();
      await store.close();
    },
  };
}
