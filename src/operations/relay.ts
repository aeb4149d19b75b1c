import { CanonryError } from '../core/index.js';
import type { CompletedWindow } from '../relay/index.js';
import { intQuery } from './input.js';
import type { Operation, QueryDoc } from './operation.js';
import { windowQuality } from './relay-quality.js';
import { RELAY_BODIES, RELAY_RESPONSE_HEADERS } from './relay-schemas.js';
import { RESPONSES, ref } from './schemas.js';

/**
 * The state relay's sessions (CRP-030): start one, prepare and complete its windows with your own
 * model, read where it stands and its windows, and check its HMAC chain against the journal. The
 * agent faces name three of them as the spec does: `prepare_window`, `complete_window`,
 * `relay_state`.
 */

const { obj, arr } = RESPONSES;

/** Session ids are the relay's (`rs-` and 16 hex digits); anything else is not looked up. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

function sessionArg(value: string | undefined): string {
  if (typeof value !== 'string' || !SESSION_ID.test(value)) {
    throw new CanonryError('INVALID_ARGUMENT', 'a relay session id is rs- and 16 hex digits', {
      field: 'session',
    });
  }
  return value;
}

const LIMIT: QueryDoc = {
  name: 'limit',
  description: 'at most this many (1–100, default 20)',
  schema: { type: 'integer', minimum: 1, maximum: 100 },
};

const SESSION_PARAM = { session: 'relay session id (rs-…)' };
const SESSION_URL = '/v1/projects/:project/relay/sessions/:session';

/** AIR options in a body (CRP-018 §6.1). */
interface AirBody {
  readonly air_mode?: string;
  readonly air_iap_budget?: number;
}

/** A window's AIR options: the body's, then the `CRP-Safety-Policy` header over them. */
function airOptions(body: AirBody, safetyPolicy: string | null) {
  const air = {
    ...(body.air_mode === undefined ? {} : { mode: body.air_mode }),
    ...(body.air_iap_budget === undefined ? {} : { iap_budget: body.air_iap_budget }),
  };
  return { air, safetyPolicy };
}

/** What a write to a session can meet, besides its body. */
const WRITE_ERRORS = ['UNKNOWN_SESSION', 'SESSION_CLOSED', 'FORBIDDEN', 'INVALID_POLICY'] as const;

