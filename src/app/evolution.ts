import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type Canon, COMMIT, versionAudience } from '../canon/index.js';
import { type ContentHash, contentHash, type JsonObject } from '../core/index.js';
import {
  type AssetSource,
  airTuningTarget,
  BUILT_IN_SOURCES,
  benchmarkTarget,
  CoordinatorLease,
  EvolutionCoordinator,
  type EvolutionTarget,
  type MemoryProposals,
  memoryTarget,
  projectGovernance,
  protocolTarget,
  QualifiedEventVerifier,
  RELAY_WINDOW_CLASS,
  type RetryPolicy,
  sourceItem,
  type WebhookConfig,
  webhookTarget,
} from '../evolution/index.js';
import type { Journal } from '../journal/index.js';
import { RELAY_WINDOW, type Relay, type RelayWindowRecord } from '../relay/index.js';
import type { Keyring } from '../trust/index.js';
import { relayWindowOutcomeOf } from './replay-relay.js';

/** What code (not configuration) can give the coordinator. */
export interface EvolutionOptions {
  /** External targets: signed webhooks. */
  readonly webhooks?: readonly WebhookConfig[];
  readonly retry?: Partial<RetryPolicy>;
  /** Sleeps between a failing target's attempts (tests make it instant). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Extra targets and sources (ports), beside the built-in ones. */
  readonly targets?: readonly EvolutionTarget[];
  readonly sources?: readonly AssetSource[];
  /**
   * The coordinator's lease on a shared database (one coordinator dispatches at a time): its time
   * to live (default 15 s) and how often it is taken or renewed (default a third of that).
   */
  readonly lease?: { readonly ttlMs?: number; readonly renewMs?: number };
}

/** The coordinator's name: its cursors and its lease (every process on a database shares them). */
const COORDINATOR_NAME = 'default';

/** Projects the coordinator never follows: the system's protocol registrations. */
const UNFOLLOWED = new Set(['registry']);

/**
 * Canon commits as assets: one `arbitration` event per commit (the gate's decision and what it
 * moved) — ids and versions, never the note's text. A personal version's commit makes none: its
 * note, proposal and version are its holder's alone (LCSM §14), and an event is the project's, read
 * by every principal of it and dispatched to its targets.
 */
export const CANON_COMMIT_SOURCE: AssetSource = {
  name: 'canon-commits',
  kinds: [COMMIT.kind],
  read(entry, context) {
    if (!COMMIT.is(entry)) return [];
    const { proposal_id, version, supersedes, stale_artifacts } = entry.body;
    if (!versionAudience(version).shared) return [];
    return [
      sourceItem(entry, context.governanceFor(entry.project), 'canon.commit', [], {
        event_type: 'arbitration',
        creator: version.actor === 'evolution' ? 'system' : 'user',
        outcome: {
          proposal_id,
          object_id: version.note_id,
          version_id: version.version_id,
          version_hash: version.version_hash,
          object_type: version.content.object_type,
          supersedes: supersedes.length,
          stale_artifacts: stale_artifacts.length,
        },
        scores: {},
        model_and_expert_versions: [],
        adaptive_artifact_refs: {},
      }),
    ];
  },
};

/** A window of a session with its whole CSO, as the relay's projection holds it. */
export type RelayWindowOf = (
  project: string,
  sessionId: string,
  windowNumber: number,
) => Promise<RelayWindowRecord | null>;

/**
 * Relay windows as assets: one `transition` event per window — its figures and scores, never the
 * window's text — with the replay contract (`relay.window`): the outcome a replay compares
 * (`relayWindowOutcomeOf`, whose state digest needs the window's whole CSO, read from the relay's
 * projection, which the window's own append brought up to this entry), the plan (session and
 * window), the model, the policies it ran under (AIR mode and budget, the unverified-state policy),
 * no seeds (the relay asks at temperature 0), its validators and, when the window journaled it, the
 * context packet's hash (of the messages the model was asked with). Should the projection not hold
 * the window, the event is made without an execution class (nothing to replay against).
 */
export function relayWindowSource(windowOf: RelayWindowOf): AssetSource {
  return {
    name: 'relay-windows',
    kinds: [RELAY_WINDOW.kind],
    async read(entry, context) {
      if (!RELAY_WINDOW.is(entry)) return [];
      const w = entry.body.window;
      const record = await windowOf(entry.project, w.session_id, w.window_number);
      const model = w.output.model;
      return [
        sourceItem(entry, context.governanceFor(entry.project), 'relay.window', [], {
          event_type: 'transition',
          creator: 'model',
          outcome: {
            ...(record === null ? {} : relayWindowOutcomeOf(record)),
            session_id: w.session_id,
            window_number: w.window_number,
            kind: w.kind,
            verified: w.verification.verified,
            preservation: w.verification.preservation,
            // The window's change (the entry carries what changed, not the whole state).
            facts_put: w.state.established_facts.put.length,
            facts_removed: w.state.established_facts.removed.length,
            decisions_put: w.state.decisions.put.length,
            decisions_removed: w.state.decisions.removed.length,
            revisions: w.revisions.length,
          },
          scores: {
            verification: w.verification.preservation,
            grounding: Math.min(Math.max(w.signals.quality, 0), 1),
          },
          model_and_expert_versions: model === null ? [] : [model],
          adaptive_artifact_refs: {},
          replay: {
            plan_ref: `relay:${w.session_id}:${w.window_number}`,
            ...(model === null ? {} : { components: { model } }),
            ...(w.context_packet_hash === undefined
              ? {}
              : { context_packet_hash: w.context_packet_hash as ContentHash }),
            ...(record === null
              ? {}
              : {
                  execution_class: RELAY_WINDOW_CLASS,
                  policy_versions: [
                    `air:${w.quality.policy.mode}:${w.quality.policy.iap_budget}`,
                  ].sort(),
                  seeds: [],
                  validators: ['relay.verification', `dpe:${w.quality.judge}`].sort(),
                }),
          },
        }),
      ];
    },
  };
}

