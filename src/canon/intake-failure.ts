import { isCanonryError } from '../core/index.js';
import type { Canon } from './canon.js';
import type { ArchivedMessage, Classifier } from './classification.js';
import { CLASSIFICATION_FAILED } from './entry-kinds.js';
import type { Principal } from './types.js';

/** The journal entry kind that records a classification that failed (the message stays archived). */
export const CLASSIFICATION_FAILED_KIND = 'canon.classification_failed';

/** The failures intake journals: the model could not be asked, or its answer was refused. */
export const CLASSIFICATION_FAILURES = [
  'MODEL_UNAVAILABLE',
  'MODEL_BUSY',
  'CLASSIFIER_FAILED',
] as const;
export type ClassificationFailureCode = (typeof CLASSIFICATION_FAILURES)[number];

/** How much of a reason a failure entry keeps: a clip, never a model's whole answer. */
export const FAILURE_LIMITS = { detail: 300, issue: 160, issues: 5 } as const;

/** The body of a `canon.classification_failed` entry. */
export interface ClassificationFailureBody {
  readonly message_id: string;
  readonly code: ClassificationFailureCode;
  /** The error's message, scrubbed of credentials and clipped. */
  readonly detail: string;
  /** The first reasons a refused answer gave, each clipped (none for an outage). */
  readonly issues: readonly string[];
  readonly classifier: string;
}

/** What the intake table keeps of a message's last failure (a projection of the entry). */
export interface ClassificationFailure extends ClassificationFailureBody {
  readonly at: string;
  readonly seq: number;
  /** How many failures were journaled since the message was archived. */
  readonly attempts: number;
}

const SECRETS: readonly [RegExp, string][] = [
  [/\/\/[^/\s:@]+:[^/\s@]+@/g, '//***@'],
  [/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 ***'],
  [/\b(sk|pk|rk|cr|tok)[-_][A-Za-z0-9_-]{8,}/g, '***'],
  [/([?&](?:key|api_key|apikey|token|access_token|secret)=)[^&\s]+/gi, '$1***'],
];

/** A reason as a failure entry keeps it: no credentials, no control characters, at most `max`. */
export function clip(text: string, max: number): string {
  let out = text.replace(/\p{Cc}+/gu, ' ');
  for (const [pattern, replacement] of SECRETS) out = out.replace(pattern, replacement);
  out = out.toWellFormed();
  return out.length <= max ? out : `${out.slice(0, max - 1)}…`;
}

/** The failure an error is, or null when it is not one intake journals. */
export function failureOf(
  error: unknown,
  message: ArchivedMessage,
  classifier: Classifier,
): ClassificationFailureBody | null {
  if (!isCanonryError(error)) return null;
  const code = CLASSIFICATION_FAILURES.find((c) => c === error.code);
  if (code === undefined) return null;
  const issues = Array.isArray(error.details?.issues) ? (error.details.issues as unknown[]) : [];
  return {
    message_id: message.message_id,
    code,
    detail: clip(error.message, FAILURE_LIMITS.detail),
    issues: issues
      .slice(0, FAILURE_LIMITS.issues)
      .map((i) => clip(String(i), FAILURE_LIMITS.issue)),
    classifier: clip(classifier.name, 100),
  };
}

/**
 * Journals why a message could not be classified, so it is listed as unclassified with its reason
 * and can be classified again. Never throws: the caller answers with the original error either way.
 */
export async function recordFailure(
  canon: Canon,
  principal: Principal,
  body: ClassificationFailureBody,
): Promise<void> {
  await canon.journal
    .append(
      principal.project,
      CLASSIFICATION_FAILED.input(body, {
        actor: principal.id,
        authority: { principal: principal.id, role: principal.role, project: principal.project },
        correlation_id: body.message_id,
      }),
    )
    .catch(() => undefined);
}