export const RELAY_OPERATIONS: readonly Operation[] = [
  {
    method: 'POST',
    url: '/v1/projects/:project/relay/sessions',
    operationId: 'startRelaySession',
    summary:
      'Start a relay session: the mode, the objective and what it must get through (sections, sub-tasks, questions); its windows are then prepared and completed one by one',
    tag: 'relay',
    cli: {
      command: 'relay start',
      description: 'start a relay session (--mode, --objective, --remaining "A,B,C")',
    },
    minRole: 'agent',
    body: {
      schema: RELAY_BODIES.start,
      required: true,
      example: {
        mode: 'DOCUMENT',
        objective: 'A design note for the billing service',
        remaining: ['Context', 'Decision', 'Consequences'],
      },
    },
    status: 201,
    response: ref('RelaySessionView'),
    errors: ['INVALID_BODY', 'FORBIDDEN'],
    handler: async ({ runtime, principal, body, safetyPolicy }) =>
      runtime.relay.start(principal, body, { safetyPolicy }),
  },
  {
    method: 'GET',
    url: '/v1/projects/:project/relay/sessions',
    operationId: 'listRelaySessions',
    summary: "The project's relay sessions, newest first, with where each stands",
    tag: 'relay',
    cli: { command: 'relay sessions', description: 'list relay sessions, newest first' },
    minRole: 'viewer',
    query: [LIMIT],
    status: 200,
    response: RESPONSES.list('sessions', 'RelaySessionSummary'),
    errors: ['INVALID_ARGUMENT'],
    handler: async ({ runtime, principal, query }) => {
      const limit = intQuery(query.limit, 'limit', 1, 100, 20);
      const rows = await runtime.relay.reader(principal.project).sessions(limit);
      return {
        sessions: rows.map((r) => ({ session: r.session, status: r.status, windows: r.windows })),
      };
    },
  },
  {
    method: 'GET',
    url: SESSION_URL,
    operationId: 'getRelaySession',
    mcpName: 'relay_state',
    summary: 'A relay session: where it stands, its latest CSO and the goal of its next window',
    tag: 'relay',
    cli: { command: 'relay state <session>', description: 'a relay session and its latest CSO' },
    minRole: 'viewer',
    params: SESSION_PARAM,
    status: 200,
    response: ref('RelaySessionView'),
    errors: ['UNKNOWN_SESSION', 'INVALID_ARGUMENT'],
    handler: async ({ runtime, principal, params }) =>
      runtime.relay.state(principal, sessionArg(params.session)),
  },
  {
    method: 'POST',
    url: `${SESSION_URL}/prepare`,
    operationId: 'prepareRelayWindow',
    mcpName: 'prepare_window',
    summary:
      "What to send the model for the session's next window: a work window or a revision window (§6.2), its goal, the CSO slice it needs and the prompt; writes nothing",
    tag: 'relay',
    cli: {
      command: 'relay prepare <session>',
      description: "the next window's goal, state slice and prompt",
    },
    minRole: 'agent',
    params: SESSION_PARAM,
    body: { schema: RELAY_BODIES.prepare, required: false, example: { max_tokens: 8_000 } },
    status: 200,
    response: ref('RelayPreparedWindow'),
    errors: [...WRITE_ERRORS, 'INVALID_BODY', 'INVALID_ARGUMENT'],
    handler: async ({ runtime, principal, params, body, safetyPolicy }) => {
      const b = (body ?? {}) as { max_tokens?: number } & AirBody;
      return runtime.relay.prepareWindow(principal, sessionArg(params.session), {
        ...(b.max_tokens === undefined ? {} : { maxTokens: b.max_tokens }),
        ...airOptions(b, safetyPolicy),
      });
    },
  },
  {
    method: 'POST',
    url: `${SESSION_URL}/windows`,
    operationId: 'completeRelayWindow',
    mcpName: 'complete_window',
    summary:
      "Complete the session's next window with the model's text and its contribution: merge, verify and repair (§5), invalidate (§3), revise or escalate (§6), seal and commit; the CRP-Relay-* headers say what happened",
    tag: 'relay',
    cli: {
      command: 'relay complete <session>',
      description: 'complete the next window (--output, --contribution JSON or @file)',
    },
    minRole: 'agent',
    params: SESSION_PARAM,
    body: {
      schema: RELAY_BODIES.complete,
      required: true,
      example: {
        output: 'Context: the service has 40,000 daily users and runs in one region.',
        contribution: {
          facts: [{ statement: 'the service has 40,000 daily users', provenance: 'CONVERSATION' }],
          decisions: [
            {
              decision_id: 'd_region',
              choice: 'stay in one region for now',
              rationale: 'the load fits one region',
            },
          ],
          completed: ['Context'],
        },
      },
    },
    status: 200,
    response: ref('RelayCompletedWindow'),
    responseHeaders: {
      documented: RELAY_RESPONSE_HEADERS,
      of: (result) => (result as CompletedWindow).headers,
    },
    errors: [
      ...WRITE_ERRORS,
      'INVALID_BODY',
      'INVALID_ARGUMENT',
      'MODEL_OUTPUT_INVALID',
      'DEPENDENCY_CYCLE',
      'CONFLICT',
      'BATCH_HELD',
    ],
    handler: async ({ runtime, principal, params, body, safetyPolicy }) => {
      const b = body as {
        output: string;
        window_number?: number;
        contribution?: unknown;
        model?: string | null;
        context_packet_hash?: string;
        answers?: string[];
      } & AirBody;
      return runtime.relay.completeWindow(
        principal,
        sessionArg(params.session),
        b.output,
        b.contribution,
        {
          ...(b.window_number === undefined ? {} : { window: b.window_number }),
          model: b.model ?? null,
          ...(b.context_packet_hash === undefined
            ? {}
            : { contextPacketHash: b.context_packet_hash }),
          ...(b.answers === undefined ? {} : { answers: b.answers }),
          ...airOptions(b, safetyPolicy),
        },
      );
    },
  },
  {
    method: 'GET',
    url: `${SESSION_URL}/windows`,
    operationId: 'listRelayWindows',
    summary: "A session's completed windows in order: each CSO, its verification and revisions",
    tag: 'relay',
    cli: { command: 'relay windows <session>', description: "a session's windows (--after N)" },
    minRole: 'viewer',
    params: SESSION_PARAM,
    query: [
      {
        name: 'after',
        description: 'only windows after this number',
        schema: { type: 'integer', minimum: 0 },
      },
      LIMIT,
    ],
    status: 200,
    response: obj({ windows: arr(ref('RelayWindow')) }, ['windows']),
    errors: ['UNKNOWN_SESSION', 'INVALID_ARGUMENT'],
    handler: async ({ runtime, principal, params, query }) => {
      const id = sessionArg(params.session);
      const after = intQuery(query.after, 'after', 0, 1_000_000_000, 0);
      const limit = intQuery(query.limit, 'limit', 1, 100, 20);
      const reader = runtime.relay.reader(principal.project);
      if (!(await reader.session(id)))
        throw new CanonryError('UNKNOWN_SESSION', `no relay session ${id}`);
      return { windows: await reader.windows(id, after, limit) };
    },
  },
  {
    method: 'GET',
    url: `${SESSION_URL}/quality`,
    operationId: 'getRelayQuality',
    summary:
      "A session's quality history, one row per window: preservation and repairs (CRP-030 §5), the DPE's claims, fabrications, distortions, repetition, completeness, grounding and flow, session IQ and the IAP the next window carries (CRP-018)",
    tag: 'relay',
    cli: {
      command: 'relay quality <session>',
      description: "a session's per-window quality and IAPs (--after N)",
    },
    minRole: 'viewer',
    params: SESSION_PARAM,
    query: [
      {
        name: 'after',
        description: 'only windows after this number',
        schema: { type: 'integer', minimum: 0 },
      },
      {
        name: 'limit',
        description: 'at most this many windows (1–500, default 500)',
        schema: { type: 'integer', minimum: 1, maximum: 500 },
      },
    ],
    status: 200,
    response: obj({ session_id: RESPONSES.str(), windows: arr(ref('RelayWindowQuality')) }, [
      'session_id',
      'windows',
    ]),
    errors: ['UNKNOWN_SESSION', 'INVALID_ARGUMENT'],
    handler: async ({ runtime, principal, params, query }) => {
      const id = sessionArg(params.session);
      const after = intQuery(query.after, 'after', 0, 1_000_000_000, 0);
      const limit = intQuery(query.limit, 'limit', 1, 500, 500);
      const reader = runtime.relay.reader(principal.project);
      if (!(await reader.session(id)))
        throw new CanonryError('UNKNOWN_SESSION', `no relay session ${id}`);
      const windows = await reader.windows(id, after, limit);
      return { session_id: id, windows: windows.map(windowQuality) };
    },
  },
  {
    method: 'GET',
    url: `${SESSION_URL}/verify`,
    operationId: 'verifyRelaySession',
    summary:
      "Check a session's HMAC chain and every window's CSO against the journal; names the first window that breaks",
    tag: 'relay',
    cli: { command: 'relay verify <session>', description: "check a session's CSO chain" },
    minRole: 'viewer',
    params: SESSION_PARAM,
    status: 200,
    response: ref('RelayChainReport'),
    errors: ['UNKNOWN_SESSION', 'INVALID_ARGUMENT'],
    handler: async ({ runtime, principal, params }) =>
      runtime.relay.verify(principal, sessionArg(params.session)),
  },
];
