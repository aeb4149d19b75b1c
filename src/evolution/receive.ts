import { createHmac, timingSafeEqual } from 'node:crypto';
import { fail, isCanonryError, ok, parseJsonText, type Result } from '../core/index.js';
import type { CognitiveAsset } from './asset-types.js';
import { admitForPath, type DispatchPath } from './dispatch-path.js';
import type { QualifiedEvent } from './event-types.js';
import { type EvolutionIssue, refuse } from './issues.js';
import { parseCognitiveAsset } from './parse-asset.js';
import { MAX_SET } from './read-fields.js';
import type { QualifiedEventVerifier } from './verify-event.js';

/** An event a receiving side may use, with the sources it was checked against. */
export interface ReceivedEvent {
  readonly event: QualifiedEvent;
  readonly sources: readonly CognitiveAsset[];
}

/** What a receiving side checks an event with: a verifier on its pinned root, and its own path. */
export interface ReceiveOptions {
  readonly verifier: QualifiedEventVerifier;
  readonly path: DispatchPath;
}

/**
 * What every receiving side runs before it uses an event (GCS "Governance Resolution", last
 * paragraph): the sources as cognitive assets, then the event's schema, effective policy hash,
 * certificate chain to the pinned root and signature, its linkage to those sources (their policy
 * hashes bound, its governance no wider than theirs), and last its governance admitted to the
 * receiver's own path (boundary enforceable, use permitted). Any failure is the first issue,
 * with its code and reason; nothing here throws.
 */
export function receiveEvent(
  input: { readonly event: unknown; readonly sources: readonly unknown[] },
  options: ReceiveOptions,
): Result<ReceivedEvent, EvolutionIssue> {
  if (!Array.isArray(input.sources) || input.sources.length === 0) {
    return refuse(
      'SOURCE_POLICY_MISMATCH',
      'the event arrived without its source assets',
      'sources',
    );
  }
  if (input.sources.length > MAX_SET) {
    // An event names at most MAX_SET sources: more cannot be exactly its sources, and each would
    // be parsed (and its governance resolved) before the mismatch showed.
    return refuse(
      'SOURCE_POLICY_MISMATCH',
      `the delivery carries more than ${MAX_SET} sources, more than an event names`,
      'sources',
    );
  }
  const sources: CognitiveAsset[] = [];
  for (const source of input.sources) {
    const parsed = parseCognitiveAsset(source);
    if (!parsed.ok) return parsed;
    sources.push(parsed.value);
  }
  const verified = options.verifier.verify(input.event, { sources });
  if (!verified.ok) return fail(...verified.issues);
  const { event } = verified.value;
  const admitted = admitForPath(event, options.path);
  if (!admitted.ok) return admitted;
  return ok({ event, sources });
}

/** Nesting a delivery body may have: what a canonical event may (RFC 8785 canonicalization's bound). */
const MAX_DELIVERY_DEPTH = 512;

/** The header a webhook's signature travels in: `t=<ms>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'canonry-signature';

/** The signature header of `body` sent at `at` (ms) with `secret`. */
export function webhookSignature(secret: string, body: string, at: number): string {
  const mac = createHmac('sha256', secret).update(`${at}.${body}`).digest('hex');
  return `t=${at},v1=${mac}`;
}

/** What a webhook receiver checks besides the event: its shared secret, and how old a delivery may be. */
export interface WebhookReceiveOptions extends ReceiveOptions {
  readonly secret: string;
  /** Deliveries signed longer ago than this (ms) are refused as replays (default 5 minutes). */
  readonly toleranceMs?: number;
  readonly now?: number;
}

/**
 * A webhook receiver's check, for code that receives canonry's deliveries: the HMAC over the raw
 * body (constant-time, within the tolerance), the body as JSON `{ event, sources }`, then
 * {@link receiveEvent}. The HMAC says the delivery came from the sender holding the secret; the
 * event's own Ed25519 signature and governance are still checked against the pinned root.
 */
export function receiveWebhook(
  body: string,
  signatureHeader: string | undefined,
  options: WebhookReceiveOptions,
): Result<ReceivedEvent, EvolutionIssue> {
  const match = /^t=(\d{1,15}),v1=([0-9a-f]{64})$/.exec(signatureHeader ?? '');
  if (!match) {
    return refuse('EVENT_UNSIGNED', `the delivery carries no ${WEBHOOK_SIGNATURE_HEADER} header`);
  }
  const at = Number(match[1]);
  const expected = Buffer.from(webhookSignature(options.secret, body, at).slice(-64), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'))) {
    return refuse('SIGNATURE_INVALID', 'the delivery signature does not verify with the secret');
  }
  const now = options.now ?? Date.now();
  if (Math.abs(now - at) > (options.toleranceMs ?? 300_000)) {
    return refuse('SIGNATURE_INVALID', 'the delivery was signed too long ago (a replay?)');
  }
  let parsed: unknown;
  try {
    // canonry's parser: a body naming a member twice (two `event`s, two `sources`) is refused, since
    // JSON.parse keeps the last and another reader of the same signed bytes the first.
    parsed = parseJsonText(body, MAX_DELIVERY_DEPTH);
  } catch (err) {
    const reason = isCanonryError(err) ? err.message : 'not JSON';
    return refuse('INVALID_QUALIFIED_EVENT', `the delivery body is unreadable: ${reason}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return refuse('INVALID_QUALIFIED_EVENT', 'the delivery body is not { event, sources }');
  }
  const { event, sources } = parsed as { event?: unknown; sources?: unknown };
  return receiveEvent({ event, sources: Array.isArray(sources) ? sources : [] }, options);
}
