import { CanonryError, isCanonryError } from '../core/index.js';
import { isStoreOutage } from '../store/index.js';
import type { Canon } from './canon.js';
import type {
  ArchivedMessage,
  CanonLookup,
  Classification,
  Classifier,
  ClassifierInput,
  MessageRole,
} from './classification.js';
import { isMachineAuthor } from './classify/index.js';
import { newId } from './commit.js';
import type { ProposalOutcome } from './committing.js';
import { CURRENT_STATUSES } from './current-index.js';
import { INTAKE_DONE, type IntakeDoneBody, MESSAGE } from './entry-kinds.js';
import {
  classifyMessage,
  recordClassification,
  recordedClassification,
} from './intake-classification.js';
import { type ClassificationFailure, failureOf, recordFailure } from './intake-failure.js';
import type { UnclassifiedPageQuery } from './page.js';
import {
  type CanonObject,
  MACHINE_ROLES,
  MESSAGE_ID,
  MESSAGE_ID_RULE,
  MESSAGE_VISIBILITIES,
  type MessageVisibility,
  type Principal,
} from './types.js';
import { proposalInput, refuseAuthorityClaims } from './validate.js';

/** A message as submitted for the archive. */
export interface MessageInput {
  readonly text: string;
  /** Who spoke; defaults from the principal's role (owner/editor → user, agent → agent). */
  readonly role?: MessageRole;
  /** A client-chosen id; re-sending the same id returns the archived message instead of a copy. */
  readonly message_id?: string;
  /** `project` (the default) or `personal`: only its speaker may then read it, or cite it (§14). */
  readonly visibility?: MessageVisibility;
}

/** What intake did with one message. */
export interface IntakeResult {
  readonly message: ArchivedMessage;
  readonly classification: Classification;
  /** One per draft: the outcome, or the typed error that stopped it. */
  readonly proposals: readonly (
    | { readonly ok: true; readonly outcome: ProposalOutcome }
    | {
        readonly ok: false;
        readonly object_id: string;
        readonly code: string;
        readonly message: string;
      }
  )[];
}

const ROLES: readonly MessageRole[] = ['user', 'assistant', 'agent', 'tool', 'system'];

/** Checks a message from outside; an agent may not speak as the user. */
export function messageInput(
  value: unknown,
  principal: Principal,
): Required<Pick<MessageInput, 'text' | 'role' | 'visibility'>> & { message_id: string | null } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CanonryError('INVALID_BODY', 'the message must be an object');
  }
  const m = value as Record<string, unknown>;
  refuseAuthorityClaims(m, ['role']);
  const unknown = Object.keys(m).find(
    (k) => !['text', 'role', 'message_id', 'visibility'].includes(k),
  );
  if (unknown !== undefined)
    throw new CanonryError('INVALID_BODY', `unknown field ${JSON.stringify(unknown.slice(0, 64))}`);
  if (
    typeof m.text !== 'string' ||
    m.text.length === 0 ||
    m.text.length > 20_000 ||
    !m.text.isWellFormed()
  ) {
    throw new CanonryError('INVALID_BODY', 'text must be a string of 1–20,000 characters');
  }
  const machine = MACHINE_ROLES.includes(principal.role);
  const role = (m.role ?? (machine ? principal.role : 'user')) as MessageRole;
  if (!ROLES.includes(role))
    throw new CanonryError('INVALID_BODY', `role must be one of ${ROLES.join(', ')}`);
  if (machine && (role === 'user' || role === 'system')) {
    throw new CanonryError(
      'AUTHORITY_FROM_PAYLOAD',
      `${principal.role === 'tool' ? 'a tool' : 'an agent'} cannot submit messages as the user or the system`,
    );
  }
  if (
    m.message_id !== undefined &&
    (typeof m.message_id !== 'string' || !MESSAGE_ID.test(m.message_id))
  ) {
    throw new CanonryError('INVALID_BODY', `message_id is ${MESSAGE_ID_RULE}`);
  }
  const visibility = (m.visibility === undefined ? 'project' : m.visibility) as MessageVisibility;
  if (!MESSAGE_VISIBILITIES.includes(visibility)) {
    throw new CanonryError(
      'INVALID_BODY',
      `visibility must be one of ${MESSAGE_VISIBILITIES.join(', ')}`,
    );
  }
  return {
    text: m.text,
    role,
    message_id: (m.message_id as string | undefined) ?? null,
    visibility,
  };
}

/** Archives a message exactly as captured (§4). Idempotent on `message_id`. */
export async function archiveMessage(
  canon: Canon,
  principal: Principal,
  input: unknown,
): Promise<ArchivedMessage> {
  return (await archive(canon, principal, input)).message;
}

