import createClient from 'openapi-fetch';
import { type Session, unwrap } from './client.js';
import type { operations, paths } from './openapi.gen.js';

/**
 * The evolution operations (issue 17) as the Evolution view calls them: in a file of their own so
 * that they ship in the view's chunk, not in the board's. Events are read as untrusted JSON: a
 * field is shown only when it has the type the event schema gives it.
 */

type Json<O extends keyof operations> = operations[O]['responses'] extends {
  200: { content: { 'application/json': infer T } };
}
  ? T
  : never;

export type EventRow = Json<'listEvents'>['events'][number];
export type EventType = NonNullable<
  NonNullable<operations['listEvents']['parameters']['query']>['event_type']
>;
export type Delivery = Json<'getEvent'>['deliveries'][number];
export type EventsReport = Json<'verifyEvents'>;

/** The event types a filter may name, as the server's enum has them. */
export const EVENT_TYPES: readonly EventType[] = [
  'memory',
  'transition',
  'routing',
  'verification',
  'arbitration',
  'tool',
  'training',
  'benchmark',
];

/** The journal kinds canonry's built-in sources make events from (the event's class). */
export const EVENT_CLASSES: readonly string[] = [
  'canon.commit',
  'relay.window',
  'kernel.verdicts',
  'evolution.feedback',
  'evolution.benchmark',
];

/** One concrete boundary constraint: usable only inside the `kind` named `id`. */
export interface Constraint {
  readonly kind: string;
  readonly id: string;
}

/** An event's effective governance, each member as the event carries it. */
export interface GovernanceView {
  readonly privacyScope: string;
  readonly constraints: readonly Constraint[];
  readonly principals: readonly string[];
  readonly roles: readonly string[];
  readonly replication: string;
  readonly inference: string;
  readonly training: string;
  readonly export: string;
  readonly retention: string;
  readonly tags: readonly string[];
}

/** A source asset as the event store keeps it: its id and kind (never its content). */
export interface SourceView {
  readonly id: string;
  readonly kind: string;
}

