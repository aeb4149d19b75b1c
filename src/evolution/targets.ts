import { contentHash, type JsonObject } from '../core/index.js';
import type { DispatchPath } from './dispatch-path.js';
import type { EventType, QualifiedEvent } from './event-types.js';
import type { Delivery, EvolutionTarget, TargetOutcome } from './ports.js';
import { type ReceivedEvent, receiveEvent } from './receive.js';
import { EVOLUTION_SYSTEM_PROJECT } from './sources.js';
import type { QualifiedEventVerifier } from './verify-event.js';

/** What every built-in target verifies events with: a verifier on the keyring's pinned root. */
export type VerifierSource = () => QualifiedEventVerifier;

/**
 * A port app fills: turns what a memory event asks canon to remember into a canon PROPOSAL, which
 * canon's gate then decides — never a direct commit. Resolves to what the target records (the
 * proposal's id and status).
 */
export interface MemoryProposals {
  propose(
    project: string,
    memory: { readonly title: string; readonly text: string },
    event: QualifiedEvent,
  ): Promise<JsonObject>;
}

/** Why a memory in the evolution system project proposes nothing. */
const NO_CANON_HERE = `canon does not run in ${EVOLUTION_SYSTEM_PROJECT}, the project of the kernel's verdict events`;

/** Built-in targets work inside the project the event is stored in, on this node. */
const IN_PROJECT: DispatchPath['enforces'] = ['project'];
const TUNES_LOCALLY = [{ location: 'local', form: 'raw' }] as const;

/** A built-in target: route by type, verify, then use. */
function builtIn(
  name: string,
  types: readonly EventType[],
  path: Omit<DispatchPath, 'name'>,
  verifier: VerifierSource,
  use: (received: ReceivedEvent, delivery: Delivery) => Promise<JsonObject | null>,
): EvolutionTarget {
  const full: DispatchPath = { name, ...path };
  return {
    name,
    path: full,
    accepts: (event) => types.includes(event.event_type),
    async receive(delivery): Promise<TargetOutcome> {
      const received = receiveEvent(delivery, { verifier: verifier(), path: full });
      if (!received.ok) return { ok: false, issue: received.issues[0]! };
      return { ok: true, record: await use(received.value, delivery) };
    },
  };
}

/**
 * `memory`: a memory event's `remember` becomes a canon proposal through {@link MemoryProposals} —
 * except in {@link EVOLUTION_SYSTEM_PROJECT}, where canon does not run: a proposal there would
 * commit canon into the project of the kernel's verdict events, and its commit would come back as
 * an event of that system project as if it were the kernel's. The delivery records why.
 */
export function memoryTarget(
  verifier: VerifierSource,
  proposals: MemoryProposals,
): EvolutionTarget {
  return builtIn(
    'memory',
    ['memory'],
    { enforces: IN_PROJECT, user: { principal: 'evolution', roles: ['agent'] } },
    verifier,
    async ({ event }, delivery) => {
      const remember = (event.outcome as { remember?: unknown }).remember;
      if (!isMemory(remember)) return { proposal: null };
      if (delivery.project === EVOLUTION_SYSTEM_PROJECT) {
        return { proposal: null, reason: NO_CANON_HERE };
      }
      return proposals.propose(delivery.project, remember, event);
    },
  );
}

/**
 * `benchmark`: the event joins the replay dataset — its delivery record is the dataset row (what
 * a replay needs: request, type, sources, component versions, replay contract, scores).
 */
export function benchmarkTarget(verifier: VerifierSource): EvolutionTarget {
  return builtIn(
    'benchmark',
    ['benchmark', 'verification', 'transition'],
    { enforces: IN_PROJECT },
    verifier,
    async ({ event }) => ({
      dataset: 'replay',
      event_id: event.event_id,
      request_id: event.request_id,
      event_type: event.event_type,
      source_assets: [...event.source_assets],
      model_and_expert_versions: [...event.model_and_expert_versions],
      policy_hash: event.policy_hash,
      scores: { ...event.scores },
      ...(event.replay ? { replay: JSON.parse(JSON.stringify(event.replay)) } : {}),
    }),
  );
}

/**
 * `air-tuning`: a relay window's transition event becomes a candidate AIR settings record — a
 * window whose state needed repair or scored low asks for stronger feedback (CRP-018 §6.1 modes).
 * A candidate only: promotion decides whether it is ever used.
 */
export function airTuningTarget(verifier: VerifierSource): EvolutionTarget {
  return builtIn(
    'air-tuning',
    ['transition'],
    { enforces: IN_PROJECT, trains: TUNES_LOCALLY },
    verifier,
    async ({ event }) => {
      const quality = event.scores.grounding ?? event.scores.verification ?? 1;
      const settings = {
        mode: quality < 0.8 ? 'aggressive' : 'adaptive',
        iap_budget: quality < 0.8 ? 768 : 512,
      };
      return {
        candidate_id: contentHash({ air: settings, from: event.event_id }),
        kind: 'air-settings',
        status: 'candidate',
        settings,
        evidence: { event_id: event.event_id, quality },
      };
    },
  );
}

/**
 * `protocol`: verification (kernel verdicts) and arbitration (gate decisions) events become
 * candidate agentic-protocol version records: which protocols were judged and how they fared.
 */
export function protocolTarget(verifier: VerifierSource): EvolutionTarget {
  return builtIn(
    'protocol',
    ['verification', 'arbitration'],
    { enforces: IN_PROJECT, trains: TUNES_LOCALLY },
    verifier,
    async ({ event }) => {
      const protocols = (event.outcome as { protocols?: unknown }).protocols;
      const basis = {
        protocols: Array.isArray(protocols) ? protocols.filter((p) => typeof p === 'string') : [],
        versions: [...event.model_and_expert_versions],
        from: event.event_id,
      };
      return {
        candidate_id: contentHash(basis),
        kind: 'agentic-protocol',
        status: 'candidate',
        protocols: basis.protocols,
        based_on_versions: basis.versions,
        evidence: { event_id: event.event_id, scores: { ...event.scores } },
      };
    },
  );
}

function isMemory(value: unknown): value is { title: string; text: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { title?: unknown }).title === 'string' &&
    typeof (value as { text?: unknown }).text === 'string'
  );
}
