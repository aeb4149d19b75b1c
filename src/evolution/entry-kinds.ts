import type { JsonObject } from '../core/index.js';
import { defineEntryKind, type EntryKind } from '../journal/index.js';
import { COGNITIVE_ASSET_SCHEMA } from './asset-schema.js';
import type { CognitiveAsset } from './asset-types.js';
import { QUALIFIED_EVENT_SCHEMA } from './event-schema.js';
import type { QualifiedEvent } from './event-types.js';

const str = { type: 'string', minLength: 1, maxLength: 256 };
const int = { type: 'integer', minimum: 0 };
const unit = { type: 'number', minimum: 0, maximum: 1 };
const obj = (properties: Record<string, unknown>, optional: readonly string[] = []) => ({
  type: 'object',
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  properties,
  additionalProperties: false,
});

/** A published schema as a part of an entry's (its `$id` and `$schema` belong to it alone). */
function inline(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

/** Where the work an event records was journaled, and which of that entry's items it is. */
export interface EventOrigin {
  readonly project: string;
  readonly seq: number;
  readonly kind: string;
  /** The asset source that read the entry. */
  readonly source: string;
  /** The item of the entry (an entry may yield several events), from 0. */
  readonly item: number;
}

/**
 * An `evolution.event` entry: the signed event exactly as signed (it keeps the schema version it
 * was made under), where it came from, the targets it was routed to, and its source assets —
 * references, content hashes and governance, never content — so any later check can re-verify
 * the event's source-policy linkage.
 */
export interface EventEntryBody {
  readonly event: QualifiedEvent;
  readonly origin: EventOrigin;
  readonly targets: readonly string[];
  readonly sources: readonly CognitiveAsset[];
}

const ORIGIN = obj({
  project: str,
  seq: { type: 'integer', minimum: 1 },
  kind: str,
  source: str,
  item: int,
});

/** A qualified cognitive event, stored in the project its work came from. */
export const EVOLUTION_EVENT = defineEntryKind<EventEntryBody>({
  kind: 'evolution.event',
  version: 1,
  schema: obj({
    event: inline(QUALIFIED_EVENT_SCHEMA),
    origin: ORIGIN,
    targets: { type: 'array', maxItems: 64, items: str },
    sources: { type: 'array', minItems: 1, maxItems: 1024, items: inline(COGNITIVE_ASSET_SCHEMA) },
  }),
  // Event class (the source kind), type, targets and ids: never the outcome or the governance ids.
  summary: ({ event, origin, targets }) => ({
    event_id: event.event_id,
    event_type: event.event_type,
    class: origin.kind,
    schema_version: event.schema_version,
    targets: [...targets],
    policy_hash: event.policy_hash,
    origin_seq: origin.seq,
  }),
});

export const DELIVERY_OUTCOMES = ['delivered', 'refused', 'dead_letter'] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/**
 * An `evolution.delivery` entry: what one target made of one event — delivered (with the record
 * the target keeps: a dataset row, a candidate, a proposal's id), refused by the target's checks
 * (with the reason), or dead-lettered after its attempts ran out. A later delivery of the same
 * event to the same target (a retry) supersedes it in the projection; the journal keeps both.
 */
export interface DeliveryBody {
  readonly event_id: string;
  readonly target: string;
  readonly outcome: DeliveryOutcome;
  readonly attempts: number;
  readonly code: string | null;
  readonly reason: string | null;
  readonly record: JsonObject | null;
}

export const EVOLUTION_DELIVERY = defineEntryKind<DeliveryBody>({
  kind: 'evolution.delivery',
  version: 1,
  schema: obj({
    event_id: str,
    target: str,
    outcome: { enum: [...DELIVERY_OUTCOMES] },
    attempts: int,
    code: { type: ['string', 'null'], maxLength: 64 },
    reason: { type: ['string', 'null'], maxLength: 2048 },
    record: { type: ['object', 'null'] },
  }),
  summary: (d) => ({
    event_id: d.event_id,
    target: d.target,
    outcome: d.outcome,
    attempts: d.attempts,
    code: d.code,
  }),
});

/** A person's feedback on a piece of work; with `remember`, something canon should hold. */
export interface FeedbackBody {
  readonly feedback_id: string;
  /** What the feedback is about: an asset id, a canon object id, a relay session. */
  readonly subject: string;
  readonly score: number;
  readonly principal: string;
  readonly remember: { readonly title: string; readonly text: string } | null;
}

export const EVOLUTION_FEEDBACK = defineEntryKind<FeedbackBody>({
  kind: 'evolution.feedback',
  version: 1,
  schema: obj({
    feedback_id: str,
    subject: str,
    score: unit,
    principal: str,
    remember: {
      oneOf: [
        { type: 'null' },
        obj({
          title: { type: 'string', minLength: 1, maxLength: 200 },
          text: { type: 'string', minLength: 1, maxLength: 4000 },
        }),
      ],
    },
  }),
  summary: (f) => ({
    feedback_id: f.feedback_id,
    subject: f.subject,
    score: f.score,
    remember: f.remember !== null,
  }),
});

/** One benchmark case's result. */
export interface BenchmarkBody {
  readonly result_id: string;
  readonly suite: string;
  readonly case: string;
  readonly score: number;
  readonly passed: boolean;
  readonly model: string | null;
}

export const EVOLUTION_BENCHMARK = defineEntryKind<BenchmarkBody>({
  kind: 'evolution.benchmark',
  version: 1,
  schema: obj({
    result_id: str,
    suite: str,
    case: str,
    score: unit,
    passed: { type: 'boolean' },
    model: { type: ['string', 'null'], maxLength: 256 },
  }),
  summary: (b) => ({
    result_id: b.result_id,
    suite: b.suite,
    case: b.case,
    score: b.score,
    passed: b.passed,
  }),
});

/** Every kind evolution writes. */
export const EVOLUTION_ENTRY_KINDS: readonly EntryKind<unknown>[] = [
  EVOLUTION_EVENT,
  EVOLUTION_DELIVERY,
  EVOLUTION_FEEDBACK,
  EVOLUTION_BENCHMARK,
] as readonly EntryKind<unknown>[];