/** One stored event as the view shows it. */
export interface EventDetail {
  readonly eventId: string;
  readonly seq: number;
  readonly eventType: string;
  readonly schemaVersion: string;
  readonly createdAt: number | null;
  readonly creator: string;
  readonly sourceNode: string;
  readonly signingIdentity: string;
  readonly signed: boolean;
  readonly policyHash: string;
  readonly sourcePolicyHashes: readonly string[];
  readonly governance: GovernanceView;
  readonly scores: readonly (readonly [string, number])[];
  readonly origin: { readonly project: string; readonly seq: number | null; readonly kind: string };
  readonly targets: readonly string[];
  readonly sources: readonly SourceView[];
  readonly deliveries: readonly Delivery[];
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const strs = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** Reads `GET …/evolution/events/{event}` as untrusted JSON. */
export function eventDetail(body: Json<'getEvent'>): EventDetail {
  const e = obj(body.event);
  const origin = obj(body.origin);
  const constraints = Array.isArray(obj(e.privacy_boundary).constraints)
    ? (obj(e.privacy_boundary).constraints as unknown[])
        .map(obj)
        .map((c) => ({ kind: str(c.kind), id: str(c.id) }))
        .filter((c) => c.kind !== '' && c.id !== '')
    : [];
  return {
    eventId: str(e.event_id),
    seq: body.seq,
    eventType: str(e.event_type),
    schemaVersion: str(e.schema_version),
    createdAt: num(e.created_at),
    creator: str(e.creator),
    sourceNode: str(e.source_node),
    signingIdentity: str(e.signing_identity),
    signed: str(e.signature) !== '',
    policyHash: str(e.policy_hash),
    sourcePolicyHashes: strs(e.source_policy_hashes),
    governance: {
      privacyScope: str(e.privacy_scope),
      constraints,
      principals: strs(e.allowed_principals),
      roles: strs(e.allowed_roles),
      replication: str(e.replication_policy),
      inference: str(e.inference_policy),
      training: str(e.training_policy),
      export: str(e.export_policy),
      retention: str(e.retention_policy),
      tags: strs(e.policy_tags),
    },
    scores: Object.entries(obj(e.scores)).flatMap(([k, v]) => {
      const n = num(v);
      return n === null ? [] : [[k, n] as const];
    }),
    origin: { project: str(origin.project), seq: num(origin.seq), kind: str(origin.kind) },
    targets: body.targets.filter((t) => typeof t === 'string'),
    sources: body.sources
      .map(obj)
      .map((s) => ({ id: str(s.asset_id), kind: str(s.asset_kind) }))
      .filter((s) => s.id !== ''),
    deliveries: body.deliveries,
  };
}

/** The stages a promotion passes through, in order, before it ends promoted or rolled back. */
export const PROMOTION_PATH = ['candidate', 'validated', 'checked', 'published', 'canary'] as const;

/** One canary observation: the metric's mean over `samples` sessions of one arm. */
export interface Observation {
  readonly seq: number | null;
  readonly arm: 'canary' | 'baseline';
  readonly value: number;
  readonly samples: number;
}

/** A promotion as the view shows it. */
export interface PromotionView {
  readonly id: string;
  readonly artifactKind: string;
  readonly address: string;
  readonly stage: string;
  readonly rejectedAt: string | null;
  readonly reason: string | null;
  readonly metric: {
    readonly name: string;
    readonly margin: number;
    readonly minSamples: number;
    /** Observations each arm needs (1 for a promotion proposed before the rule). */
    readonly minObservations: number;
  };
  readonly canary: { readonly share: number; readonly projects: readonly string[] };
  readonly canaryMean: number | null;
  readonly baselineMean: number | null;
  /** Every stage the promotion has been at, oldest first. */
  readonly reached: readonly string[];
  readonly observations: readonly Observation[];
}

/** Reads one promotion of `GET …/evolution/promotions` as untrusted JSON. */
export function promotionView(item: Json<'listPromotions'>['promotions'][number]): PromotionView {
  const p = obj(item.promotion);
  const candidate = obj(p.candidate);
  const metric = obj(candidate.metric);
  const canary = obj(candidate.canary);
  const history = Array.isArray(p.history) ? (p.history as unknown[]).map(obj) : [];
  const observations: Observation[] = [];
  for (const h of history) {
    const o = obj(h.observation);
    const value = num(o.value);
    const samples = num(o.samples);
    if (h.step !== 'observe' || value === null || samples === null) continue;
    if (o.arm !== 'canary' && o.arm !== 'baseline') continue;
    observations.push({ seq: num(h.seq), arm: o.arm, value, samples });
  }
  return {
    id: str(p.promotion_id),
    artifactKind: str(p.artifact_kind),
    address: str(p.address),
    stage: str(p.stage),
    rejectedAt: str(p.rejected_at) || null,
    reason: str(p.reason) || null,
    metric: {
      name: str(metric.name),
      margin: num(metric.margin) ?? 0,
      minSamples: num(metric.min_samples) ?? 0,
      minObservations: num(metric.min_observations) ?? 1,
    },
    canary: { share: num(canary.share) ?? 0, projects: strs(canary.projects) },
    canaryMean: item.canary_mean,
    baselineMean: item.baseline_mean,
    reached: history.map((h) => str(h.stage)).filter((s) => s !== ''),
    observations,
  };
}

/** A filter of the event list: by type, by class, and a page ending before a seq. */
export interface EventQuery {
  readonly eventType: EventType | null;
  readonly eventClass: string | null;
  readonly before: number | null;
  readonly limit: number;
}

/** The evolution calls of one session, typed by the OpenAPI document. */
export function createEvolutionApi(session: Session, origin: string = window.location.origin) {
  const client = createClient<paths>({
    baseUrl: origin,
    headers: { authorization: `Bearer ${session.token}` },
  });
  const project = { project: session.project };
  return {
    /** A page of events, newest first. */
    events: (q: EventQuery) =>
      unwrap(
        client.GET('/v1/projects/{project}/evolution/events', {
          params: {
            path: project,
            query: {
              order: 'newest',
              limit: q.limit,
              ...(q.eventType ? { event_type: q.eventType } : {}),
              ...(q.eventClass ? { class: q.eventClass } : {}),
              ...(q.before !== null ? { before: q.before } : {}),
            },
          },
        }),
      ),
    event: async (id: string) =>
      eventDetail(
        await unwrap(
          client.GET('/v1/projects/{project}/evolution/events/{event}', {
            params: { path: { ...project, event: id } },
          }),
        ),
      ),
    /** The project's promotions in the order they were proposed, read a page at a time. */
    promotions: async () => {
      const page = (after: number) =>
        unwrap(
          client.GET('/v1/projects/{project}/evolution/promotions', {
            params: { path: project, query: { after } },
          }),
        );
      let read = await page(0);
      const all = [...read.promotions];
      while (read.next !== null) {
        read = await page(read.next);
        all.push(...read.promotions);
      }
      return all.map(promotionView);
    },
    /**
     * Every stored event verified by the server (signature from its root, governance), asked for a
     * page at a time (the server checks a bounded page per request) and joined into one report.
     */
    verify: async (): Promise<EventsReport> => {
      const page = (after: number) =>
        unwrap(
          client.GET('/v1/projects/{project}/evolution/verify', {
            params: { path: project, query: { after } },
          }),
        );
      let report = await page(0);
      while (report.next !== null) {
        const more = await page(report.next);
        report = {
          ...more,
          ok: report.ok && more.ok,
          checked: report.checked + more.checked,
          verified: report.verified + more.verified,
          failed: [...report.failed, ...more.failed],
        };
      }
      return report;
    },
    /** Dispatches a dead-lettered event to its target again (editors). */
    retry: (event: string, target: string) =>
      unwrap(
        client.POST('/v1/projects/{project}/evolution/dead-letters/{event}/{target}/retry', {
          params: { path: { ...project, event, target } },
        }),
      ),
  };
}

export type EvolutionApi = ReturnType<typeof createEvolutionApi>;
