import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { type CanonryRuntime, KERNEL_AUDIT_PROJECT, TOKEN_REVOKED } from '../../app/index.js';
import { CanonryError } from '../../core/index.js';
import { parseProject } from '../../journal/index.js';
import { bearerToken } from '../../operations/index.js';
import { principalOf } from '../auth.js';
import { feedEvent } from '../event-summary.js';
import { hijack } from '../hijack.js';

/** The live feed of a project, as server-sent events. */
export const EVENTS_PATH = '/v1/projects/:project/events';

/** A heartbeat comment this often at most (and at least twice per idle-socket timeout). */
const HEARTBEAT_MS = 15_000;
/**
 * Entries read per page for one stream: the most a slow client's stream holds besides its socket,
 * with the feed's byte budget (2 MiB a page, or one larger entry).
 */
const PAGE = 100;
/**
 * How stale a stream's check of its token may be when it sends an entry: a revoked token's stream
 * ends within this (and at once at the revocation's own entry, or at the next heartbeat when idle).
 */
const RECHECK_MS = 1_000;
/** What a refused stream is told to wait before it retries, in seconds. */
const RETRY_AFTER_S = 5;

/** A resume point: a seq of up to 15 digits, else INVALID_ARGUMENT naming where it came from. */
function seqFrom(value: unknown, field: string): number {
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value.trim())) {
    throw new CanonryError('INVALID_ARGUMENT', `${field} must be a journal seq (an integer ≥ 0)`, {
      field,
    });
  }
  return Number(value.trim());
}

/** Where a stream starts: after `Last-Event-ID` (a reconnecting client), else `?after=`, else 0. */
function resumeAfter(header: unknown, query: unknown): number {
  const q = (query ?? {}) as Record<string, unknown>;
  const unknown = Object.keys(q).find((k) => k !== 'after');
  if (unknown !== undefined) {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      `unknown query parameter ${JSON.stringify(unknown.slice(0, 64))}`,
    );
  }
  if (header !== undefined) return seqFrom(header, 'Last-Event-ID');
  return q.after === undefined ? 0 : seqFrom(q.after, 'after');
}

/** Resolves once the socket can take more, or it closed (at once if it already has). */
function drained(raw: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (raw.destroyed || raw.writableEnded) {
      resolve();
      return;
    }
    const done = () => {
      raw.off('drain', done);
      raw.off('close', done);
      resolve();
    };
    raw.on('drain', done);
    raw.on('close', done);
  });
}

/**
 * `GET /v1/projects/:project/events`: the project's journal as it grows, one server-sent event per
 * entry (`id:` its seq, `event:` its kind, `data:` a policy-safe summary, or `event: redacted` for an
 * entry the token's principal may not read), resumed after `Last-Event-ID` or `?after=`. Backed by
 * `journal.follow`: a client that stops reading holds one page and its socket buffer, nothing more,
 * until the server's idle timeout ends it. The server holds `config.eventStreams` streams at once
 * (503 EVENT_STREAMS_FULL past them) and a principal a sixteenth of them (429 RATE_LIMITED), both
 * with Retry-After: each holds a socket, and sockets are what every other request needs too. The
 * kernel's audit project is never served. Every stream ends when the server closes.
 */
