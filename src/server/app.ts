import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { Logger } from 'pino';
import { type CanonryRuntime, describeClassifier } from '../app/index.js';
import { CanonryError } from '../core/index.js';
import { rejectionEnvelope } from '../kernel/index.js';
import { useProjectAuth } from './auth.js';
import { clientErrorHandler } from './client-error.js';
import { useCors } from './cors.js';
import { edgeError, errorBody, isBodyError, modelFailureLog, retryAfterOf } from './errors.js';
import { useJsonBodies } from './json-body.js';
import { createLogger } from './logger.js';
import { metricsRoute } from './metrics.js';
import { type Mount, mountRoutes } from './mount.js';
import { openApiRoute } from './openapi.js';
import { readinessRoute } from './readiness.js';
import { REQUEST_ID_HEADER, requestId, useRequestId } from './request-id.js';
import { methodsAt, recordRoutes } from './route-table.js';
import { eventRoutes } from './routes/events.js';
import { journalRoutes } from './routes/journal.js';
import { operationRoutes } from './routes/operations.js';
import { protocolRoutes } from './routes/protocols.js';
import { trustRoutes } from './routes/trust.js';
import { VALIDATE_PATH, validateRoutes } from './routes/validate.js';
import { answerWhileClosing } from './shutdown.js';
import {
  defaultWorkbenchRoot,
  loadWorkbench,
  sendWorkbenchFile,
  type Workbench,
  workbenchFile,
} from './workbench.js';

/** Largest request body accepted: 1 MiB. */
export const BODY_LIMIT = 1024 * 1024;

/** Options for {@link buildServer}. */
export interface ServerOptions {
  /** Override the runtime's log level (tests pass 'silent'); ignored when `logger` is given. */
  readonly logLevel?: string;
  /** The process's logger (see `createLogger`), shared with the runtime's background work. */
  readonly logger?: Logger;
  /** Where log lines go instead of stderr when no `logger` is given (tests capture them). */
  readonly logStream?: { write(line: string): void };
  /** Routes another face serves here (MCP at `/mcp`), given by whoever composes the process. */
  readonly mounts?: readonly Mount[];
  /**
   * The built workbench (web/) to serve at `/`: its directory, or null to serve none. By default
   * `dist/web` of this package, when it was built.
   */
  readonly workbench?: string | null;
}

/**
 * Builds the HTTP face over a built runtime; listening is the caller's job (see `listen`). Every
 * error leaves as a typed 4xx with a machine-readable code; only bugs become 500s. Every connection
 * is bounded in time (headers, whole request, keep-alive, idle socket: `config.http`), so slow or
 * silent clients cannot hold sockets open.
 */
