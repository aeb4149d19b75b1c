import { DEFAULT_AIR_POLICY, resolveAirPolicy } from '../air/index.js';
import { type ContentHash, contentHash, type JsonObject } from '../core/index.js';
import {
  activePromotions,
  type CanarySample,
  placeProject,
  placeSession,
  replacedBaseline,
  type SampleReader,
} from '../evolution/index.js';
import type { JournalEntry } from '../journal/index.js';
import type { CompiledProtocol, ProtocolRegistry } from '../kernel/index.js';
import {
  type AirSettingsFor,
  RELAY_WINDOW,
  type Relay,
  type RelayWindowEntry,
  windowEntryOf,
} from '../relay/index.js';
import type { Queryable } from '../store/index.js';
import { VERDICTS } from './journal-audit-sink.js';

/**
 * The metrics a completed relay window measures for an `air_settings` canary, each in [0, 1]:
 * the window's verification preservation, the DPE's quality signal, whether the state verified
 * (1/0), and AIR's session IQ (0–100, scaled; absent before AIR has one).
 */
export const AIR_METRICS = ['preservation', 'quality', 'verified', 'session_iq'] as const;

const clamp = (n: number) => Math.min(1, Math.max(0, n));

/** A window's measures, by {@link AIR_METRICS} name. */
export function windowMetrics(window: Omit<RelayWindowEntry, 'state'>): Record<string, number> {
  const metrics: Record<string, number> = {
    preservation: clamp(window.verification.preservation),
    quality: clamp(window.signals.quality),
    verified: window.verification.verified ? 1 : 0,
  };
  const iq = window.quality.state.session_iq;
  if (iq !== null && Number.isFinite(iq)) metrics.session_iq = clamp(iq / 100);
  return metrics;
}

/**
 * The relay's port for AIR settings, filled from the promotions in force: a session lands in a
 * canary (the candidate's settings), a canary's baseline arm or under a promoted artifact
 * (`placeSession`), or under the defaults with no promotion. The session records the promotion,
 * its arm and the address of the settings it runs.
 */
export function airSettingsFor(db: Pick<Queryable, 'all'>): AirSettingsFor {
  return async (project, sessionId) => {
    const placement = placeSession(await activePromotions(db, 'air_settings'), {
      project,
      session_id: sessionId,
    });
    if (placement === null) return null;
    const a = placement.artifact as { mode?: string; iap_budget?: number } | null;
    // Checked when the candidate was (RUNTIME_CHECKS); read as a policy all the same.
    const air =
      a === null
        ? DEFAULT_AIR_POLICY
        : resolveAirPolicy({
            options: {
              ...(a.mode === undefined ? {} : { mode: a.mode }),
              ...(a.iap_budget === undefined ? {} : { iap_budget: a.iap_budget }),
            },
          });
    return {
      air: { mode: air.mode, iap_budget: air.iap_budget },
      promotion: {
        promotion_id: placement.promotion.promotion_id,
        project: placement.promotion.project,
        arm: placement.arm,
        address: contentHash({ mode: air.mode, iap_budget: air.iap_budget }),
      },
    };
  };
}

/**
 * The samples of `air_settings` canaries: each completed window of a session in a canary's arm is
 * one, reported to the promotion's own project under `canary:<promotion>:<project>:<session>:
 * <window>`. A window run with other AIR settings than its session's (a per-window override) is
 * no sample of the arm; neither is a session under a promoted artifact.
 */
export function relayWindowSamples(relay: Relay): SampleReader {
  return {
    artifactKind: 'air_settings',
    kinds: RELAY_WINDOW.kinds,
    async read(entry: JournalEntry): Promise<CanarySample[]> {
      const window = windowEntryOf(entry);
      if (window === null) return [];
      const row = await relay.reader(entry.project).session(window.session_id);
      const promotion = row?.session.promotion;
      if (!row || !promotion || promotion.arm === 'promoted') return [];
      const air = row.session.air;
      const policy = window.quality.policy;
      if (policy.mode !== air.mode || policy.iap_budget !== air.iap_budget) return [];
      return [
        {
          project: promotion.project,
          promotion_id: promotion.promotion_id,
          arm: promotion.arm,
          key: `canary:${promotion.promotion_id}:${entry.project}:${window.session_id}:${window.window_number}`,
          metrics: windowMetrics(window),
        },
      ];
    },
  };
}

/**
 * Registers and compiles a promoted artifact once per address (so its verdicts resolve and replay
 * from the registry); a registration that failed is tried again next time, not remembered.
 */
function registeredOnce(
  registry: ProtocolRegistry,
): (address: ContentHash, artifact: JsonObject) => Promise<CompiledProtocol> {
  const compiled = new Map<ContentHash, Promise<CompiledProtocol>>();
  return (address, artifact) => {
    let protocol = compiled.get(address);
    if (protocol === undefined) {
      protocol = registry.register(artifact, null).then((r) => r.protocol);
      protocol.catch(() => compiled.delete(address));
      compiled.set(address, protocol);
    }
    return protocol;
  };
}

