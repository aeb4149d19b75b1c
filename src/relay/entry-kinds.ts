import { AIR_PACKET_SCHEMA, AIR_STATE_SCHEMA, IAP_SCHEMA } from '../air/index.js';
import { defineEntryKind, type EntryKind } from '../journal/index.js';
import { CSO_SCHEMA } from './cso-schema.js';
import type { RelayHaltRecord, RelaySessionRecord, RelayWindowRecord } from './session-types.js';
import { RELAY_MODES } from './types.js';

const str = { type: 'string' };
const strings = { type: 'array', items: str };
const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  required: Object.keys(properties),
  properties,
  additionalProperties: false,
  ...extra,
});

/** A published schema as a part of an entry's (its `$id` and `$schema` belong to it alone). */
function inline(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

/** The CSO, against its own schema (the journal checks it on append and on replay). */
const CSO = inline(CSO_SCHEMA);

/** AIR's mode and budget (CRP-018 §6.1). */
const AIR_POLICY = obj({
  mode: { enum: ['off', 'passive', 'adaptive', 'aggressive'] },
  iap_budget: { type: 'integer', minimum: 0 },
});

/** The IAP packet with its IAP inline (the published packet schema refers to it by `$id`). */
const packetSchema = inline(AIR_PACKET_SCHEMA) as { properties: Record<string, unknown> };
const PACKET = {
  ...packetSchema,
  properties: { ...packetSchema.properties, iap: inline(IAP_SCHEMA) },
};

/** What AIR made of a window: its state, the IAP, the injected text and its tokens. */
const QUALITY = obj({
  policy: AIR_POLICY,
  judge: str,
  state: inline(AIR_STATE_SCHEMA),
  packet: { oneOf: [{ type: 'null' }, PACKET] },
  injection: { type: ['string', 'null'] },
  tokens: { type: 'integer', minimum: 0 },
});

/** The DPE's signals: their shape is the DPE's (checked where they are made); here, an object. */
const SIGNALS = {
  type: 'object',
  required: ['window_number', 'claims', 'quality'],
  properties: {
    window_number: { type: 'integer', minimum: 1 },
    claims: { type: 'array' },
    quality: { type: 'number', minimum: 0, maximum: 1 },
  },
};

const SESSION = obj({
  session_id: str,
  project: str,
  mode: { enum: [...RELAY_MODES] },
  objective: str,
  remaining: strings,
  success_test: { type: ['string', 'null'] },
  agent: str,
  started_by: str,
  max_revisions: { type: 'integer', minimum: 1 },
  on_unverified: { enum: ['regenerate', 'halt'] },
  air: AIR_POLICY,
  genesis: str,
  created_at: str,
});

/** §5: the verification a window's CSO passed (or failed). */
const VERIFICATION = obj({
  preservation: { type: 'number', minimum: 0, maximum: 1 },
  repaired: strings,
  broken_dependencies: { type: 'object', additionalProperties: strings },
  uncaptured: strings,
  verified: { type: 'boolean' },
});

const INVALIDATION = obj({ id: str, by: { type: ['string', 'null'] }, flagged: strings });

const REVISION = obj({
  target: str,
  revised_by: { type: ['string', 'null'] },
  new_fact: { type: ['string', 'null'] },
  count: { type: 'integer', minimum: 1 },
  escalation: {
    oneOf: [{ type: 'null' }, obj({ proposal_id: str, object_id: str })],
  },
});

/** A relay session started (CRP-030 §4): its mode, objective, what remains, and its policies. */
export const RELAY_SESSION = defineEntryKind<{ session: RelaySessionRecord }>({
  kind: 'relay.session',
  version: 1,
  schema: obj({ session: SESSION }),
  summary: ({ session: s }) => ({ session_id: s.session_id, mode: s.mode }),
});

/**
 * A window completed: its sealed CSO, the verification it passed, the canon versions it committed
 * (in the same transaction), its revisions and its headers.
 */
export const RELAY_WINDOW = defineEntryKind<{ window: RelayWindowRecord }>({
  kind: 'relay.window',
  version: 1,
  schema: obj({
    window: obj({
      session_id: str,
      window_number: { type: 'integer', minimum: 1 },
      kind: { enum: ['work', 'revision'] },
      revision_target: { type: ['string', 'null'] },
      cso: CSO,
      remaining: strings,
      verification: VERIFICATION,
      invalidations: { type: 'array', items: INVALIDATION },
      revisions: { type: 'array', items: REVISION },
      output: obj({ text: str, hash: str, model: { type: ['string', 'null'] } }),
      signals: SIGNALS,
      quality: QUALITY,
      headers: { type: 'object', additionalProperties: str },
    }),
  }),
  summary: ({ window: w }) => ({
    session_id: w.session_id,
    window_number: w.window_number,
    kind: w.kind,
    verified: w.verification.verified,
    preservation: w.verification.preservation,
    facts: w.cso.established_facts.length,
    decisions: w.cso.decisions.length,
    revisions: w.revisions.length,
  }),
});

/** A session halted: a window's state could not be repaired and the policy says halt (§5.2). */
export const RELAY_HALT = defineEntryKind<{ halt: RelayHaltRecord }>({
  kind: 'relay.halt',
  version: 1,
  schema: obj({
    halt: obj({
      session_id: str,
      window_number: { type: 'integer', minimum: 1 },
      reason: str,
      verification: VERIFICATION,
    }),
  }),
  summary: ({ halt: h }) => ({ session_id: h.session_id, window_number: h.window_number }),
});

/** Every kind the relay writes. */
export const RELAY_ENTRY_KINDS: readonly EntryKind<unknown>[] = [
  RELAY_SESSION,
  RELAY_WINDOW,
  RELAY_HALT,
] as readonly EntryKind<unknown>[];
