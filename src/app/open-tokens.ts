import { AUTH_MIGRATIONS, TokenStore } from '../auth/index.js';
import { CanonryError } from '../core/index.js';
import { JOURNAL_MIGRATIONS, Journal, verifyProject } from '../journal/index.js';
import { openStore, STORE_IDENTITY_MIGRATIONS } from '../store/index.js';
import { Keyring } from '../trust/index.js';
import { checkDatabaseBeforeOpening } from './bound-database.js';
import { type ConfigInput, resolveConfig } from './config.js';
import { runtimeEntryKinds } from './entry-kinds.js';
import { ensureDataDirectory } from './private-file.js';
import {
  bindStore,
  holdsKeyring,
  keyringForOpenStore,
  readStoreRecord,
  refuseKeyringOverBoundStore,
} from './store-binding.js';
import { journalTokenRecorder } from './token-recorder.js';

/** The token store of a data directory, opened alone; `close` releases it. */
export interface OpenedTokens {
  readonly tokens: TokenStore;
  /**
   * Refuses (CHAIN_BROKEN) when the project's chain does not verify since its last checkpoint: a
   * token event is never appended to a chain `serve` would quarantine.
   */
  verifyProject(project: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens only what issuing, listing and revoking tokens needs — the keyring (created on first use, as
 * `createCanonry` does), the store with the store's, journal's and token migrations, the store
 * binding (one root per database) and a journal without projections (token events are projected by
 * nobody) — not the kernel, canon, classifiers or the other chains' verification. The local
 * operator's `canonry tokens …` answers in a fraction of the runtime's start.
 */
export async function openTokens(
  input: ConfigInput = {},
  { create = true }: { create?: boolean } = {},
): Promise<OpenedTokens> {
  const config = resolveConfig(input);
  // Without `create` (listing, revoking), a data directory with no keyring is KEYRING_MISSING and
  // nothing is made: a mistyped --data must not become a new, empty one.
  // store.json is read once: every check before the store opens, and the binding after, judge
  // the same record.
  const recorded = readStoreRecord(config.dataDir);
  await refuseKeyringOverBoundStore(config.dataDir, recorded !== undefined);
  checkDatabaseBeforeOpening(config.dataDir, config.db, recorded);
  // A new keyring is made only once the database has opened (keyringForOpenStore): a --db that
  // cannot be opened, or that another root signs, leaves no keys behind.
  const existing = !create
    ? await Keyring.open(config.dataDir)
    : (await holdsKeyring(config.dataDir))
      ? await Keyring.openOrInit(config.dataDir)
      : undefined;
  const store = await openStore(config.db, config.dataDir, {
    store: STORE_IDENTITY_MIGRATIONS,
    journal: JOURNAL_MIGRATIONS,
    auth: AUTH_MIGRATIONS,
  });
  try {
    const keyring = existing ?? (await keyringForOpenStore(store, config.dataDir));
    await ensureDataDirectory(config.dataDir);
    await bindStore(store, config.dataDir, keyring.rootFingerprint, recorded);
    const journal = new Journal(store, {
      signer: () => keyring.signer(),
      kinds: runtimeEntryKinds(),
      checkpointEvery: config.checkpoints.every,
      checkpointIntervalMs: config.checkpoints.intervalMs,
    });
    const anchor = {
      root: keyring.rootCertificatePem,
      revocationList: keyring.revocationListPem(),
    };
    return {
      tokens: new TokenStore(store, journalTokenRecorder(journal)),
      async verifyProject(project) {
        const report = await verifyProject(journal, project, anchor, {
          scope: 'tail',
          revoked: 'skip',
        });
        if (report.broken !== null) {
          throw new CanonryError(
            'CHAIN_BROKEN',
            `the journal of ${project} does not verify (seq ${report.broken.seq}: ${report.broken.reason}); no token event is appended to it until an operator repairs it`,
            { project, seq: report.broken.seq, reason: report.broken.reason },
          );
        }
      },
      async close() {
        await journal.close();
        await store.close();
      },
    };
  } catch (err) {
    await store.close().catch(() => undefined);
    throw err;
  }
}
