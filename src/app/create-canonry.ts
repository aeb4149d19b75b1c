import { TokenStore } from '../auth/index.js';
import { CANON_PROJECTION, Canon, DEFAULT_GATE_PROTOCOL } from '../canon/index.js';
import {
  CanaryCollector,
  EVOLUTION_PROJECTION,
  type EvolutionCoordinator,
  type PromotionRunner,
} from '../evolution/index.js';
import { Journal, type StartCheck, upgradeProjections, verifyOnStart } from '../journal/index.js';
import { Kernel, ProtocolRegistry, REGISTRY_LIMITS } from '../kernel/index.js';
import { RELAY_GATE_PROTOCOL, RELAY_PROJECTION, Relay } from '../relay/index.js';
import { openStore, type Store } from '../store/index.js';
import { HmacKeyring, type Keyring, Keyring as Keys } from '../trust/index.js';
import {
  airSettingsFor,
  gateFor,
  kernelVerdictSamples,
  type ProtocolInForce,
  protocolInForce,
  relayWindowSamples,
} from './activation.js';
import { startAuditRetention } from './audit-retention.js';
import { checkDatabaseBeforeOpening } from './bound-database.js';
import { type ClassifierSource, type ClassifierSummary, classifierSource } from './classifiers.js';
import { type CanonryConfig, type ConfigInput, resolveConfig } from './config.js';
import { runtimeEntryKinds } from './entry-kinds.js';
import { buildCoordinator, type EvolutionOptions, eventVerifier } from './evolution.js';
import { type Health, healthOf } from './health.js';
import { JournalAuditSink, KERNEL_AUDIT_PROJECT } from './journal-audit-sink.js';
import { watchKeyring } from './keyring-watch.js';
import { importLegacyClassifiers } from './legacy-classifiers.js';
import { importLegacyProtocols } from './legacy-protocols.js';
import { type RuntimeLogger, STDERR_LOGGER } from './logger.js';
import { RUNTIME_MIGRATIONS } from './migration-sets.js';
import { ensureDataDirectory } from './private-file.js';
import { buildPromotionRunner, storedReplayCases } from './promotions.js';
import { JournalProtocolStore, PROTOCOL_PROJECTION } from './protocol-store.js';
import { journalRelayInputs } from './replay-relay.js';
import {
  bindStore,
  holdsKeyring,
  keyringForOpenStore,
  readStoreRecord,
  refuseKeyringOverBoundStore,
} from './store-binding.js';
import { journalTokenRecorder } from './token-recorder.js';

/** A built runtime: everything the faces (server, CLI) need, wired once. */
export interface CanonryRuntime {
  readonly config: CanonryConfig;
  /** The current keyring; replaced when another process rotates or revokes. */
  readonly keyring: Keyring;
  /**
   * The per-project HMAC keys that chain CSOs: `<dataDir>/keys/hmac/`, or `CANONRY_HMAC_KEY` for
   * every project. Keys are created on first use; they never leave it.
   */
  readonly hmac: HmacKeyring;
  readonly store: Store;
  /** The database's id (shared by every server on it). */
  readonly storeId: string;
  readonly journal: Journal;
  readonly kernel: Kernel;
  /** The governed mutation loop (LCSM). */
  readonly canon: Canon;
  /** The state relay (CRP-030): sessions of windows whose state commits to canon. */
  readonly relay: Relay;
  /**
   * The evolution coordinator (GCS), when `config.evolution` is on: follows every project's journal
   * and turns completed work into signed, governed events dispatched to adaptive targets.
   */
  readonly evolution: EvolutionCoordinator | null;
  /**
   * The promotion pipeline of canonry's own adaptive artifacts; what it promotes or puts in a
   * canary is in force (AIR settings for new relay sessions, the gate for a project's proposals).
   */
  readonly promotions: PromotionRunner;
  /** The version of an agentic protocol in force for a project, by slug (`in-force:<slug>`). */
  readonly protocolInForce: ProtocolInForce;
  /** Collects canary metrics from completed relay windows on its own (`src/evolution/README.md`). */
  readonly canaries: CanaryCollector;
  /** The classifier for a project's intake. */
  readonly classifierFor: ClassifierSource;
  /** What intake classifies with (for the start log). */
  readonly classifier: ClassifierSummary;
  readonly tokens: TokenStore;
  /** What the chains looked like when the runtime started (see `verifyOnStart`). */
  readonly startCheck: StartCheck;
  /** Whether the runtime can serve: broken chains, unsigned tails, the kind of root. */
  health(): Health;
  /**
   * Stops every piece of background work and waits for what it has in flight, writes the audit's
   * last records, waits for the appends in flight (refusing later ones, SHUTTING_DOWN), signs unsigned
   * heads, then releases the database and files. Called again, it returns the same close.
   */
  close(): Promise<void>;
}

