import { AIR_MODES } from '../air/index.js';
import { CanonryError, contentHash, isCanonryError, type JsonValue } from '../core/index.js';
import {
  EVOLUTION_SYSTEM_PROJECT,
  EventStore,
  KERNEL_VERDICT_CLASS,
  kernelVerdictOutcome,
  type PolicyCheck,
  type PromotionCandidate,
  PromotionRunner,
  type PromotionValidator,
  type QualifiedEvent,
  type QualifiedEventVerifier,
  type Replayer,
  replayEvent,
  type StoredEvent,
  type ValidationFailure,
} from '../evolution/index.js';
import type { Journal } from '../journal/index.js';
import { compileProtocol, decide, type ProtocolRegistry } from '../kernel/index.js';
import type { Queryable } from '../store/index.js';
import type { Keyring } from '../trust/index.js';
import { AIR_METRICS } from './activation.js';
import type { CanonryRuntime } from './create-canonry.js';
import { kernelVerdictReplayer } from './replay-kernel.js';
import { type RelayReplayInputs, relayWindowReplayer } from './replay-relay.js';

/** A recorded event and the inputs its replay needs. */
export interface ReplayCase {
  readonly event: QualifiedEvent;
  /** The recorded artifact a `kernel.verdict` event names by hash. */
  readonly artifact?: JsonValue;
}

/** Where validation finds the events a candidate names (the event store, when it is wired in). */
export type ReplayCaseSource = (
  project: string,
  eventId: string,
) => Promise<ReplayCase | undefined> | ReplayCase | undefined;

/** The labels a gate may answer with (canon's stakes gate). */
export const GATE_LABELS = ['AUTO_COMMIT', 'REQUIRE_CONFIRMATION', 'HARD_STOP', 'REJECT'] as const;

/**
 * The runtime's checks beyond evolution's own: a gate policy answers only with the gate's labels and
 * can still stop (HARD_STOP or REJECT), and its canary names projects (a gate judges a project's
 * proposals, not sessions: it has no share to draw; nor has an agentic protocol, in force for a
 * project's validations); AIR settings are a mode and an IAP budget
 * (CRP-018 §6.1) judged by a metric their windows measure ({@link AIR_METRICS}), since the
 * runtime collects it on its own.
 */
export const RUNTIME_CHECKS: PolicyCheck = (candidate) => {
  const reasons: string[] = [];
  const a = candidate.artifact as Record<string, unknown>;
  if (candidate.artifact_kind === 'gate_policy' && candidate.canary.share > 0) {
    reasons.push('a gate canary names its projects: a share has no sessions to draw from');
  }
  if (candidate.artifact_kind === 'agentic_protocol' && candidate.canary.share > 0) {
    reasons.push(
      'a protocol canary names its projects: a validation has no session to draw a share from',
    );
  }
  if (
    candidate.artifact_kind === 'air_settings' &&
    !(AIR_METRICS as readonly string[]).includes(candidate.metric.name)
  ) {
    reasons.push(
      `an AIR settings canary is measured by ${AIR_METRICS.join(', ')}, not ${candidate.metric.name.slice(0, 64)}`,
    );
  }
  if (candidate.artifact_kind === 'gate_policy' && Array.isArray(a.labels)) {
    const unknown = a.labels.filter((l) => !(GATE_LABELS as readonly unknown[]).includes(l));
    if (unknown.length > 0) reasons.push(`a gate answers only ${GATE_LABELS.join(', ')}`);
    if (!a.labels.includes('HARD_STOP') && !a.labels.includes('REJECT')) {
      reasons.push('a gate policy must keep a way to stop: HARD_STOP or REJECT');
    }
  }
  if (candidate.artifact_kind === 'air_settings') {
    const keys = Object.keys(a).sort().join(',');
    if (keys !== 'iap_budget,mode') reasons.push('AIR settings are { mode, iap_budget }');
    if (!(AIR_MODES as readonly unknown[]).includes(a.mode)) {
      reasons.push(`the AIR mode is one of ${AIR_MODES.join(', ')}`);
    }
    if (
      !Number.isSafeInteger(a.iap_budget) ||
      (a.iap_budget as number) < 0 ||
      (a.iap_budget as number) > 65_536
    ) {
      reasons.push('the IAP budget is an integer 0–65,536');
    }
  }
  return reasons;
};

/**
 * Replay validation over recorded events. Every event must replay as recorded (the record is
 * sound); for a protocol or gate policy candidate, each `kernel.verdict` event made under its
 * baseline is decided again with the candidate in the baseline's place and must keep its class
 * and label: a candidate may not change a verdict the record holds.
 */