/**
 * Canon's port for the stakes gate of a project, filled from `gate_policy` promotions: the
 * candidate for a project its canary names, a promoted gate where one reaches the project, else
 * null (the runtime's default gate).
 */
export function gateFor(
  registry: ProtocolRegistry,
): (project: string, db: Pick<Queryable, 'all'>) => Promise<CompiledProtocol | null> {
  const registered = registeredOnce(registry);
  return async (project, db) => {
    const placement = placeProject(await activePromotions(db, 'gate_policy'), project);
    if (placement === null || placement.artifact === null || placement.address === null) {
      return null;
    }
    return registered(placement.address, placement.artifact);
  };
}

/** How a project-scoped validate names "the version of this protocol in force here". */
export const IN_FORCE_PREFIX = 'in-force:';

/** The protocol in force for a project, by slug, or null when no promotion puts one there. */
export type ProtocolInForce = (
  project: string,
  slug: string,
  db?: Pick<Queryable, 'all'>,
) => Promise<CompiledProtocol | null>;

/**
 * Which version of an agentic protocol is in force for a project, from `agentic_protocol`
 * promotions of that slug: the candidate for a project its canary names, else the newest promoted
 * version that reaches the project, else the baseline an active promotion of that slug reaching the
 * project replaces (by hash, from the registry), else null. The caller names the protocol by slug
 * (`in-force:<slug>`) and the verdict records the hash it resolved to, as every verdict does: the
 * verdict still depends on (artifact, protocol) alone.
 */
export function protocolInForce(
  registry: ProtocolRegistry,
  store: Pick<Queryable, 'all'>,
): ProtocolInForce {
  const registered = registeredOnce(registry);
  return async (project, slug, db = store) => {
    const active = (await activePromotions(db, 'agentic_protocol')).filter(
      (p) => (p.candidate.artifact as { slug?: unknown }).slug === slug,
    );
    const placement = placeProject(active, project);
    if (placement !== null && placement.artifact !== null && placement.address !== null) {
      return registered(placement.address, placement.artifact);
    }
    const baseline = replacedBaseline(active, project);
    return baseline === null ? null : registry.get(baseline);
  };
}

/** What a protocol canary can be measured by on its own, per verdict (higher is better). */
export const PROTOCOL_METRICS = ['drift_free', 'conformance'] as const;

/**
 * A verdict's measures: `drift_free` 0 when the protocol could not decide (INTERPRETATION_DRIFT:
 * a rule error, no rule matched, an ambiguous answer, its step budget spent), else 1;
 * `conformance` 1 when the artifact conformed.
 */
function verdictMetrics(verdictClass: string): Record<string, number> {
  return {
    drift_free: verdictClass === 'INTERPRETATION_DRIFT' ? 0 : 1,
    conformance: verdictClass === 'CONFORMANT' ? 1 : 0,
  };
}

/**
 * The samples of `agentic_protocol` canaries, from the kernel's audit (every validation's verdict,
 * batched into `kernel.verdicts` entries in the audit's project): a verdict under a canary's
 * candidate (its address) is one sample of the canary arm, a verdict under the protocol it
 * replaces (its baseline) one of the baseline arm, each reported to the promotion's project under
 * `canary:<promotion>:<audit project>:<seq>:<record>`. The audit names no project, so a verdict
 * counts wherever it was made; the protocol hash alone says which arm it was.
 */
export function kernelVerdictSamples(
  db: Pick<Queryable, 'all'>,
  auditProject: string,
): SampleReader {
  return {
    artifactKind: 'agentic_protocol',
    kinds: [VERDICTS.kind],
    projects: [auditProject],
    async read(entry: JournalEntry): Promise<CanarySample[]> {
      if (!VERDICTS.is(entry)) return [];
      const open = (await activePromotions(db, 'agentic_protocol')).filter(
        (p) => p.stage === 'canary',
      );
      if (open.length === 0) return [];
      const samples: CanarySample[] = [];
      entry.body.records.forEach((record, i) => {
        for (const p of open) {
          const arm =
            record.protocol_hash === p.address
              ? 'canary'
              : record.protocol_hash === p.candidate.baseline
                ? 'baseline'
                : null;
          // A verdict from before the canary opened is no sample of it.
          if (arm === null || record.at < p.since) continue;
          samples.push({
            project: p.project,
            promotion_id: p.promotion_id,
            arm,
            key: `canary:${p.promotion_id}:${entry.project}:${entry.seq}:${i}`,
            metrics: verdictMetrics(record.class),
          });
        }
      });
      return samples;
    },
  };
}
