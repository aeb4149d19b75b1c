import { AIR_LIMITS } from '../air/index.js';
import type { JsonObject } from '../core/index.js';
import {
  ANSWER_LIMITS,
  CONTRIBUTION_VALUE_SCHEMA,
  MAX_OUTPUT_CHARS,
  RELAY_MODES,
  SESSION_INPUT_SCHEMA,
} from '../relay/index.js';
import { RELAY_WINDOW_QUALITY_SCHEMA } from './relay-quality.js';

/**
 * Component schemas and bodies of the relay's operations (CRP-030). The CSO itself is described by
 * the relay's own `CSO_SCHEMA` (v1); here it is an object, so the OpenAPI document does not carry
 * a second copy that could drift.
 */

const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });
const str: JsonObject = { type: 'string' };
const int: JsonObject = { type: 'integer', minimum: 0 };
const strings: JsonObject = { type: 'array', items: str };
const object = (description: string): JsonObject => ({ type: 'object', description });
const obj = (properties: Record<string, JsonObject>, required: readonly string[]): JsonObject => ({
  type: 'object',
  properties,
  required: [...required],
});

const cso = object('the sealed Cognitive State Object (CRP-030 §2.1, CSO schema v1)');
const windowKind: JsonObject = {
  enum: ['work', 'revision'],
  description: 'work toward the goal, or a §6.2 revision of one decision',
};
const verification = object(
  'preservation (valid prior facts kept / valid prior facts), repaired ids, uncaptured claims, broken dependencies, verified (§5)',
);
const revision = obj(
  {
    target: str,
    revised_by: { type: ['string', 'null'] },
    new_fact: { type: ['string', 'null'] },
    count: int,
    escalation: { type: ['object', 'null'] },
  },
  ['target', 'revised_by', 'new_fact', 'count', 'escalation'],
);
const headers: JsonObject = {
  type: 'object',
  additionalProperties: str,
  description: 'the CRP-Relay-* headers of the window (§5.3, §6.4, §10)',
};

const session = obj(
  {
    session_id: str,
    project: str,
    mode: { enum: [...RELAY_MODES] },
    objective: str,
    remaining: strings,
    success_test: { type: ['string', 'null'] },
    agent: { ...str, description: 'the agent principal its state is committed as' },
    started_by: str,
    max_revisions: int,
    on_unverified: { enum: ['regenerate', 'halt'] },
    genesis: { ...str, description: "window 1's prior_cso_hash" },
    created_at: str,
    air: obj({ mode: str, iap_budget: int }, ['mode', 'iap_budget']),
    promotion: {
      ...obj(
        {
          promotion_id: str,
          project: {
            ...str,
            description: "the promotion's own project (its observations go there)",
          },
          arm: { enum: ['canary', 'baseline', 'promoted'] },
          address: { ...str, description: 'sha256 of the AIR settings the session runs' },
        },
        ['promotion_id', 'project', 'arm', 'address'],
      ),
      description:
        'the promotion of AIR settings the session runs under, when its settings came from one',
    },
  },
  ['session_id', 'project', 'mode', 'objective', 'remaining', 'agent', 'genesis'],
);

const status: JsonObject = { enum: ['active', 'complete', 'halted'] };

export const RELAY_SCHEMAS: Readonly<Record<string, JsonObject>> = {
  RelaySession: session,
  RelaySessionView: obj(
    {
      session: ref('RelaySession'),
      status,
      windows: int,
      cso: { oneOf: [cso, { type: 'null' }] },
      goal_state: object('the goal of the next window (§4.2)'),
    },
    ['session', 'status', 'windows', 'cso', 'goal_state'],
  ),
  RelaySessionSummary: obj({ session: ref('RelaySession'), status, windows: int }, [
    'session',
    'status',
    'windows',
  ]),
  RelayPreparedWindow: obj(
    {
      session_id: str,
      window_number: int,
      kind: windowKind,
      revision_target: { type: ['string', 'null'] },
      goal_state: object('the goal, re-anchored (§4)'),
      slice: object('the facts, decisions, constraints and questions the window is given (§7.2)'),
      messages: {
        type: 'array',
        items: obj({ role: str, content: str }, ['role', 'content']),
        description: 'what to send the model',
      },
      context_packet_hash: {
        type: 'string',
        pattern: '^sha256:[0-9a-f]{64}$',
        description:
          'sha256 of the canonical JSON of messages (the context packet): hand it back when completing the window, and it is journaled for replay',
      },
      tokens: object('token counts of the prompt'),
      dropped: object('slice items left out to hold the token budget'),
      over_budget: { type: 'boolean' },
    },
    ['session_id', 'window_number', 'kind', 'goal_state', 'messages'],
  ),
  RelayCompletedWindow: obj(
    {
      status: {
        enum: ['relayed', 'regenerate', 'halted'],
        description:
          'relayed: verified and committed; regenerate: not verified, nothing journaled; halted: the session stopped (§5.2)',
      },
      session_id: str,
      window_number: int,
      kind: windowKind,
      cso: { oneOf: [cso, { type: 'null' }] },
      verification,
      revisions: { type: 'array', items: revision },
      headers,
    },
    [
      'status',
      'session_id',
      'window_number',
      'kind',
      'cso',
      'verification',
      'revisions',
      'headers',
    ],
  ),
  RelayWindow: obj(
    {
      session_id: str,
      window_number: int,
      kind: windowKind,
      revision_target: { type: ['string', 'null'] },
      cso,
      remaining: strings,
      verification,
      invalidations: { type: 'array', items: object('an item found no longer valid (§3.2)') },
      revisions: { type: 'array', items: revision },
      output: obj({ text: str, hash: str, model: { type: ['string', 'null'] } }, [
        'text',
        'hash',
        'model',
      ]),
      headers,
    },
    ['session_id', 'window_number', 'kind', 'cso', 'verification', 'revisions', 'headers'],
  ),
  RelayChainReport: obj(
    {
      session_id: str,
      ok: { type: 'boolean' },
      windows: int,
      broken: {
        oneOf: [
          obj(
            {
              window_number: int,
              reason: { enum: ['hmac', 'link', 'numbering', 'schema', 'projection'] },
              detail: str,
            },
            ['window_number', 'reason', 'detail'],
          ),
          { type: 'null' },
        ],
      },
    },
    ['session_id', 'ok', 'windows', 'broken'],
  ),
  RelayContribution: CONTRIBUTION_VALUE_SCHEMA,
  RelayWindowQuality: RELAY_WINDOW_QUALITY_SCHEMA,
};