async function archive(
  canon: Canon,
  principal: Principal,
  input: unknown,
): Promise<{ message: ArchivedMessage; duplicate: boolean }> {
  const checked = messageInput(input, principal);
  const messageId = checked.message_id ?? newId('msg');
  const message: Omit<ArchivedMessage, 'seq'> = {
    message_id: messageId,
    project: principal.project,
    text: checked.text,
    role: checked.role,
    actor: principal.id,
    actor_role: principal.role,
    captured_at: canon.now().toISOString(),
    visibility: checked.visibility,
  };
  const { entry, duplicate } = await canon.journal.append(
    principal.project,
    MESSAGE.input(
      { message },
      {
        actor: principal.id,
        authority: { principal: principal.id, role: principal.role, project: principal.project },
        idempotency_key: `message:${messageId}`,
      },
    ),
  );
  const archived = MESSAGE.body(entry).message;
  if (
    duplicate &&
    (archived.text !== message.text ||
      archived.role !== message.role ||
      archived.actor !== message.actor ||
      (archived.visibility ?? 'project') !== message.visibility)
  ) {
    throw new CanonryError('CONFLICT', `message ${messageId} was archived with other content`, {
      message_id: messageId,
    });
  }
  return { message: { ...archived, seq: entry.seq }, duplicate };
}

/** Which message an intake in this process is of. */
const flightKey = (message: ArchivedMessage) => `${message.project}\u0000${message.message_id}`;

/** Intakes in flight in this process, by canon and message: a concurrent retry joins the first. */
const IN_FLIGHT = new WeakMap<Canon, Map<string, Promise<IntakeResult>>>();

function once(
  canon: Canon,
  message: ArchivedMessage,
  run: () => Promise<IntakeResult>,
): Promise<IntakeResult> {
  const flights = IN_FLIGHT.get(canon) ?? new Map<string, Promise<IntakeResult>>();
  IN_FLIGHT.set(canon, flights);
  const key = flightKey(message);
  const running = flights.get(key);
  if (running) return running;
  const started = run().finally(() => flights.delete(key));
  flights.set(key, started);
  return started;
}

/**
 * The intake loop of §4: archive the message, classify it (the classifier never mutates canon),
 * journal the classification, and turn each draft into a proposal that goes through comparison and
 * the gate. Invalid classifier output (a model is untrusted), or output beyond the author's role, is
 * CLASSIFIER_FAILED; a model that could not be asked is MODEL_UNAVAILABLE or MODEL_BUSY. Either way
 * the message stays archived, nothing else is written, and sending it again (same `message_id`)
 * classifies it. A message classified once is never classified again: a retry reports the journaled
 * classification and the proposals made from it.
 */
export async function intake(
  canon: Canon,
  classifier: Classifier,
  principal: Principal,
  input: unknown,
): Promise<IntakeResult> {
  const { message, duplicate } = await archive(canon, principal, input);
  return once(canon, message, () => takeIn(canon, classifier, principal, message, duplicate));
}

async function takeIn(
  canon: Canon,
  classifier: Classifier,
  principal: Principal,
  message: ArchivedMessage,
  duplicate: boolean,
): Promise<IntakeResult> {
  // The classifier, and the drafts, see only the canon the speaker may read (§14).
  const reader = canon.readerFor(principal);
  if (duplicate) {
    const recorded = await recordedClassification(canon, message);
    if (recorded) return repeated(canon, principal, message, recorded);
    // Taken in before classifications were journaled: its proposals say it was classified. One
    // still marked unclassified has none (no proposal cites it), so the proposals are not read.
    if (
      !(await reader.messageUnclassified(message.message_id)) &&
      (await proposalsOf(canon, principal, message)).length > 0
    )
      return legacyRepeated(canon, classifier, principal, message);
  }
  const lookup = await canon.currentFor(principal);
  let classified: Classification;
  try {
    classified = await classifyMessage(classifier, classifierInput(message, lookup));
  } catch (error) {
    const failure = failureOf(error, message, classifier);
    if (failure) {
      // Another intake of this message (another process) may have classified it meanwhile, and
      // its proposals changed the canon this classifier was shown (a draft creating what they
      // created is refused): the message is classified, by that intake, and this is no failure.
      const recorded = await recordedClassification(canon, message);
      if (recorded) return repeated(canon, principal, message, recorded);
      // Journaled, so the message is listed as unclassified with its reason and can be tried again.
      await recordFailure(canon, principal, failure);
    }
    throw error;
  }
  const claim = await recordClassification(canon, principal, message, classified);
  // Another intake of this message (another process) classified it first: report, do not propose.
  if (!claim.first) return repeated(canon, principal, message, claim.classification);
  const classification = claim.classification;
  const proposals = await proposing(canon, message, async () => {
    const made = await proposeDrafts(
      canon,
      principal,
      message,
      classification,
      classification.drafts,
    );
    await recordIntake(canon, principal, message, made);
    return made;
  });
  return { message, classification, proposals };
}