/** Options that only code (not configuration) can give. */
export interface RuntimeOptions {
  /** Where background failures (an audit write that could not commit) are reported. */
  readonly onError?: (err: unknown) => void;
  /** Where the runtime's background work logs (retention, start checks); errors to stderr otherwise. */
  readonly logger?: RuntimeLogger;
  /**
   * Create what is missing (the keyring, on first start). False for commands that only check or
   * read: they must never mint keys (a missing keyring is KEYRING_MISSING with what to run).
   */
  readonly create?: boolean;
  /** Canon's clock: version timestamps, capture times and effective windows (tests inject one). */
  readonly now?: () => Date;
  /** The evolution coordinator's webhooks, retries and extra ports (used when `config.evolution`). */
  readonly evolution?: EvolutionOptions;
}

/** What a runtime's close stops, in the order it stops them. */
interface RuntimeParts {
  readonly retention: { stop(): Promise<void> } | undefined;
  readonly trust: { stop(): void };
  readonly audit: JournalAuditSink;
  readonly evolution: EvolutionCoordinator | null;
  readonly canaries: CanaryCollector;
  readonly journal: Journal;
  readonly store: Store;
}

/**
 * Builds a runtime from configuration: opens the keyring (creating it on first start), the store
 * (the embedded SQLite file, or PostgreSQL when `db` names one) with every module's migrations,
 * binds the data directory and keyring to the database (one root per database), the journal
 * (checkpoints signed by the active issuer every N entries and on a timer, canon's and the
 * registry's projections), verifies every chain's tail (or whole chain) before anything is served —
 * a chain that does not verify is quarantined, never appended to —, the protocol registry in the
 * database, the kernel (its private audit records go to the journal, pruned past their retention),
 * canon with its stakes gate, the classifiers and the token store.
 *
 * @example
 * const canonry = await createCanonry({ dataDir: './.canonry' });
 */