export function replayValidator(
  source: ReplayCaseSource,
  replayersFor: (cases: Map<string, JsonValue>, project: string) => readonly Replayer[],
): PromotionValidator {
  return async (candidate: PromotionCandidate, project: string, inputs = {}) => {
    const failures: ValidationFailure[] = [];
    // The artifacts the caller handed in, by hash: a kernel verdict event names its artifact so.
    const artifacts = new Map<string, JsonValue>(
      (inputs.artifacts ?? []).map((a) => [contentHash(a), a]),
    );
    const cases: ReplayCase[] = [];
    for (const id of candidate.replay_events) {
      let found: ReplayCase | undefined;
      try {
        found = await source(project, id);
      } catch (err) {
        // An event the source holds but cannot vouch for (it does not verify) validates nothing.
        if (!isCanonryError(err)) throw err;
        failures.push({ event_id: id, reason: err.code });
        continue;
      }
      if (found === undefined) failures.push({ event_id: id, reason: 'not found' });
      else {
        cases.push(found);
        if (found.artifact !== undefined)
          artifacts.set(contentHash(found.artifact), found.artifact);
      }
    }
    const replayers = replayersFor(artifacts, project);
    const protocol =
      candidate.artifact_kind === 'air_settings' ? null : compileCandidate(candidate);
    for (const { event, artifact } of cases) {
      try {
        const report = await replayEvent(event, replayers);
        if (report.status === 'differ') {
          failures.push({
            event_id: event.event_id,
            reason: `differs at ${report.difference.path}`,
          });
          continue;
        }
        if (protocol === null || event.replay?.execution_class !== KERNEL_VERDICT_CLASS) continue;
        const recorded = kernelVerdictOutcome(event);
        if (recorded.protocol_hash !== candidate.baseline) continue;
        // The case's own artifact, else the one handed in under the hash the record names.
        const decided = artifact ?? artifacts.get(recorded.artifact_hash);
        const { verdict } = decide(decided, protocol, recorded.generation_metadata_hash);
        if (verdict.class !== recorded.class || verdict.label !== recorded.label) {
          failures.push({
            event_id: event.event_id,
            reason: `the candidate answers ${verdict.class} ${verdict.label ?? '-'} where the record holds ${recorded.class} ${recorded.label ?? '-'}`,
          });
        }
      } catch (err) {
        if (!isCanonryError(err)) throw err;
        failures.push({ event_id: event.event_id, reason: err.code });
      }
    }
    return { replayed: cases.length, failures };
  };
}

function compileCandidate(candidate: PromotionCandidate) {
  try {
    return compileProtocol(candidate.artifact);
  } catch {
    return null; // the policy check names what is wrong with it
  }
}

const sources = new WeakMap<PromotionRunner, ReplayCaseSource>();

/**
 * Where the runtime's replay validation finds events, in place of the event store (a library
 * caller's own record of events).
 */
export function useReplayCases(runtime: CanonryRuntime, source: ReplayCaseSource): void {
  sources.set(runtime.promotions, source);
}

/**
 * The events a candidate of `project` names, from the runtime's event store: the project's own,
 * then the system project's (where the kernel's verdict events are kept: the audit belongs to no
 * project), each verified from the pinned root before it validates anything (its code otherwise).
 */
export function storedReplayCases(
  store: Queryable,
  verifier: () => QualifiedEventVerifier,
): ReplayCaseSource {
  const events = new EventStore(store);
  return async (project, id) => {
    for (const where of new Set([project, EVOLUTION_SYSTEM_PROJECT])) {
      let stored: StoredEvent;
      try {
        stored = await events.get(where, id);
      } catch (err) {
        if (isCanonryError(err, 'UNKNOWN_EVENT')) continue;
        throw err;
      }
      const verified = verifier().verify(stored.event);
      if (!verified.ok) {
        const issue = verified.issues[0]!;
        throw new CanonryError(issue.code, issue.message);
      }
      return { event: verified.value.event };
    }
    return undefined;
  };
}

/** What the runtime's replay validation reads besides the journal. */
export interface PromotionReplaySources {
  /** Events the candidate names ({@link storedReplayCases}), unless {@link useReplayCases} set one. */
  readonly cases: ReplayCaseSource;
  /** A relay window event's session as started and its windows' journaled answers. */
  readonly relayInputs: (
    project: string,
    event: QualifiedEvent,
  ) => Promise<RelayReplayInputs | undefined>;
}

/**
 * A runtime's promotion runner: publications signed by its keyring's issuer and verified against
 * its root, the runtime's checks, and replay validation over the events the candidate names (the
 * event store, or the source {@link useReplayCases} set), kernel verdicts replayed with the
 * artifacts the caller hands in and relay windows with their journaled answers.
 */
export function buildPromotionRunner(
  journal: Journal,
  keyring: () => Keyring,
  registry: ProtocolRegistry,
  replay: PromotionReplaySources,
): PromotionRunner {
  const runner: PromotionRunner = new PromotionRunner(journal, {
    signer: () => keyring().signer(),
    anchor: () => ({
      root: keyring().rootCertificatePem,
      revocationList: keyring().revocationListPem(),
    }),
    checks: [RUNTIME_CHECKS],
    validator: replayValidator(
      (project, id) => (sources.get(runner) ?? replay.cases)(project, id),
      (artifacts, project) => [
        kernelVerdictReplayer({
          registry,
          signer: () => keyring().signer(),
          artifact: (hash) => artifacts.get(hash),
        }),
        relayWindowReplayer((event) => replay.relayInputs(project, event)),
      ],
    ),
  });
  return runner;
}

/** The runtime's promotion runner (`runtime.promotions`). */
export function promotionsOf(runtime: CanonryRuntime): PromotionRunner {
  return runtime.promotions;
}