/**
 * What a classifier is given: the message and the current canon as a lookup, and as the list of
 * every current object, made from the lookup on first use (a classifier that works from the lookup
 * never pays for it) and kept, so a classifier that awaits between two reads sees one canon.
 */
function classifierInput(message: ArchivedMessage, lookup: CanonLookup): ClassifierInput {
  let canon: CanonObject[] | undefined;
  return {
    message,
    lookup,
    get canon() {
      canon ??= lookup.all();
      return canon;
    },
  };
}

type DraftResult = IntakeResult['proposals'][number];
type Draft = Classification['drafts'][number];

/**
 * Proposes each draft as the message's speaker, in order, each outcome or typed refusal kept. The
 * store failing, or waiting out a bound, is no draft's refusal: it stops the intake there (the
 * drafts after it would each wait out the same outage), and a retry resumes it.
 */
async function proposeDrafts(
  canon: Canon,
  principal: Principal,
  message: ArchivedMessage,
  classification: Classification,
  drafts: readonly Draft[],
): Promise<DraftResult[]> {
  const reader = canon.readerFor(principal);
  const proposals: DraftResult[] = [];
  for (const draft of drafts) {
    const object = await reader.object(draft.object_id);
    const previous =
      draft.intent === 'restore' && object
        ? (await reader.version(object.current_version_ref))?.parent_version_hash
        : undefined;
    const raw = {
      object_id: draft.object_id,
      intent: draft.intent,
      base_version: object?.current_version_ref ?? null,
      candidate: {
        ...draft.candidate,
        // What comes of a personal message stays personal: no automatic promotion of private chat.
        ...(message.visibility === 'personal' ? { visibility: 'personal' as const } : {}),
        sources: draft.candidate.sources.map((s) => ({
          message_id: message.message_id,
          span: [s.span[0], s.span[1]] as const,
          quote: message.text.slice(s.span[0], s.span[1]),
        })),
      },
      ...(draft.supersedes ? { supersedes: draft.supersedes } : {}),
      // "Restore", said in conversation, means the version before the current one.
      ...(previous ? { restore_version: previous } : {}),
      message_id: message.message_id,
      rationale: draft.rationale,
    };
    try {
      // Drafts are untrusted (a model may have written them): they pass the same checks as any proposal.
      const input = proposalInput(raw);
      const outcome = await canon.propose(principal, input, {
        classifier: classification.classifier,
        // Assistant, agent and tool messages (and anything an agent sent) are suggestions (§6).
        fromSuggestion: isMachineAuthor(message),
        draft: true,
      });
      proposals.push({ ok: true, outcome });
    } catch (err) {
      if (!isCanonryError(err) || isStoreOutage(err)) throw err;
      proposals.push({
        ok: false,
        object_id: draft.object_id,
        code: err.code,
        message: err.message,
      });
    }
  }
  return proposals;
}

/** Intakes that stopped part way in this process, by canon: a retry resumes them without waiting. */
const STOPPED = new WeakMap<Canon, Set<string>>();
/** How many stopped intakes a process remembers (the oldest forgotten first: a retry then waits). */
const STOPPED_KEPT = 1_000;

/**
 * The store failure that stopped an intake, as an answer about its message: same code and details,
 * plus the message id, since the message is archived and classified and a re-send with that id (or
 * a classify call) finishes it — a client that let the server choose the id learns it here.
 */
function stoppedFor(err: CanonryError, message: ArchivedMessage): CanonryError {
  return new CanonryError(
    err.code,
    `message ${message.message_id} is archived and classified, but its intake did not finish (send it again with the same message_id, or POST …/messages/{id}/classify, to finish it): ${err.message}`,
    { ...err.details, message_id: message.message_id },
    { cause: err },
  );
}

/**
 * Runs an intake's proposing and its record, remembering when it stopped part way; a store failure
 * is answered as {@link stoppedFor}.
 */