export function eventRoutes(app: FastifyInstance, runtime: CanonryRuntime): void {
  const open = new Set<() => void>();
  /** Open streams by principal (project and id), against `config.eventStreams` / 16 each. */
  const byPrincipal = new Map<string, number>();
  const limit = runtime.config.eventStreams;
  const perPrincipal = Math.max(1, Math.floor(limit / 16));
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });
  const heartbeatMs = Math.max(
    100,
    Math.min(HEARTBEAT_MS, Math.floor(runtime.config.http.idleTimeoutMs / 2)),
  );

  // No HEAD: a stream has no headers-only form (Fastify's HEAD would run this and hold the socket).
  const options = { exposeHeadRoute: false };
  app.get<{ Params: { project: string } }>(EVENTS_PATH, options, async (request, reply) => {
    const project = parseProject(request.params.project);
    if (project === KERNEL_AUDIT_PROJECT) {
      throw new CanonryError(
        'FORBIDDEN',
        `${project} is the kernel's private audit; it is not served`,
      );
    }
    const after = resumeAfter(request.headers['last-event-id'], request.query);
    // A resume point this journal never reached (another server's, or one from before a restore)
    // would wait in silence until the journal got there, skipping everything before: refused.
    const { seq: headSeq } = await runtime.journal.head(project);
    if (after > headSeq) {
      throw new CanonryError(
        'INVALID_ARGUMENT',
        `the resume point ${after} is past the head of ${project} (${headSeq}): resume from an event this journal sent`,
        {
          field: request.headers['last-event-id'] !== undefined ? 'Last-Event-ID' : 'after',
          head: headSeq,
        },
      );
    }
    const viewer = principalOf(request);
    // The token is checked again while the stream runs: revoking it ends the stream.
    const token = bearerToken(request.headers.authorization);
    let checkedAt = performance.now();
    const live = async (): Promise<boolean> => {
      checkedAt = performance.now();
      return token !== null && (await runtime.tokens.authenticate(token)) !== null;
    };
    const who = `${viewer.project}\u0000${viewer.id}`;
    const held = byPrincipal.get(who) ?? 0;
    if (open.size >= limit) {
      throw new CanonryError(
        'EVENT_STREAMS_FULL',
        `the server holds ${limit} event streams (CANONRY_EVENT_STREAMS)`,
        { retry_after_s: RETRY_AFTER_S },
      );
    }
    if (held >= perPrincipal) {
      throw new CanonryError(
        'RATE_LIMITED',
        `this principal holds ${perPrincipal} event streams already`,
        { retry_after_s: RETRY_AFTER_S },
      );
    }
    const follower = runtime.journal.follow(project, { after, limit: PAGE });
    const end = () => void follower.return();
    open.add(end);
    byPrincipal.set(who, held + 1);

    const raw = hijack(reply);
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // The stream is the connection: when it ends, so does the socket (shutdown never waits on it).
      connection: 'close',
      'x-accel-buffering': 'no',
    });
    raw.write(`: ${project} after ${after}\n\n`);
    raw.on('close', end);
    // A heartbeat only when the socket took the last write: one that is still full means the client
    // stopped reading, and writing on would only grow its buffer. The server's idle timeout ends
    // such a stream (its slot is free again); the client resumes with Last-Event-ID.
    // The check settles later: by then the stream may have ended, and a write after its end would
    // be an error event nobody listens to.
    const beat = () => {
      if (!raw.writableEnded && !raw.destroyed && !raw.writableNeedDrain) {
        raw.write(': heartbeat\n\n');
      }
    };
    const heartbeat = setInterval(() => {
      // A token that cannot be checked now (the store is away) keeps its stream, as a stream waits
      // out an outage: the next heartbeat asks again.
      live().then((valid) => (valid ? beat() : end()), beat);
    }, heartbeatMs);
    try {
      for await (const entry of follower) {
        const recheck =
          entry.kind === TOKEN_REVOKED.kind || performance.now() - checkedAt > RECHECK_MS;
        if (recheck && !(await live())) break;
        const event = await feedEvent(runtime.canon, runtime.journal.kinds, viewer, entry);
        // The client may have gone while the summary was read.
        if (raw.destroyed) break;
        const name = 'redacted' in event ? 'redacted' : event.kind;
        const frame = `id: ${entry.seq}\nevent: ${name}\ndata: ${JSON.stringify(event)}\n\n`;
        if (!raw.write(frame)) await drained(raw);
        if (raw.destroyed) break;
      }
    } catch (err) {
      // The store failed under the stream (not merely unreachable: the feed waits that out), or a
      // summary's read did: end it; the client resumes with Last-Event-ID.
      request.log.warn({ err, project }, 'event stream ended by a failed read');
    } finally {
      clearInterval(heartbeat);
      open.delete(end);
      const left = (byPrincipal.get(who) ?? 1) - 1;
      if (left > 0) byPrincipal.set(who, left);
      else byPrincipal.delete(who);
      raw.off('close', end);
      await follower.return();
      raw.end();
    }
  });
}
