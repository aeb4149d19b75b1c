import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { CanonryRuntime } from '../app/index.js';

/** Where Prometheus scrapes. */
export const METRICS_PATH = '/metrics';

/** Seconds: from a fast read to a slow model-backed intake. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The server's metrics on a registry of its own (never prom-client's global one, so a process can
 * build several servers): HTTP requests and latencies by route template, method and status; kernel
 * verdicts by class; journal appends by entry kind; appends waiting for the next group commit; and
 * Node's process metrics. Counters read the runtime's own counts when scraped.
 */
export function metricsRoute(app: FastifyInstance, runtime: CanonryRuntime): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  const latency = new Histogram({
    name: 'canonry_http_request_duration_seconds',
    help: 'Time from receiving a request to answering it, by method, route template and status',
    labelNames,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  // The request count is the histogram's count per series, read when scraped: one observe a request.
  new Counter({
    name: 'canonry_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames,
    registers: [registry],
    async collect() {
      this.reset();
      for (const { metricName, labels, value } of (await latency.get()).values) {
        if (metricName === 'canonry_http_request_duration_seconds_count') this.inc(labels, value);
      }
    },
  });
  new Counter({
    name: 'canonry_kernel_verdicts_total',
    help: 'Verdicts the kernel reached (POST /v1/validate and the canon gate), by class',
    labelNames: ['class'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [verdictClass, n] of runtime.kernel.verdictCounts()) {
        this.inc({ class: verdictClass }, n);
      }
    },
  });
  new Counter({
    name: 'canonry_journal_appends_total',
    help: 'Journal entries this process appended, by kind',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [kind, n] of runtime.journal.stats().appended) this.inc({ kind }, n);
    },
  });
  new Counter({
    name: 'canonry_journal_forwarded_total',
    help: 'Plain appends to a contended project this process forwarded to its leader (sent), or appended as the leader (received)',
    labelNames: ['direction'],
    registers: [registry],
    collect() {
      this.reset();
      const { sent, received } = runtime.journal.stats().forwarded;
      this.inc({ direction: 'sent' }, sent);
      this.inc({ direction: 'received' }, received);
    },
  });
  new Counter({
    name: 'canonry_journal_forward_refused_total',
    help: 'Connections this process turned away as a project leader: a failed TLS handshake, a wrong token, or no room',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [reason, n] of Object.entries(runtime.journal.stats().forwarded.refused))
        this.inc({ reason }, n);
    },
  });
  new Gauge({
    name: 'canonry_journal_commit_queue_depth',
    help: 'Appends waiting for the next group commit',
    registers: [registry],
    collect() {
      this.set(runtime.journal.stats().queued);
    },
  });

  // A callback hook (no promise per request) with one observe.
  app.addHook('onResponse', (request, reply, done) => {
    const labels = {
      method: request.method,
      // The template, not the path: one series per route, whatever the ids in the URL.
      route: request.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    latency.observe(labels, reply.elapsedTime / 1_000);
    done();
  });
  app.get(METRICS_PATH, async (_request, reply) => {
    const text = await registry.metrics();
    return reply.code(200).header('content-type', registry.contentType).send(text);
  });
  return registry;
}
