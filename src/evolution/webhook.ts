import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { EventType } from './event-types.js';
import type { BoundaryKind } from './governance-types.js';
import type { EvolutionTarget, TargetOutcome } from './ports.js';
import { WEBHOOK_SIGNATURE_HEADER, webhookSignature } from './receive.js';

/** An external target: canonry POSTs signed events to `url`. */
export interface WebhookConfig {
  /** The target's name (`webhook:<name>` is not implied: the name is used as given). */
  readonly name: string;
  /** http(s) URL the events are POSTed to. */
  readonly url: string;
  /** The shared secret the HMAC header is made with; never logged, never journaled. */
  readonly secret: string;
  /** The event types it takes (all when absent). */
  readonly eventTypes?: readonly EventType[];
  /** The boundary kinds the receiver enforces (default: `project`, as its configuration says). */
  readonly enforces?: readonly BoundaryKind[];
  /** Longest an attempt waits for its answer's status, from its start (ms, default 10,000). */
  readonly timeoutMs?: number;
}

/**
 * A signed webhook target. Each attempt POSTs `{ event, sources }` (the signed event and its
 * source assets — references and governance, no content) with `canonry-signature: t=<ms>,v1=<hex
 * HMAC-SHA256 of "<t>.<body>">`; a 2xx answer is delivered, anything else (or no answer) is
 * transient and retried by the coordinator, then dead-lettered. Sending an event out is an export
 * that the operator approved by configuring the target (`exports: ['with_approval']`): governance
 * that prohibits export never leaves.
 */
export function webhookTarget(
  config: WebhookConfig,
  now: () => number = Date.now,
): EvolutionTarget {
  const url = new URL(config.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`webhook ${config.name}: the URL must be http(s)`);
  }
  const types = config.eventTypes;
  return {
    name: config.name,
    path: {
      name: config.name,
      enforces: config.enforces ?? ['project'],
      exports: ['with_approval'],
    },
    accepts: (event) => types === undefined || types.includes(event.event_type),
    async receive(delivery): Promise<TargetOutcome> {
      const body = JSON.stringify({ event: delivery.event, sources: delivery.sources });
      const status = await post(
        url,
        body,
        {
          'content-type': 'application/json',
          [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(config.secret, body, now()),
        },
        config.timeoutMs ?? 10_000,
      ).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
      if (typeof status === 'number' && status >= 200 && status < 300) {
        return { ok: true, record: { status } };
      }
      return {
        ok: false,
        retry: true,
        issue: {
          code: 'TARGET_UNAVAILABLE',
          message:
            typeof status === 'number'
              ? `${config.name} answered ${status}`
              : `${config.name} did not answer: ${status.message}`,
        },
      };
    },
  };
}

/**
 * One attempt: resolves to the answer's status as soon as it arrives (the body is not read, so a
 * receiver that keeps sending one holds nothing open), rejects when the attempt is not answered
 * within `timeoutMs` from its start — connecting, sending and the status line and headers
 * together. The socket's idle timeout alone let a receiver that sent a byte now and then hold an
 * attempt, the event's dispatch and the coordinator's stop open for ever.
 */
function post(
  url: URL,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        clearTimeout(deadline);
        resolve(res.statusCode ?? 0);
        res.destroy();
      },
    );
    const deadline = setTimeout(
      () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)),
      timeoutMs,
    );
    req.on('error', (err) => {
      clearTimeout(deadline);
      reject(err);
    });
    req.end(body);
  });
}
