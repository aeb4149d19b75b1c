import { randomUUID } from 'node:crypto';
import { type CanonryRuntime, eventVerifierOf } from '../app/index.js';
import { CanonryError, type JsonObject } from '../core/index.js';
import {
  EVENT_TYPES,
  EVOLUTION_FEEDBACK,
  EVOLUTION_SYSTEM_PROJECT,
  EventStore,
  type EvolutionCoordinator,
  MAX_VERIFY_PAGE,
} from '../evolution/index.js';
import { instantInput, intQuery } from './input.js';
import type { Operation, QueryDoc } from './operation.js';

/**
 * Evolution (GCS, issue 17): the project's qualified cognitive events — listed with filters, one
 * with its deliveries, all verified (signature from the pinned root, governance against their
 * sources) — dead-lettered deliveries listed and retried, and feedback given on the project's work.
 */

const URL_BASE = '/v1/projects/:project/evolution';
const ID = /^[\x21-\x7e]{1,256}$/;

const str = { type: 'string' };
const int = { type: 'integer' };
const obj = (properties: Record<string, JsonObject>, required: readonly string[]): JsonObject => ({
  type: 'object',
  properties,
  required: [...required],
});

const EVENT_ROW = obj(
  {
    event_id: str,
    seq: int,
    event_type: str,
    class: str,
    schema_version: str,
    created_at: int,
    pending: int,
  },
  ['event_id', 'seq', 'event_type', 'class', 'schema_version', 'created_at', 'pending'],
);
const DELIVERY = obj(
  {
    event_id: str,
    target: str,
    outcome: { enum: ['delivered', 'refused', 'dead_letter'] },
    attempts: int,
    code: { type: ['string', 'null'] },
    reason: { type: ['string', 'null'] },
    record: { type: ['object', 'null'] },
    seq: int,
  },
  ['event_id', 'target', 'outcome', 'attempts', 'code', 'reason', 'record'],
);

function arg(value: string | undefined, field: string): string {
  if (typeof value !== 'string' || !ID.test(value)) {
    throw new CanonryError('INVALID_ARGUMENT', `${field} must be 1–256 visible ASCII characters`, {
      field,
    });
  }
  return value;
}

const AFTER: QueryDoc = {
  name: 'after',
  description: 'only those after this journal seq',
  schema: { type: 'integer', minimum: 0 },
};
const LIMIT: QueryDoc = {
  name: 'limit',
  description: 'at most this many (1–1000, default 100)',
  schema: { type: 'integer', minimum: 1, maximum: 1000 },
};

const store = (runtime: CanonryRuntime) =>
  runtime.evolution?.events ?? new EventStore(runtime.store);

function coordinator(runtime: CanonryRuntime): EvolutionCoordinator {
  if (!runtime.evolution) {
    throw new CanonryError(
      'EVOLUTION_OFF',
      'this runtime does not run the evolution coordinator (CANONRY_EVOLUTION=on)',
    );
  }
  return runtime.evolution;
}

