import { Journal } from '../journal/index.js';
import { FileProtocolStore, Kernel, ProtocolRegistry } from '../kernel/index.js';
import { openStore, type Store } from '../store/index.js';
import { type Keyring, Keyring as Keys } from '../trust/index.js';
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
  /** Waits for in-flight journal writes, then releases the database and files. */
  close(): Promise<void>;
}

/** Options that only code (not configuration) can give. */
export interface RuntimeOptions {
  /** Where background failures (an audit write that could not commit) are reported. */
  readonly onError?: (err: unknown) => void;
}

/**
 * Builds a runtime from configuration: opens the keyring (creating it on first start), the store
 * (the embedded SQLite file, or PostgreSQL when `db` names one) with its migrations, the journal
 * (checkpoints signed by the active issuer), the protocol registry, and the kernel, whose private
 * audit records go to the journal.
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
  const store = await openStore(config.db, config.dataDir);
  const journal = new Journal(store, { signer: () => trust.current().signer() });
  const audit = new JournalAuditSink(journal, options.onError);
  const registry = new ProtocolRegistry(new FileProtocolStore(paths.protocols));
  const kernel = new Kernel({ signer: () => trust.current().signer(), registry, audit });
  return {
    config,
    get keyring() {
      return trust.current();
    },
    store,
    journal,
    kernel,
    close: async () => {
      trust.stop();
      await audit.close();
      await store.close();
    },
  };
}