async function proposing<T>(
  canon: Canon,
  message: ArchivedMessage,
  run: () => Promise<T>,
): Promise<T> {
  const stopped = STOPPED.get(canon) ?? new Set<string>();
  STOPPED.set(canon, stopped);
  const key = flightKey(message);
  try {
    const result = await run();
    stopped.delete(key);
    return result;
  } catch (err) {
    stopped.delete(key);
    stopped.add(key);
    if (stopped.size > STOPPED_KEPT) stopped.delete(stopped.values().next().value!);
    throw isCanonryError(err) && isStoreOutage(err) ? stoppedFor(err, message) : err;
  }
}

/** How long a retry waits for the intake that classified its message to finish proposing. */
const INTAKE_WAIT_MS = 5_000;

const intakeKey = (messageId: string) => `intake:${messageId}`;

/**
 * Journals what an intake made of its drafts, once per message (`canon.intake`): null, or the record
 * another intake of the message journaled first.
 */
async function recordIntake(
  canon: Canon,
  principal: Principal,
  message: ArchivedMessage,
  proposals: IntakeResult['proposals'],
): Promise<IntakeDoneBody | null> {
  const { entry, duplicate } = await canon.journal.append(
    message.project,
    INTAKE_DONE.input(
      {
        message_id: message.message_id,
        proposals: proposals.map((p) =>
          p.ok
            ? { ok: true, proposal_id: p.outcome.proposal.proposal_id }
            : { ok: false, object_id: p.object_id, code: p.code, message: p.message },
        ),
      },
      {
        actor: principal.id,
        authority: { principal: principal.id, role: principal.role, project: principal.project },
        idempotency_key: intakeKey(message.message_id),
      },
    ),
  );
  return duplicate && INTAKE_DONE.is(entry) ? entry.body : null;
}

/** What the intake of a message made of its drafts, once journaled. */
async function intakeDone(canon: Canon, message: ArchivedMessage): Promise<IntakeDoneBody | null> {
  const entry = await canon.journal.entryByKey(message.project, intakeKey(message.message_id));
  return entry !== null && INTAKE_DONE.is(entry) ? entry.body : null;
}

/**
 * Waits (at most {@link INTAKE_WAIT_MS}) for the record of the intake that classified `message`,
 * while that intake — in another process — is still proposing. Null when it did not come in time
 * (that intake stopped part way).
 */
async function waitForIntake(
  canon: Canon,
  message: ArchivedMessage,
): Promise<IntakeDoneBody | null> {
  const deadline = performance.now() + INTAKE_WAIT_MS;
  for (let pause = 20; performance.now() < deadline; pause = Math.min(pause * 2, 250)) {
    await new Promise((resolve) => setTimeout(resolve, pause));
    const done = await intakeDone(canon, message);
    if (done !== null) return done;
  }
  return null;
}

/** A message no classification was journaled for, and why (its last journaled failure). */
export interface UnclassifiedMessage {
  readonly message: ArchivedMessage;
  readonly failure: ClassificationFailure | null;
}

/**
 * One page ({@link UnclassifiedPageQuery}) of the archived messages `principal` may read that were
 * never classified (an outage, a refused answer, `classify=false`), oldest first: personal ones
 * only to their speaker (§14). A message taken in before classifications were journaled counts as
 * classified when it has proposals (the projection marks it so).
 */
export function unclassifiedMessages(
  canon: Canon,
  principal: Principal,
  q: UnclassifiedPageQuery,
): Promise<UnclassifiedMessage[]> {
  return canon.readerFor(principal).unclassifiedPage(q);
}

/**
 * Classifies an archived message again (§4 recovery): the intake a re-send with the same
 * `message_id` would run, without the text. Only its speaker may (the proposals are made as the
 * principal asking, and must be the speaker's, as on the first try): anyone else is FORBIDDEN, and a
 * message the principal may not read is UNKNOWN_MESSAGE. Already classified → its journaled
 * classification and proposals, nothing written; concurrent calls share one intake in a process and
 * the claim `classification:<message_id>` decides across processes.
 */
export async function reclassify(
  canon: Canon,
  classifier: Classifier,
  principal: Principal,
  messageId: string,
): Promise<IntakeResult> {
  const message = await canon.readerFor(principal).message(messageId);
  if (!message) throw new CanonryError('UNKNOWN_MESSAGE', `no message ${messageId}`);
  if (message.actor !== principal.id) {
    throw new CanonryError(
      'FORBIDDEN',
      `only ${message.actor}, who sent message ${messageId}, may classify it again`,
      { message_id: messageId },
    );
  }
  return once(canon, message, () => takeIn(canon, classifier, principal, message, true));
}

/**
 * The proposals made from a message, each with its receipt (and committed version). With its
 * classification, only the proposals on the objects its drafts name are read (each proposal an
 * intake makes is on its draft's object); without one (a message taken in before classifications
 * were journaled), the project's.
 */