export const EVOLUTION_OPERATIONS: readonly Operation[] = [
  {
    method: 'GET',
    url: `${URL_BASE}/events`,
    operationId: 'listEvents',
    summary:
      "The project's qualified cognitive events in journal order (or newest first), by type or class",
    tag: 'evolution',
    cli: { command: 'events list', description: "the project's qualified cognitive events" },
    minRole: 'viewer',
    query: [
      {
        name: 'event_type',
        description: 'only events of this type',
        schema: { enum: [...EVENT_TYPES] },
      },
      {
        name: 'class',
        description:
          'only events from this kind of entry, any version of it (canon.commit, relay.window, …)',
        schema: { type: 'string' },
      },
      AFTER,
      {
        name: 'before',
        description: 'only those before this journal seq',
        schema: { type: 'integer', minimum: 1 },
      },
      {
        name: 'order',
        description: 'oldest first (journal order, the default) or newest first',
        schema: { enum: ['oldest', 'newest'] },
      },
      LIMIT,
    ],
    status: 200,
    response: obj({ events: { type: 'array', items: EVENT_ROW } }, ['events']),
    errors: ['INVALID_ARGUMENT'],
    handler: async ({ runtime, project, query }) => {
      const type = query.event_type;
      if (type !== undefined && !(EVENT_TYPES as readonly string[]).includes(type)) {
        throw new CanonryError(
          'INVALID_ARGUMENT',
          `event_type is one of ${EVENT_TYPES.join(', ')}`,
          {
            field: 'event_type',
          },
        );
      }
      const order = query.order;
      if (order !== undefined && order !== 'oldest' && order !== 'newest') {
        throw new CanonryError('INVALID_ARGUMENT', 'order is oldest or newest', { field: 'order' });
      }
      return {
        events: await store(runtime).list(project, {
          ...(type === undefined ? {} : { event_type: type }),
          ...(query.before === undefined
            ? {}
            : { before: intQuery(query.before, 'before', 1, Number.MAX_SAFE_INTEGER, 0) }),
          ...(order === undefined ? {} : { order }),
          ...(query.class === undefined ? {} : { class: arg(query.class, 'class') }),
          after: intQuery(query.after, 'after', 0, Number.MAX_SAFE_INTEGER, 0),
          limit: intQuery(query.limit, 'limit', 1, 1000, 100),
        }),
      };
    },
  },
  {
    method: 'GET',
    url: `${URL_BASE}/events/:event`,
    operationId: 'getEvent',
    summary: 'One stored event: the signed event, its origin, its sources and its deliveries',
    tag: 'evolution',
    cli: { command: 'events show <event>', description: 'one event and its deliveries' },
    minRole: 'viewer',
    params: { event: 'the event id (a UUID)' },
    status: 200,
    response: obj(
      {
        event: { type: 'object' },
        origin: { type: 'object' },
        targets: { type: 'array', items: str },
        sources: { type: 'array', items: { type: 'object' } },
        seq: int,
        deliveries: { type: 'array', items: DELIVERY },
      },
      ['event', 'origin', 'targets', 'sources', 'seq', 'deliveries'],
    ),
    errors: ['UNKNOWN_EVENT', 'INVALID_ARGUMENT'],
    handler: async ({ runtime, project, params }) =>
      store(runtime).get(project, arg(params.event, 'event')),
  },
  {
    method: 'GET',
    url: `${URL_BASE}/verify`,
    operationId: 'verifyEvents',
    summary:
      "Verify the project's stored events, a page at a time in journal order: schema, policy hash, signature from the server's root (its issuer valid now or at `at`), governance against its sources",
    tag: 'evolution',
    cli: {
      command: 'events verify',
      description: "verify every stored event's signature and governance",
    },
    minRole: 'viewer',
    query: [
      AFTER,
      {
        name: 'limit',
        description: `at most this many events checked (1–${MAX_VERIFY_PAGE}, default ${MAX_VERIFY_PAGE}); next says where the following page starts`,
        schema: { type: 'integer', minimum: 1, maximum: MAX_VERIFY_PAGE },
      },
      {
        name: 'at',
        description:
          'judge each signing certificate and the root at this instant (RFC 3339 with an offset) instead of now',
        schema: { type: 'string' },
      },
    ],
    status: 200,
    response: obj(
      {
        ok: { type: 'boolean' },
        project: str,
        checked: int,
        verified: int,
        failed: { type: 'array', items: { type: 'object' } },
        next: { type: ['integer', 'null'] },
      },
      ['ok', 'project', 'checked', 'verified', 'failed', 'next'],
    ),
    errors: ['INVALID_ARGUMENT'],
    handler: async ({ runtime, project, query }) => {
      const at = instantInput(query.at, 'at', 'INVALID_ARGUMENT');
      const report = await store(runtime).verify(project, eventVerifierOf(runtime, at), {
        after: intQuery(query.after, 'after', 0, Number.MAX_SAFE_INTEGER, 0),
        limit: intQuery(query.limit, 'limit', 1, MAX_VERIFY_PAGE, MAX_VERIFY_PAGE),
      });
      return { ok: report.failed.length === 0, ...report };
    },
  },
  {
    method: 'GET',
    url: `${URL_BASE}/dead-letters`,
    operationId: 'listDeadLetters',
    summary: 'Deliveries whose attempts ran out, oldest first',
    tag: 'evolution',
    cli: { command: 'events dead-letters', description: 'deliveries whose attempts ran out' },
    minRole: 'viewer',
    query: [AFTER, LIMIT],
    status: 200,
    response: obj({ dead_letters: { type: 'array', items: DELIVERY } }, ['dead_letters']),
    errors: ['INVALID_ARGUMENT'],
    handler: async ({ runtime, project, query }) => ({
      dead_letters: await store(runtime).deadLetters(
        project,
        intQuery(query.after, 'after', 0, Number.MAX_SAFE_INTEGER, 0),
        intQuery(query.limit, 'limit', 1, 1000, 100),
      ),
    }),
  },
  {
    method: 'POST',
    url: `${URL_BASE}/dead-letters/:event/:target/retry`,
    operationId: 'retryDeadLetter',
    summary: 'Dispatch a dead-lettered event to its target again; answers the new delivery',
    tag: 'evolution',
    cli: {
      command: 'events retry <event> <target>',
      description: 'retry a dead-lettered delivery',
    },
    minRole: 'editor',
    mcp: { minRole: 'editor' },
    params: { event: 'the event id', target: 'the target name' },
    status: 200,
    response: DELIVERY,
    errors: [
      'UNKNOWN_EVENT',
      'UNKNOWN_DEAD_LETTER',
      'UNKNOWN_TARGET',
      // Another process (another `canonry serve` on the database) is retrying it now.
      'CONFLICT',
      'EVOLUTION_OFF',
      'INVALID_ARGUMENT',
      'SHUTTING_DOWN',
    ],
    handler: async ({ runtime, project, params }) =>
      coordinator(runtime).retryDeadLetter(
        project,
        arg(params.event, 'event'),
        arg(params.target, 'target'),
      ),
  },
  {
    method: 'POST',
    url: `${URL_BASE}/feedback`,
    operationId: 'giveFeedback',
    summary:
      "Feedback on the project's work (a score in [0, 1]; with remember, what canon should hold — proposed, never committed directly)",
    tag: 'evolution',
    cli: { command: 'events feedback', description: 'give feedback on a piece of work' },
    minRole: 'agent',
    body: {
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['subject', 'score'],
        properties: {
          subject: { type: 'string', minLength: 1, maxLength: 256, pattern: '^[\\x21-\\x7e]+$' },
          score: { type: 'number', minimum: 0, maximum: 1 },
          remember: {
            type: 'object',
            additionalProperties: false,
            required: ['title', 'text'],
            properties: {
              title: { type: 'string', minLength: 1, maxLength: 200 },
              text: { type: 'string', minLength: 1, maxLength: 4000 },
            },
          },
        },
      },
      required: true,
      example: { subject: 'canon.commit:demo:12', score: 0.9 },
    },
    status: 201,
    response: obj({ feedback_id: str, seq: int }, ['feedback_id', 'seq']),
    errors: ['INVALID_BODY', 'FORBIDDEN'],
    handler: async ({ runtime, principal, body }) => {
      const b = body as {
        subject: string;
        score: number;
        remember?: { title: string; text: string };
      };
      if (principal.project === EVOLUTION_SYSTEM_PROJECT && b.remember !== undefined) {
        // What is remembered becomes a canon proposal, and canon does not run here.
        throw new CanonryError(
          'FORBIDDEN',
          `${EVOLUTION_SYSTEM_PROJECT} holds the evolution events of the kernel's verdicts; canon does not run there, so feedback there remembers nothing (leave remember out)`,
          { field: 'remember' },
        );
      }
      const feedback_id = `fb-${randomUUID()}`;
      const { entry } = await runtime.journal.append(
        principal.project,
        EVOLUTION_FEEDBACK.input(
          {
            feedback_id,
            subject: b.subject,
            score: b.score,
            principal: principal.id,
            remember: b.remember ? { title: b.remember.title, text: b.remember.text } : null,
          },
          { actor: principal.id, authority: { role: principal.role } },
        ),
      );
      return { feedback_id, seq: entry.seq };
    },
  },
];