/** AIR options a body may carry (the `CRP-Safety-Policy` header says the same over HTTP, and wins). */
const AIR_OPTIONS: Record<string, JsonObject> = {
  air_mode: {
    enum: ['off', 'passive', 'adaptive', 'aggressive'],
    description: "CRP-018 §6.1 air-mode for this window (else the session's)",
  },
  air_iap_budget: {
    type: 'integer',
    minimum: 0,
    maximum: AIR_LIMITS.maxBudget,
    description: 'CRP-018 §6.1 air-iap-budget for this window, in tokens',
  },
};

/** Request bodies of the relay's operations. */
export const RELAY_BODIES = {
  start: SESSION_INPUT_SCHEMA as unknown as JsonObject,
  prepare: {
    type: 'object',
    properties: {
      max_tokens: {
        type: 'integer',
        minimum: 256,
        maximum: 1_000_000,
        description: "the prompt's token budget (slice items beyond it are dropped, and listed)",
      },
      ...AIR_OPTIONS,
    },
    required: [],
    additionalProperties: false,
  },
  complete: {
    type: 'object',
    properties: {
      output: { type: 'string', maxLength: MAX_OUTPUT_CHARS, description: "the window's text" },
      window_number: {
        type: 'integer',
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        description:
          "the window the output was written for (prepare's window_number): CONFLICT unless it is the session's next, so a retry after a lost response cannot complete the window after it",
      },
      contribution: {
        ...ref('RelayContribution'),
        description:
          "the window's structured contribution (untrusted): facts it restates or adds, decisions with rationale, what it completed, supersedes, revises",
      },
      model: {
        type: ['string', 'null'],
        maxLength: 200,
        description: 'the model route that wrote it',
      },
      context_packet_hash: {
        type: 'string',
        pattern: '^sha256:[0-9a-f]{64}$',
        description:
          "the prepared window's context_packet_hash (the prompt sent); journaled for replay",
      },
      answers: {
        type: 'array',
        maxItems: 16,
        // `['string']`, not `'string'`: the CLI then reads the flag as JSON (or @file), not as a
        // comma-separated list, which would split an answer at its commas.
        items: { type: ['string'], maxLength: ANSWER_LIMITS.answerChars },
        description:
          'the raw answers the model gave for this window, the one taken last; journaled so a replay can stand in for the model (none past 8)',
      },
      ...AIR_OPTIONS,
    },
    required: ['output'],
    additionalProperties: false,
  },
} satisfies Record<string, JsonObject>;

/** The §5.3, §6.4 and §10 headers a completing response carries. */
export const RELAY_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'CRP-Relay-Preservation':
    'valid prior facts kept / valid prior facts, two decimals rounded down; "; repaired=N" when verification re-injected N',
  'CRP-Relay-CSO-Facts': 'established facts in the relayed CSO',
  'CRP-Relay-CSO-Decisions': 'decisions in the relayed CSO',
  'CRP-Relay-Dependency-Depth': 'edges on the longest dependency chain',
  'CRP-Relay-Revisions': 'decisions this window revised',
  'CRP-Relay-Revision-Target': 'the decision it revised (when it did)',
  'CRP-AIR-Active': 'whether the AIR feedback loop injects into the next window (CRP-018 §5.1)',
  'CRP-AIR-Session-IQ': 'the session IQ of §5.2 after this window, 0–100',
  'CRP-AIR-IAP-Token-Cost': 'tokens of the IAP the next window carries (§5.3)',
  'CRP-AIR-Error-Quarantine-Count': 'claims in the error quarantine (§5.4)',
};
