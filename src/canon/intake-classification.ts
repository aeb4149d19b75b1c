import { CanonryError } from '../core/index.js';
import { isModelOutage } from '../models/index.js';
import type { Canon } from './canon.js';
import type {
  ArchivedMessage,
  Classification,
  Classifier,
  ClassifierInput,
  ClassifierResult,
} from './classification.js';
import { boundIssues } from './classify/index.js';
import { CLASSIFICATION } from './entry-kinds.js';
import type { Principal } from './types.js';

/** The journal entry kind that records a message's classification, once. */
export const CLASSIFICATION_KIND = 'canon.classification';

/** The body of a `canon.classification` entry. */
export interface ClassificationBody {
  readonly message_id: string;
  readonly classification: Classification;
}

/** The idempotency key of a message's classification: one per message, ever. */
export function classificationKey(messageId: string): string {
  return `classification:${messageId}`;
}

/**
 * The outage as an answer about this message: same code (MODEL_UNAVAILABLE 502, MODEL_BUSY 503) and
 * retry hint, plus the message id, since the message stays archived and can be sent again.
 */
function outageFor(outage: CanonryError, message: ArchivedMessage): CanonryError {
  return new CanonryError(
    outage.code,
    `message ${message.message_id} is archived but not classified (send it again with the same message_id, or POST …/messages/{id}/classify): ${outage.message}`,
    { ...outage.details, message_id: message.message_id },
  );
}

function rejected(classifier: Classifier, message: ArchivedMessage, issues: readonly string[]) {
  return new CanonryError(
    'CLASSIFIER_FAILED',
    `the ${classifier.name} classifier output was rejected: ${issues.join('; ')}`,
    { message_id: message.message_id, classifier: classifier.name, issues },
  );
}

/**
 * Classifies a message and holds the answer to the rules no classifier may break (never `verified`,
 * never beyond the author's role: {@link boundIssues}). Throws MODEL_UNAVAILABLE or MODEL_BUSY when
 * the model could not be asked, CLASSIFIER_FAILED when its output was bad or out of bounds; both
 * name the message.
 */
export async function classifyMessage(
  classifier: Classifier,
  input: ClassifierInput,
): Promise<Classification> {
  const { message } = input;
  let result: ClassifierResult;
  try {
    result = await classifier.classify(input);
  } catch (error) {
    if (isModelOutage(error)) throw outageFor(error, message);
    throw error;
  }
  if (!result.ok) {
    if (result.outage && isModelOutage(result.outage)) throw outageFor(result.outage, message);
    throw rejected(classifier, message, result.issues);
  }
  const beyond = boundIssues(result.value, message);
  if (beyond.length > 0) throw rejected(classifier, message, beyond.slice(0, 10));
  return result.value;
}

/**
 * Journals a message's classification under its idempotency key, before any proposal is made from
 * it: the entry is the claim. If another intake of the same message got there first, its
 * classification is returned and this one must make no proposals.
 */
export async function recordClassification(
  canon: Canon,
  principal: Principal,
  message: ArchivedMessage,
  classification: Classification,
): Promise<{ classification: Classification; first: boolean }> {
  const body: ClassificationBody = { message_id: message.message_id, classification };
  const { entry, duplicate } = await canon.journal.append(
    principal.project,
    CLASSIFICATION.input(body, {
      actor: principal.id,
      authority: { principal: principal.id, role: principal.role, project: principal.project },
      correlation_id: message.message_id,
      idempotency_key: classificationKey(message.message_id),
    }),
  );
  if (!duplicate) return { classification, first: true };
  return { classification: CLASSIFICATION.body(entry).classification, first: false };
}

/** The classification journaled for a message, or null when it has not been classified. */
export async function recordedClassification(
  canon: Canon,
  message: ArchivedMessage,
): Promise<Classification | null> {
  const entry = await canon.journal.entryByKey(
    message.project,
    classificationKey(message.message_id),
  );
  if (entry === null || !CLASSIFICATION.is(entry)) return null;
  return entry.body.classification;
}