async function proposalsOf(
  canon: Canon,
  principal: Principal,
  message: ArchivedMessage,
  classification?: Classification,
): Promise<IntakeResult['proposals'][number][]> {
  const reader = canon.readerFor(principal);
  const proposals: IntakeResult['proposals'][number][] = [];
  const candidates = classification
    ? await reader.proposalsOn([...new Set(classification.drafts.map((d) => d.object_id))])
    : await reader.proposals();
  for (const proposal of candidates.filter((p) => p.message_id === message.message_id)) {
    const receipt = await canon.journal.receipt(message.project, proposal.seq);
    const committed =
      proposal.status === 'committed' ? await reader.current(proposal.object_id) : null;
    if (receipt) proposals.push({ ok: true, outcome: { proposal, committed, receipt } });
  }
  return proposals;
}

/**
 * A message already classified: its journaled classification and what its intake made of the
 * drafts, as that intake reported it (failures included) once it has finished — waited for while
 * another process may still be proposing. An intake that stopped part way (the store failed under
 * it) is resumed: the drafts without a proposal are proposed now, as its speaker, and the intake
 * recorded.
 */
async function repeated(
  canon: Canon,
  principal: Principal,
  message: ArchivedMessage,
  classification: Classification,
): Promise<IntakeResult> {
  let done = await intakeDone(canon, message);
  let made = await proposalsOf(canon, principal, message, classification);
  // No record, and drafts not proposed yet: the intake that classified it may still be proposing.
  // (Every draft a proposal and no record: a message taken in before intakes were journaled.)
  if (done === null && made.length < classification.drafts.length) {
    if (!STOPPED.get(canon)?.has(flightKey(message))) done = await waitForIntake(canon, message);
    if (done === null) return resume(canon, principal, message, classification, made);
    made = await proposalsOf(canon, principal, message, classification);
  }
  return done === null
    ? { message, classification, proposals: made }
    : { message, classification, proposals: asRecorded(done, made) };
}

/** An intake's record, each proposal it names read back from `made`. */
function asRecorded(done: IntakeDoneBody, made: readonly DraftResult[]): DraftResult[] {
  const byId = new Map(
    made.flatMap((p) => (p.ok ? [[p.outcome.proposal.proposal_id, p] as const] : [])),
  );
  return done.proposals.flatMap<DraftResult>((item) => {
    if (!item.ok) return [item];
    const proposal = byId.get(item.proposal_id);
    return proposal ? [proposal] : [];
  });
}

/**
 * Finishes an intake that stopped part way: proposes the drafts that have no proposal from the
 * message (a draft another resume proposed meanwhile is refused in the proposal's transaction, and
 * read back), then records the intake — or reads the record another resume wrote first.
 */
async function resume(
  canon: Canon,
  principal: Principal,
  message: ArchivedMessage,
  classification: Classification,
  made: readonly DraftResult[],
): Promise<IntakeResult> {
  const proposed = new Set(made.flatMap((p) => (p.ok ? [p.outcome.proposal.object_id] : [])));
  const missing = classification.drafts.filter((d) => !proposed.has(d.object_id));
  return proposing(canon, message, async () => {
    const tried = await proposeDrafts(canon, principal, message, classification, missing);
    const now = await proposalsOf(canon, principal, message, classification);
    const byObject = new Map(
      now.flatMap((p) => (p.ok ? [[p.outcome.proposal.object_id, p] as const] : [])),
    );
    const triedByObject = new Map(tried.map((p, i) => [missing[i]!.object_id, p] as const));
    const proposals = classification.drafts.flatMap((d) => {
      const p = byObject.get(d.object_id) ?? triedByObject.get(d.object_id);
      return p ? [p] : [];
    });
    const recorded = await recordIntake(canon, principal, message, proposals);
    return {
      message,
      classification,
      proposals: recorded === null ? proposals : asRecorded(recorded, now),
    };
  });
}

/**
 * A message taken in before classifications were journaled: its proposals, and its classification
 * computed again for the report (never proposed from).
 */
async function legacyRepeated(
  canon: Canon,
  classifier: Classifier,
  principal: Principal,
  message: ArchivedMessage,
): Promise<IntakeResult> {
  const reader = canon.readerFor(principal);
  const classified = await classifier
    .classify({ message, canon: await reader.objects(CURRENT_STATUSES) })
    .catch(() => null);
  const classification = classified?.ok
    ? classified.value
    : {
        outcome: 'no_effect' as const,
        touched: [],
        drafts: [],
        rationale: 'already taken in',
        classifier: classifier.name,
      };
  return { message, classification, proposals: await proposalsOf(canon, principal, message) };
}
