import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  MemoryRateLimiter,
  RedisRateLimiter,
  VersionRegistry,
  type EventBus,
  type Lifecycle,
  type Logger,
  type RateLimiter,
} from '@civicgraph/kit';
import { createApp } from './app.js';
import { startKeyInvalidator, startResponseInvalidator } from './cache/invalidator.js';
import { ResponseCache } from './cache/response-cache.js';
import type { GatewayConfig } from './config.js';
import { answerClientErrors, SLOW_CLIENT_LIMITS } from './http/client-errors.js';
import { PrincipalCache } from './http/principal-cache.js';
import { connectAuth } from './upstream/auth-client.js';
import { connectGeo } from './upstream/geo-client.js';
import { BallotMemo } from './upstream/ballot-memo.js';
import { connectGraph, connectResults } from './upstream/graph-client.js';
import { connectExports } from './upstream/exports-client.js';
import { healthProbe } from './upstream/health-client.js';
import { connectWebhooks } from './upstream/webhooks-client.js';
import { connectIngest } from './upstream/ingest-client.js';

export interface GatewayDeps {
  bus: EventBus;
  lifecycle: Lifecycle;
  log: Logger;
  limiter?: RateLimiter;
  /** The API versions served; default the built-in ones. Tests register dated transforms here. */
  versions?: VersionRegistry;
}

/** A running gateway. */
export interface Gateway {
  readonly url: string;
  readonly port: number;
  readonly responses: ResponseCache;
  readonly server: Server;
}

/** Starts the HTTP gateway; every resource it opens is registered for graceful shutdown. */
export async function startGateway(config: GatewayConfig, deps: GatewayDeps): Promise<Gateway> {
  const { lifecycle, log } = deps;
  const auth = connectAuth(config.authAddr, config.upstreamDeadlineMs);
  const geo = connectGeo(config.geoAddr, config.upstreamDeadlineMs);
  const ballots = new BallotMemo();
  const graph = connectGraph(config.graphAddr, config.upstreamDeadlineMs, ballots);
  const results = connectResults(config.resultsAddr, config.upstreamDeadlineMs);
  // Exports are the graph service's: a second client on the same address.
  const exports = connectExports(config.graphAddr, config.upstreamDeadlineMs);
  const webhooks =
    config.webhooksAddr === undefined ? undefined : connectWebhooks(config.webhooksAddr, config.upstreamDeadlineMs);
  const ingest =
    config.ingestAddr === undefined ? undefined : connectIngest(config.ingestAddr, config.upstreamDeadlineMs);
  const probes = [
    healthProbe('auth', config.authAddr, 1_000),
    healthProbe('geo', config.geoAddr, 1_000),
    healthProbe('graph', config.graphAddr, 1_000),
    healthProbe('results', config.resultsAddr, 1_000),
  ];
  lifecycle.defer('gateway upstream clients', () =>
    [
      auth,
      geo,
      graph,
      results,
      exports,
      ...(webhooks === undefined ? [] : [webhooks]),
      ...(ingest === undefined ? [] : [ingest]),
      ...probes,
    ].forEach((c) => c.close()),
  );
  const responses = new ResponseCache();
  const principals = new PrincipalCache(auth, config.authCacheMs);
  const subscriptions = [
    await startKeyInvalidator(deps.bus, config.env, principals, log),
    await startResponseInvalidator(deps.bus, config.env, responses, ballots, log),
  ];
  lifecycle.defer('gateway cache invalidators', async () => {
    await Promise.all(subscriptions.map((s) => s.unsubscribe()));
  });
  const limiter = deps.limiter ?? (await openLimiter(config, lifecycle, log));
  const versions = deps.versions ?? new VersionRegistry();
  const app = createApp({
    principals,
    auth,
    adminToken: config.adminToken,
    limiter,
    readiness: () => ({
      rate_limits: limiter instanceof RedisRateLimiter && !limiter.shared ? 'local_fallback' : 'ok',
      // Without the bus no change drops a cached answer: they live out their lifetimes.
      events: deps.bus.connected() ? 'ok' : 'disconnected_caches_on_ttl',
    }),
    geo,
    graph,
    results,
    exports,
    webhooks,
    ingest,
    responses,
    versions,
    serves: config.serves,
    probes,
    isStopping: () => lifecycle.isStopping,
    log,
  });
  const server = createServer(SLOW_CLIENT_LIMITS, app);
  server.listen(config.port, config.host);
  answerClientErrors(server);
  await once(server, 'listening');
  // Closing stops new connections and waits for in-flight requests; idle keep-alive
  // sockets are closed at once so they cannot hold shutdown open.
  lifecycle.defer(
    'gateway http server',
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  );
  const port = (server.address() as AddressInfo).port;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  log.info({ url }, 'gateway listening');
  return { url, port, responses, server };
}

/**
 * Where rate-limit counters live: Redis when configured (every gateway of a deployment
 * shares one budget per key), else this process. A Redis outage falls back to counting
 * here, and readiness says so.
 */
async function openLimiter(config: GatewayConfig, lifecycle: Lifecycle, log: Logger): Promise<RateLimiter> {
  if (config.rateLimitRedisUrl === undefined) return new MemoryRateLimiter();
  const limiter = await RedisRateLimiter.connect({ url: config.rateLimitRedisUrl, log });
  lifecycle.defer('rate limiter', () => limiter.close());
  log.info({ shared: limiter.shared }, 'rate limits: Redis');
  return limiter;
}