export function buildServer(runtime: CanonryRuntime, options: ServerOptions = {}): FastifyInstance {
  const level = options.logLevel ?? runtime.config.logLevel;
  const logger =
    options.logger ?? (level === 'silent' ? undefined : createLogger(level, options.logStream));
  const timeouts = runtime.config.http;
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    // A request during close is answered SHUTTING_DOWN in canonry's envelope (shutdown.ts).
    return503OnClosing: false,
    ...(logger ? { loggerInstance: logger as FastifyBaseLogger } : { logger: false }),
    logController: new LogController({
      disableRequestLogging: logger === undefined || !logger.isLevelEnabled('info'),
    }),
    genReqId: requestId,
    // A silent logger writes nothing, so a request needs no child logger of its own (one per request).
    ...(logger && !logger.isLevelEnabled('fatal')
      ? { childLoggerFactory: (parent: FastifyBaseLogger) => parent }
      : {}),
    requestTimeout: timeouts.requestTimeoutMs,
    clientErrorHandler,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
    connectionTimeout: timeouts.idleTimeoutMs,
    http: {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      // Node checks the two timeouts above only this often (30 s by default).
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, timeouts.headersTimeoutMs / 2)),
    },
    // Router failures (bad percent-escapes, over-long path parameters) answer in the error envelope too.
    frameworkErrors: (err, request, reply) => {
      const typed = edgeError(err);
      (reply as FastifyReply).header(REQUEST_ID_HEADER, request.id);
      (reply as FastifyReply).code(typed.status).send(errorBody(typed));
      // No response hook runs for it, so Fastify does not log its completion: this line does.
      request.log.info(
        { res: { statusCode: typed.status }, code: typed.code },
        'request completed',
      );
    },
  });
  recordRoutes(app);
  useRequestId(app);
  answerWhileClosing(app);
  useCors(app, runtime.config.corsOrigins);
  metricsRoute(app, runtime);
  useJsonBodies(app);
  // Before any route: every route under /v1/projects/:project/ needs that project's bearer token.
  useProjectAuth(app, runtime);

  app.setErrorHandler((err, request, reply) => {
    // A request no route answers is answered as such (404, or 405 with Allow), whatever its body:
    // an unparsable or untyped body says nothing about a route that is not there.
    if (request.is404 && isBodyError(err)) return notFound(request, reply);
    const typed = edgeError(err);
    if (typed.code === 'INTERNAL') request.log.error({ err }, 'unhandled error');
    // An operator must hear of a full disk: nothing is written until space is freed.
    if (typed.code === 'STORE_FULL') {
      request.log.error(
        { code: typed.code },
        'no space left for the data: writes fail until space is freed',
      );
    }
    // So must they of a database file that fails (its disk, a read-only mount) or is damaged.
    const sqlite = typed.details?.sqlite;
    if (typeof sqlite === 'string' || typed.code === 'STORE_CORRUPT') {
      request.log.error(
        { code: typed.code, sqlite },
        'the database file failed: an operator must look at it (docs/errors.md)',
      );
    }
    const modelFailure = modelFailureLog(typed);
    if (modelFailure) request.log.warn(modelFailure, 'model path failed');
    const retryAfter = retryAfterOf(typed);
    if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
    if (request.routeOptions.url === VALIDATE_PATH) {
      return reply.code(typed.status).send(rejectionEnvelope(typed.code, typed.message));
    }
    return reply.code(typed.status).send(errorBody(typed));
  });
  let workbenchRoot = options.workbench === undefined ? defaultWorkbenchRoot() : options.workbench;
  let workbench: Workbench | null = null;
  const notFound = (request: FastifyRequest, reply: FastifyReply) => {
    // A path the API answers, with another method: 405, and what it does answer.
    const path = request.url.split('?')[0]!;
    const allowed = methodsAt(app, request.url);
    if (allowed.length > 0) {
      const typed = new CanonryError(
        'METHOD_NOT_ALLOWED',
        `${path.slice(0, 200)} answers ${allowed.join(', ')}, not ${request.method}`,
        { allow: allowed },
      );
      return reply.code(405).header('allow', allowed.join(', ')).send(errorBody(typed));
    }
    // The workbench is what no API route answers: its files, and index.html for its client routes.
    // Read on first use (most servers in tests never serve it); a build that cannot be read is
    // logged once and the server goes on without it, answering the typed 404 below.
    if (workbenchRoot !== null && workbench === null) {
      try {
        workbench = loadWorkbench(workbenchRoot);
      } catch (err) {
        app.log.error({ err, root: workbenchRoot }, 'the workbench cannot be read; not serving it');
        workbenchRoot = null;
      }
    }
    if (workbench !== null) {
      const file = workbenchFile(workbench, request);
      if (file) return sendWorkbenchFile(request, reply, file);
    }
    const typed = new CanonryError(
      'NOT_FOUND',
      `no route ${request.method} ${request.url.split('?')[0]}`,
    );
    return reply.code(404).send(errorBody(typed));
  };
  app.setNotFoundHandler(notFound);

  // 503 while some chain is quarantined: the process is up, but not everything can be written.
  app.get('/healthz', async (_request, reply) => {
    const health = runtime.health();
    return reply.code(health.ok ? 200 : 503).send(health);
  });
  readinessRoute(app, runtime);
  validateRoutes(app, runtime);
  trustRoutes(app, runtime);
  protocolRoutes(app, runtime);
  journalRoutes(app, runtime);
  eventRoutes(app, runtime);
  operationRoutes(app, runtime);
  mountRoutes(app, runtime, options.mounts ?? []);
  openApiRoute(app, options.mounts ?? []);
  return app;
}

/**
 * Starts listening on the runtime's host and port; resolves to the address the socket is bound to
 * (`http://0.0.0.0:7070 (all interfaces)` for `--host 0`, where Fastify's own answer names
 * loopback alone).
 */
export async function listen(app: FastifyInstance, runtime: CanonryRuntime): Promise<string> {
  await app.listen({ port: runtime.config.port, host: runtime.config.host });
  app.log.info({ classifier: (await describeClassifier(runtime)).fields }, 'intake classifier');
  return boundAddress(app.server.address());
}

function boundAddress(bound: ReturnType<FastifyInstance['server']['address']>): string {
  if (bound === null || typeof bound === 'string') return String(bound);
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  const everywhere = bound.address === '0.0.0.0' || bound.address === '::';
  return `http://${host}:${bound.port}${everywhere ? ' (all interfaces)' : ''}`;
}