/**
 * The memory target's port, filled by canon: what a memory event asks canon to remember becomes a
 * proposal by the principal `evolution` (an agent), provisional and uncertain, which canon's gate
 * then decides like any other — never a direct commit. The object id is the event's, so an event
 * delivered again (a dispatch a stop or a lease change cut short after canon took it) answers the
 * proposal it already made: proposed again, canon refuses the second create (CONFLICT), and the
 * delivery was retried and dead-lettered although the memory had been proposed.
 */
export function canonMemory(canon: Canon): MemoryProposals {
  return {
    async propose(project, memory, event) {
      const objectId = `mem-${contentHash({ event: event.event_id }).slice(7, 19)}`;
      const earlier = (await canon.reader(project).proposalsOn([objectId])).find(
        (p) => p.intent === 'create' && p.proposer.id === 'evolution',
      );
      if (earlier !== undefined) {
        return { proposal_id: earlier.proposal_id, status: earlier.status } as JsonObject;
      }
      const outcome = await canon.propose(
        { id: 'evolution', project, role: 'agent' },
        {
          object_id: objectId,
          intent: 'create',
          base_version: null,
          candidate: {
            object_type: 'preference',
            title: memory.title,
            text: memory.text,
            shape: null,
            confidence_state: 'uncertain',
            status: 'provisional',
            visibility: 'project',
            sources: [],
            dependency_refs: [],
            effective_from: null,
            effective_until: null,
            tags: [],
          },
          rationale: `from qualified cognitive event ${event.event_id}`,
        },
      );
      return {
        proposal_id: outcome.proposal.proposal_id,
        status: outcome.proposal.status,
      } as JsonObject;
    },
  };
}

/**
 * Builds the coordinator with the built-in sources (kernel verdicts, feedback, benchmark results,
 * and canon's and the relay's through their ports) and targets (`memory`, `benchmark`,
 * `air-tuning`, `protocol`, and any webhooks); it signs with the kernel's issuer and follows every
 * project but the registry while it holds the database's coordinator lease (standing by otherwise).
 */
export function buildCoordinator(
  journal: Journal,
  keyring: () => Keyring,
  canon: Canon,
  relay: Pick<Relay, 'window'>,
  sourceNode: string,
  options: EvolutionOptions,
  onError: (err: unknown) => void,
): EvolutionCoordinator {
  const verifierNow = eventVerifier(keyring);
  const lease = new CoordinatorLease(journal.store, {
    name: COORDINATOR_NAME,
    holder: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
    ...(options.lease?.ttlMs === undefined ? {} : { ttlMs: options.lease.ttlMs }),
  });
  return new EvolutionCoordinator({
    name: COORDINATOR_NAME,
    lease,
    ...(options.lease?.renewMs === undefined ? {} : { renewMs: options.lease.renewMs }),
    journal,
    signer: () => keyring().signer(),
    sources: [
      ...BUILT_IN_SOURCES,
      CANON_COMMIT_SOURCE,
      relayWindowSource((project, id, n) => relay.window(project, id, n)),
      ...(options.sources ?? []),
    ],
    targets: [
      memoryTarget(verifierNow, canonMemory(canon)),
      benchmarkTarget(verifierNow),
      airTuningTarget(verifierNow),
      protocolTarget(verifierNow),
      ...(options.webhooks ?? []).map((w) => webhookTarget(w)),
      ...(options.targets ?? []),
    ],
    projects: async () =>
      (await journal.projects()).map((p) => p.project).filter((p) => !UNFOLLOWED.has(p)),
    governanceFor: projectGovernance,
    sourceNode,
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
    onError,
  });
}

/**
 * Verifies events against the keyring's root and revocation list as they are now: one verifier (it
 * keeps each certificate's chain check) for as long as neither changes.
 */
export function eventVerifier(keyring: () => Keyring): () => QualifiedEventVerifier {
  let held: { anchor: string; verifier: QualifiedEventVerifier } | undefined;
  return () => {
    const k = keyring();
    const root = k.rootCertificatePem;
    const crl = k.revocationListPem();
    const anchor = `${root}${crl ?? ''}`;
    if (held?.anchor !== anchor) {
      held = {
        anchor,
        verifier: new QualifiedEventVerifier({ root, ...(crl ? { revocationList: crl } : {}) }),
      };
    }
    return held.verifier;
  };
}

const verifiers = new WeakMap<Keyring, () => QualifiedEventVerifier>();

/**
 * The event verifier of a runtime's keyring (operations and the CLI verify through it): judging
 * issuers now, or at `at` (a verifier of its own, kept by nobody).
 */
export function eventVerifierOf(
  runtime: { readonly keyring: Keyring },
  at?: Date,
): QualifiedEventVerifier {
  if (at !== undefined) {
    const crl = runtime.keyring.revocationListPem();
    return new QualifiedEventVerifier({
      root: runtime.keyring.rootCertificatePem,
      at,
      ...(crl ? { revocationList: crl } : {}),
    });
  }
  let get = verifiers.get(runtime.keyring);
  if (!get) {
    const keyring = runtime.keyring;
    get = eventVerifier(() => keyring);
    verifiers.set(keyring, get);
  }
  return get();
}
