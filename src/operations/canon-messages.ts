import type { CanonryRuntime } from '../app/index.js';
import {
  archiveMessage,
  type IntakeResult,
  intake,
  messageInput,
  type Principal,
  reclassify,
  unclassifiedMessages,
} from '../canon/index.js';
import { CanonryError } from '../core/index.js';
import { messageIdArg, oneOfQuery } from './input.js';
import type { Operation } from './operation.js';
import {
  PAGE_QUERY,
  pageQuery,
  UNCLASSIFIED_LIST_QUERY,
  unclassifiedListQuery,
} from './page-query.js';
import { BODIES, RESPONSES, ref } from './schemas.js';
import { messageView } from './views.js';

const { obj, list, arr, str } = RESPONSES;

/**
 * A client-chosen `message_id` names one archived message. Canon treats a re-sent id as a retry and
 * reports its first intake; a different message (speaker, role or text) under an archived id is a
 * CONFLICT here, so the archive never answers one message with another.
 */
async function refuseReuse(
  runtime: CanonryRuntime,
  principal: Principal,
  body: unknown,
): Promise<void> {
  const checked = messageInput(body, principal);
  if (checked.message_id === null) return;
  // Read across planes on purpose: an id is one per project. Someone else's personal message under
  // it is refused like any other, with nothing of it in the answer.
  const existing = await runtime.canon.reader(principal.project).message(checked.message_id);
  if (
    existing &&
    (existing.actor !== principal.id ||
      existing.role !== checked.role ||
      existing.text !== checked.text ||
      existing.visibility !== checked.visibility)
  ) {
    throw new CanonryError(
      'CONFLICT',
      `message ${checked.message_id} is already archived with other content`,
      { message_id: checked.message_id },
    );
  }
}

/** What to configure when the scripted classifier found something but had no subject to draft it for. */
export const SUBJECT_HINT =
  'nothing proposed: the scripted classifier drafts facts and questions only for a subject of the project; name one with POST /v1/projects/{project}/classifier/subjects (canonry canon subject set <object_id> --title … --type … --keywords …)';

/** An intake answer, with {@link SUBJECT_HINT} when it proposed nothing for want of a subject. */
function answer(result: IntakeResult): IntakeResult & { hint?: string } {
  const c = result.classification;
  const wanting = c.classifier === 'scripted' && c.drafts.length === 0 && c.outcome !== 'no_effect';
  return wanting ? { ...result, hint: SUBJECT_HINT } : result;
}