export async function createCanonry(
  input: ConfigInput | CanonryConfig = {},
  options: RuntimeOptions = {},
): Promise<CanonryRuntime> {
  const config = resolveConfig(input);
  const logger = options.logger ?? STDERR_LOGGER;
  const onError =
    options.onError ?? ((err: unknown) => logger.error({ err }, 'background work failed'));
  // Before any file exists: a malformed CANONRY_HMAC_KEY stops the start here. Nothing is read
  // or created until a project first needs a key.
  const hmac = HmacKeyring.open(config.dataDir);
  // Opened first: a command that must not create anything fails here, before any file exists.
  // store.json is read once: every check before the store opens, and the binding after, judge
  // the same record.
  const recorded = readStoreRecord(config.dataDir);
  await refuseKeyringOverBoundStore(config.dataDir, recorded !== undefined);
  checkDatabaseBeforeOpening(config.dataDir, config.db, recorded);
  // An existing keyring is opened before the store; a new one is made only once the database has
  // opened (keyringForOpenStore): a start refused over its database leaves no keys behind.
  const existing =
    options.create === false
      ? await Keys.open(config.dataDir)
      : (await holdsKeyring(config.dataDir))
        ? await Keys.openOrInit(config.dataDir)
        : undefined;
  const store = await openStore(config.db, config.dataDir, RUNTIME_MIGRATIONS);
  let opened: Keyring;
  try {
    opened = existing ?? (await keyringForOpenStore(store, config.dataDir));
  } catch (err) {
    await store.close().catch(() => undefined);
    throw err;
  }
  const trust = await watchKeyring(config.dataDir, opened, {
    onForeignRoot: (root) =>
      logger.error(
        { root: opened.rootFingerprint, keyring_root: root },
        "keys/ now holds a keyring with another root: it is not used; signing goes on with the keyring this process started with (put the data directory's own keys/ back)",
      ),
  });
  let canaries: CanaryCollector | undefined;
  let evolution: EvolutionCoordinator | null = null;
  let closing: Promise<void> | undefined;
  try {
    const { wide } = await ensureDataDirectory(config.dataDir);
    if (wide) {
      logger.warn(
        { dataDir: config.dataDir },
        'the data directory is readable by others; canonry keeps its files 0600, but narrow it to 0700',
      );
    }
    const identity = await bindStore(store, config.dataDir, opened.rootFingerprint, recorded);
    const signer = () => trust.current().signer();
    const journal = new Journal(store, {
      signer,
      kinds: runtimeEntryKinds(),
      projections: [CANON_PROJECTION, PROTOCOL_PROJECTION, RELAY_PROJECTION, EVOLUTION_PROJECTION],
      checkpointEvery: config.checkpoints.every,
      checkpointIntervalMs: config.checkpoints.intervalMs,
      onError,
      prunable: (project) => project === KERNEL_AUDIT_PROJECT,
      ...(config.forward
        ? {
            forward: {
              host: config.forward.host,
              port: config.forward.port,
              ...(config.forward.advertise === undefined
                ? {}
                : { advertise: config.forward.advertise }),
              ...(config.forward.tls === 'on' ? { tls: true } : {}),
            },
          }
        : {}),
    });
    const startCheck = await verifyOnStart(
      journal,
      { root: opened.rootCertificatePem, revocationList: opened.revocationListPem() },
      config.verifyOnStart,
    );
    for (const { project, reason } of startCheck.unsigned) {
      logger.warn({ project, reason }, 'journal tail verified but could not be signed now');
    }
    for (const broken of startCheck.broken) {
      logger.error(
        { project: broken.project, seq: broken.seq, reason: broken.reason, detail: broken.detail },
        'journal chain does not verify: appends to this project are refused',
      );
    }
    // After the chains are checked: a quarantined project is not replayed.
    const upgrade = await upgradeProjections(journal);
    for (const { name, from, to } of upgrade.changed) {
      if (from === null && upgrade.rebuilt === 0) continue; // a fresh store: nothing to rebuild
      logger.info(
        { projection: name, from, to, rebuilt: upgrade.rebuilt },
        'projection tables rebuilt from the journal for this version of canonry',
      );
    }
    for (const { project, reason } of upgrade.failed) {
      logger.error({ project, reason }, 'projection tables of this project could not be rebuilt');
    }
    const audit = new JournalAuditSink(journal, onError);
    const registry = new ProtocolRegistry(
      new JournalProtocolStore(journal, REGISTRY_LIMITS.maxPerProject),
    );
    const kernel = new Kernel({ signer, registry, audit });
    const gate = (await registry.register(DEFAULT_GATE_PROTOCOL, null)).protocol;
    await importLegacyProtocols(config.dataDir, registry, logger);
    // A promoted or canary gate policy judges the projects it reaches (the relay keeps its own).
    const canon = new Canon({
      journal,
      kernel,
      gate,
      gateFor: gateFor(registry),
      ...(options.now ? { now: options.now } : {}),
    });
    // The relay's state goes through its own gate (its agent writes its own facts and decisions);
    // what it escalates goes through the project's.
    const relayGate = (await registry.register(RELAY_GATE_PROTOCOL, null)).protocol;
    const relay = new Relay({
      canon: new Canon({
        journal,
        kernel,
        gate: relayGate,
        ...(options.now ? { now: options.now } : {}),
      }),
      projectCanon: canon,
      hmac,
      airSettingsFor: airSettingsFor(store),
      ...(options.now ? { now: options.now } : {}),
    });
    const promotions = buildPromotionRunner(journal, () => trust.current(), registry, {
      cases: storedReplayCases(
        store,
        eventVerifier(() => trust.current()),
      ),
      relayInputs: async (project, event) => {
        const { session_id: sessionId, window_number: n } = event.outcome;
        if (typeof sessionId !== 'string' || !Number.isSafeInteger(n) || (n as number) < 1) return;
        return journalRelayInputs(relay, project, sessionId, n as number);
      },
    });
    const collector = new CanaryCollector({
      journal,
      runner: promotions,
      readers: [relayWindowSamples(relay), kernelVerdictSamples(store, KERNEL_AUDIT_PROJECT)],
      onError: (err) => logger.warn({ err }, 'canary metrics: background work failed'),
    });
    canaries = collector;
    await collector.start();
    const classifiers = classifierSource(canon);
    await importLegacyClassifiers(config.dataDir, canon, logger);
    evolution = config.evolution
      ? buildCoordinator(
          journal,
          () => trust.current(),
          canon,
          relay,
          `canonry:${identity.store_id}`,
          options.evolution ?? {},
          (err) => logger.warn({ err }, 'evolution: background work failed'),
        )
      : null;
    await evolution?.start();
    const retention =
      config.auditRetentionDays === null
        ? undefined
        : startAuditRetention(journal, config.auditRetentionDays, signer, logger);
    return {
      config,
      get keyring() {
        return trust.current();
      },
      hmac,
      store,
      storeId: identity.store_id,
      journal,
      kernel,
      canon,
      relay,
      evolution,
      promotions,
      protocolInForce: protocolInForce(registry, store),
      canaries: collector,
      classifierFor: classifiers.source,
      classifier: classifiers.summary,
      // Issuance and revocation commit with their journal entry (never with the secret).
      tokens: new TokenStore(store, journalTokenRecorder(journal)),
      startCheck,
      health: () => healthOf(journal, trust.current(), store),
      close: () => {
        closing ??= closeRuntime({
          retention,
          trust,
          audit,
          evolution,
          canaries: collector,
          journal,
          store,
        });
        return closing;
      },
    };
  } catch (err) {
    await evolution?.stop().catch(() => undefined);
    await canaries?.stop().catch(() => undefined);
    trust.stop();
    await store.close().catch(() => undefined);
    throw err;
  }
}

/**
 * Producers before what they produce into, each waited for: nothing that runs after the store closes
 * was started by the runtime, so closing never makes background work fail.
 */
async function closeRuntime(parts: RuntimeParts): Promise<void> {
  await parts.retention?.stop();
  parts.trust.stop();
  // The audit's batch so far reaches the journal while the coordinator and the collector still
  // follow it; what their own last work validates is written by the audit's close after them.
  await parts.audit.flush();
  await parts.evolution?.stop();
  await parts.canaries.stop();
  await parts.audit.close();
  await parts.journal.close();
  await parts.store.close();
}
