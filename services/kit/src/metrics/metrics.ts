import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { Lifecycle } from '../lifecycle.js';
import type { Logger } from '../log.js';

/**
 * The process's Prometheus metrics (prom-client), one registry per process: `civicgraph up`
 * runs every service in one process and serves them all from one /metrics; a service run
 * on its own serves its own. Names follow Prometheus conventions (`_seconds`, `_total`).
 */
export const METRICS = new Registry();
collectDefaultMetrics({ register: METRICS, prefix: 'civic_' });

/** Seconds buckets from 0.5 ms to 10 s: point lookups take well under a millisecond, imports seconds. */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/** HTTP requests the gateway answered: method, route template (`/v1/contests/:slug`, not the slug), status. */
export const httpRequestSeconds = new Histogram({
  name: 'civic_http_request_duration_seconds',
  help: 'HTTP requests answered by the gateway, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: BUCKETS,
  registers: [METRICS],
});

/** gRPC calls a service answered: method and status code name (`OK`, `INVALID_ARGUMENT`, …). */
export const rpcSeconds = new Histogram({
  name: 'civic_rpc_duration_seconds',
  help: 'gRPC calls answered, by method and status code',
  labelNames: ['method', 'code'] as const,
  buckets: BUCKETS,
  registers: [METRICS],
});

/** Cache lookups, by cache and outcome (`hit`, `miss`): the hit ratio is hit / (hit + miss). */
export const cacheLookups = new Counter({
  name: 'civic_cache_lookups_total',
  help: 'cache lookups by cache and outcome (hit, miss)',
  labelNames: ['cache', 'outcome'] as const,
  registers: [METRICS],
});

/**
 * Seconds from a change to its arrival, by stage: `webhook_delivery` (from the event's
 * commit), `ingest` imports (from the source's fetch to the import being served), `export`
 * jobs (from the request to the published files).
 */
export const lagSeconds = new Histogram({
  name: 'civic_lag_seconds',
  help: 'seconds from a change to its arrival: webhook deliveries (from the event), ingest imports (from the fetch to the import served), bulk exports (from the job queued to its files published)',
  labelNames: ['stage'] as const,
  buckets: [0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 1800, 3600],
  registers: [METRICS],
});

/**
 * Serves GET /metrics (Prometheus text format) on its own listener, apart from the API:
 * rates and errors are for operators, not for every holder of a key. Stopped with the lifecycle.
 */
export async function startMetricsServer(
  port: number,
  host: string,
  lifecycle: Lifecycle,
  log: Logger,
): Promise<{ url: string }> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('metrics are at GET /metrics\n');
      return;
    }
    METRICS.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': METRICS.contentType }).end(text),
      (err: unknown) => {
        log.error({ err }, 'metrics failed');
        res.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  lifecycle.defer('metrics server', () => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://${host}:${(server.address() as AddressInfo).port}/metrics`;
  log.info({ url }, 'metrics served');
  return { url };
}