/** The archive (§4): messages are captured exactly, then classified into proposals. */
export const MESSAGE_OPERATIONS: readonly Operation[] = [
  {
    method: 'POST',
    url: '/v1/projects/:project/messages',
    operationId: 'postMessage',
    summary:
      'Archive a message and run intake: classify it and turn each draft into a gated proposal (classify=false archives only)',
    tag: 'messages',
    cli: {
      command: 'message [text]',
      description: 'archive a message and classify it into proposals',
      flags: { message_id: '--id <message_id>', classify: '--no-classify', text: '--text <text>' },
    },
    minRole: 'agent',
    query: [
      {
        name: 'classify',
        description: 'false: archive only, no classification or proposals',
        schema: { enum: ['true', 'false'], default: 'true' },
      },
    ],
    body: {
      schema: BODIES.message,
      required: true,
      example: { text: 'I would like a red interface for the app.' },
    },
    status: 201,
    response: obj(
      {
        message: ref('ArchivedMessage'),
        classification: ref('Classification'),
        proposals: arr({
          description:
            '{ ok: true, outcome: ProposalOutcome } or { ok: false, object_id, code, message }; a retried message_id reports its first intake',
          type: 'object',
        }),
        hint: str({
          description: 'what to configure when nothing was proposed for want of a subject',
        }),
      },
      ['message'],
    ),
    errors: [
      'INVALID_BODY',
      'AUTHORITY_FROM_PAYLOAD',
      'CLASSIFIER_FAILED',
      'MODEL_UNAVAILABLE',
      'MODEL_BUSY',
      'CONFLICT',
      'INVALID_ARGUMENT',
    ],
    handler: async ({ runtime, principal, project, query, body }) => {
      const classify = oneOfQuery(query.classify, ['true', 'false'] as const, 'classify');
      await refuseReuse(runtime, principal, body);
      if (classify === 'false')
        return { message: await archiveMessage(runtime.canon, principal, body) };
      return answer(
        await intake(runtime.canon, await runtime.classifierFor(project), principal, body),
      );
    },
  },
  {
    method: 'GET',
    url: '/v1/projects/:project/messages',
    operationId: 'listMessages',
    summary:
      "The archive of the project in capture order (or newest first), a page at a time: project messages and the principal's own personal ones",
    tag: 'messages',
    cli: {
      command: 'messages',
      description:
        'the archive, a page at a time: project messages and your own personal ones (--limit, default 100; --after or, with --order newest, --before a seq)',
    },
    minRole: 'viewer',
    query: PAGE_QUERY,
    status: 200,
    response: list('messages', 'ArchivedMessage'),
    errors: ['INVALID_ARGUMENT'],
    handler: async ({ runtime, principal, query }) => ({
      messages: await runtime.canon.readerFor(principal).messagePage(pageQuery(query)),
    }),
  },
  {
    method: 'GET',
    url: '/v1/projects/:project/unclassified',
    operationId: 'listUnclassified',
    summary:
      'Archived messages never classified (model down, output refused, classify=false), in capture order a page at a time, each with its last journaled failure; personal ones only to their speaker',
    tag: 'messages',
    cli: {
      command: 'unclassified',
      description:
        'archived messages never classified (model down, output refused), with why, a page at a time (--limit, default 100; --after a seq)',
    },
    minRole: 'viewer',
    query: UNCLASSIFIED_LIST_QUERY,
    status: 200,
    response: list('messages', 'UnclassifiedMessage'),
    errors: ['INVALID_ARGUMENT'],
    handler: async ({ runtime, principal, query }) => ({
      messages: await unclassifiedMessages(runtime.canon, principal, unclassifiedListQuery(query)),
    }),
  },
  {
    method: 'POST',
    url: '/v1/projects/:project/messages/:id/classify',
    operationId: 'classifyMessage',
    summary:
      'Classify an archived message again (its speaker only): the intake a re-send runs; a message already classified reports its first intake and writes nothing',
    tag: 'messages',
    cli: {
      command: 'classify <message_id>',
      description: 'classify an archived message again (its speaker only)',
    },
    minRole: 'agent',
    params: { id: 'message id (percent-encoded)' },
    status: 200,
    response: obj(
      {
        message: ref('ArchivedMessage'),
        classification: ref('Classification'),
        proposals: arr({ type: 'object' }),
        hint: str(),
      },
      ['message', 'classification', 'proposals'],
    ),
    errors: [
      'UNKNOWN_MESSAGE',
      'INVALID_ARGUMENT',
      'FORBIDDEN',
      'CLASSIFIER_FAILED',
      'MODEL_UNAVAILABLE',
      'MODEL_BUSY',
    ],
    handler: async ({ runtime, principal, project, params }) =>
      answer(
        await reclassify(
          runtime.canon,
          await runtime.classifierFor(project),
          principal,
          messageIdArg(params.id),
        ),
      ),
  },
  {
    method: 'GET',
    url: '/v1/projects/:project/messages/:id',
    operationId: 'getMessage',
    summary: 'One archived message, exactly as captured',
    tag: 'messages',
    cli: {
      command: 'show-message <message_id>',
      description: 'one archived message, exactly as captured',
    },
    minRole: 'viewer',
    params: { id: 'message id' },
    status: 200,
    response: ref('ArchivedMessage'),
    errors: ['UNKNOWN_MESSAGE', 'INVALID_ARGUMENT'],
    handler: async ({ runtime, principal, params }) =>
      messageView(runtime, principal, messageIdArg(params.id)),
  },
];
