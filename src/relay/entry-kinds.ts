import { AIR_PACKET_SCHEMA, AIR_STATE_SCHEMA, IAP_SCHEMA } from '../air/index.js';
import {
  checkedPart,
  defineEntryKind,
  type EntryKind,
  type JournalEntry,
} from '../journal/index.js';
import { isMadeAnswer } from './answers.js';
import { csoChange } from './cso-change.js';
import { CSO_SCHEMA, type CsoList, isCheckedItem } from './cso-schema.js';
import { ANSWER_LIMITS } from './limits.js';
import { statusAfter } from './pending.js';
import type {
  RelayHaltRecord,
  RelaySessionRecord,
  RelayWindowEntry,
  RelayWindowRecord,
} from './session-types.js';
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

const SESSION_PARTS = {
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
};

/** The promotion a session runs under (`SessionPromotion`). */
const PROMOTION = obj({
  promotion_id: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$' },
  project: str,
  arm: { enum: ['canary', 'baseline', 'promoted'] },
  address: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' },
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

/** Version 1: a session with no promotion. */
const RELAY_SESSION_V1 = defineEntryKind<{ session: RelaySessionRecord }>({
  kind: 'relay.session',
  version: 1,
  schema: obj({ session: obj(SESSION_PARTS) }),
});

/**
 * A relay session started (CRP-030 §4): its mode, objective, what remains, and its policies —
 * version 2 adds the promotion its AIR settings came from, when they came from one; a version 1
 * entry reads as a session under none.
 */
export const RELAY_SESSION = defineEntryKind<
  { session: RelaySessionRecord },
  { session: RelaySessionRecord }
>({
  kind: 'relay.session',
  version: 2,
  schema: obj({
    session: obj(
      { ...SESSION_PARTS, promotion: PROMOTION },
      { required: Object.keys(SESSION_PARTS) },
    ),
  }),
  previous: { kind: RELAY_SESSION_V1, upgrade: (body) => body },
  summary: ({ session: s }) => ({
    session_id: s.session_id,
    mode: s.mode,
    ...(s.promotion ? { promotion_id: s.promotion.promotion_id, arm: s.promotion.arm } : {}),
  }),
});

/** The session an entry of any version of `relay.session` holds, or null. */
export function sessionEntryOf(entry: JournalEntry): RelaySessionRecord | null {
  if (!RELAY_SESSION.kinds.includes(entry.kind)) return null;
  return RELAY_SESSION.body(entry).session;
}

/** The parts of a window record both versions share (all but the CSO). */
const WINDOW_PARTS = {
  session_id: str,
  window_number: { type: 'integer', minimum: 1 },
  kind: { enum: ['work', 'revision'] },
  revision_target: { type: ['string', 'null'] },
  remaining: strings,
  verification: VERIFICATION,
  invalidations: { type: 'array', items: INVALIDATION },
  revisions: { type: 'array', items: REVISION },
  output: obj({ text: str, hash: str, model: { type: ['string', 'null'] } }),
  signals: SIGNALS,
  quality: QUALITY,
  headers: { type: 'object', additionalProperties: str },
};

/** Version 1: the window record with its whole sealed CSO (sealed over its canonical bytes). */
const RELAY_WINDOW_V1 = defineEntryKind<{ window: RelayWindowRecord }>({
  kind: 'relay.window',
  version: 1,
  schema: obj({ window: obj({ ...WINDOW_PARTS, cso: CSO }) }),
});

const cso = CSO as { properties: Record<string, { items?: Record<string, unknown> }> };

/** The names under which a change's items skip a second check (`checkedPart`): the seal checked them. */
const CHECKED_ITEMS = {
  established_facts: 'relay.cso.fact',
  decisions: 'relay.cso.decision',
  dependency_graph: 'relay.cso.edge',
} as const satisfies Record<CsoList, string>;

/** An item of `list` as a change holds it: checked against the CSO's item schema unless sealed already. */
const itemsOf = (list: CsoList) => checkedPart(CHECKED_ITEMS[list], cso.properties[list]!.items!);
const HEADER = Object.fromEntries(
  ['cso_id', 'window_number', 'prior_cso_hash', 'open_questions', 'constraints', 'goal_state']
    .concat(['cso_hmac', 'verified'])
    .map((k) => [k, cso.properties[k]]),
);
const EDGES = { type: 'array', items: itemsOf('dependency_graph') };

/** A window's CSO as its change from the last window's (`cso-change.ts`); items checked one by one. */
const CSO_CHANGE = obj({
  ...HEADER,
  base: { enum: ['prior', 'empty'] },
  established_facts: obj({
    removed: strings,
    put: { type: 'array', items: itemsOf('established_facts') },
  }),
  decisions: obj({ removed: strings, put: { type: 'array', items: itemsOf('decisions') } }),
  dependency_graph: obj({ removed: EDGES, added: EDGES }),
});

const answerText = { type: 'string', maxLength: ANSWER_LIMITS.answerChars };

/** One raw model answer as journaled (`JournaledAnswer`): whole, around the output, deflated, or the output. */
const ANSWER = {
  oneOf: [
    obj({ text: answerText }),
    obj({ before: answerText, after: answerText }),
    obj({ deflated: answerText }),
    obj({ deflated: answerText, at: { type: 'integer', minimum: 0 } }),
    obj({ same: { const: 'output' } }),
  ],
};

/** The name under which an answer `answers.ts` made within the bound skips its check. */
const CHECKED_ANSWER = 'relay.answer';

/** What a replay needs beside the window (optional: older entries do not have them). */
const REPLAY_PARTS = {
  context_packet_hash: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' },
  answers: {
    type: 'array',
    maxItems: ANSWER_LIMITS.answers,
    items: checkedPart(CHECKED_ANSWER, ANSWER),
  },
};

const WINDOW_V2_REQUIRED = obj({
  ...WINDOW_PARTS,
  state: CSO_CHANGE,
  sealed_over: { enum: ['digest', 'bytes'] },
  status: { enum: ['active', 'complete'] },
});
/** Version 2's window: the required members, and the optional ones an older entry lacks. */
const WINDOW_V2 = {
  ...WINDOW_V2_REQUIRED,
  properties: { ...WINDOW_V2_REQUIRED.properties, ...REPLAY_PARTS },
};

/**
 * A window completed: its CSO as what changed since the last window (the header, the items put
 * and removed, the edges), the verification it passed, the canon versions it committed (in the
 * same transaction), its revisions and its headers, and — when known — the hash of the prompt it
 * was asked with and the model's raw answers (what a replay needs). Version 2; a version 1 entry (the whole CSO)
 * reads as a change from nothing, sealed over its canonical bytes.
 */
export const RELAY_WINDOW = defineEntryKind<
  { window: RelayWindowEntry },
  { window: RelayWindowRecord }
>({
  kind: 'relay.window',
  version: 2,
  schema: obj({ window: WINDOW_V2 }),
  checked: {
    [CHECKED_ITEMS.established_facts]: (v) => isCheckedItem('established_facts', v),
    [CHECKED_ITEMS.decisions]: (v) => isCheckedItem('decisions', v),
    [CHECKED_ITEMS.dependency_graph]: (v) => isCheckedItem('dependency_graph', v),
    [CHECKED_ANSWER]: isMadeAnswer,
  },
  previous: {
    kind: RELAY_WINDOW_V1,
    upgrade: ({ window: { cso, ...rest } }) => ({
      window: {
        ...rest,
        state: csoChange(null, cso),
        sealed_over: 'bytes',
        status: statusAfter({ remaining: rest.remaining, cso }),
      },
    }),
  },
  summary: ({ window: w }) => ({
    session_id: w.session_id,
    window_number: w.window_number,
    kind: w.kind,
    verified: w.verification.verified,
    preservation: w.verification.preservation,
    facts: Number(w.headers['CRP-Relay-CSO-Facts'] ?? 0),
    decisions: Number(w.headers['CRP-Relay-CSO-Decisions'] ?? 0),
    revisions: w.revisions.length,
  }),
});

/** The window an entry of any version of `relay.window` holds (as version 2), or null. */
export function windowEntryOf(entry: JournalEntry): RelayWindowEntry | null {
  if (!RELAY_WINDOW.kinds.includes(entry.kind)) return null;
  return RELAY_WINDOW.body(entry).window;
}

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
