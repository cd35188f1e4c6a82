import { setTimeout as sleep } from 'node:timers/promises';
import { ResultsServiceService, type ResultsServiceServer } from '@civicgraph/protos/civic/results/v1/results';
import {
  assertEnvironment,
  principalOf,
  startGrpcServer,
  unary,
  type EventBus,
  type Lifecycle,
  type Logger,
} from '@civicgraph/kit';
import type { ResultsConfig } from './config.js';
import { contestResults } from './contest-results.js';
import { LmdbResultsStore } from './store/lmdb-results-store.js';
import { connectGraphResults } from './sync/graph-results.js';
import { ResultsSync } from './sync/results-sync.js';

export interface ResultsDeps {
  /** The bus carrying the graph's `result.*` and `contest.*` events; its owner closes it. */
  bus: EventBus;
  lifecycle: Lifecycle;
  log: Logger;
}

export interface ResultsService {
  readonly address: string;
  readonly port: number;
  /**
   * Copies every result row from the graph again, after every change read so far. Start
   * does it; it is also how a caller that has just loaded results in bulk waits until the
   * service answers with them.
   */
  catchUp(): Promise<void>;
}

/** Wait between attempts to reach the graph service at start. */
const CATCH_UP_RETRY_MS = 1_000;

/**
 * Serves civic.results.v1 from the service's own store, kept a copy of the graph's result
 * rows: durable subscriptions to the graph's result and contest events keep it current,
 * and a catch-up at every start (a full read over gRPC) repairs whatever the bus no longer
 * holds, for the stream keeps events a week and a new durable consumer starts at its end.
 * A store that has been filled before answers at once while it catches up; an empty one
 * starts serving once it has been filled.
 */
export async function startResultsService(
  config: Pick<ResultsConfig, 'host' | 'port' | 'storePath' | 'graphAddr' | 'env' | 'serves'>,
  deps: ResultsDeps,
): Promise<ResultsService> {
  const { bus, lifecycle, log } = deps;
  const store = LmdbResultsStore.open(config.storePath);
  lifecycle.defer('results store', () => store.close());
  const graph = connectGraphResults(config.graphAddr, config.serves);
  lifecycle.defer('graph client', () => graph.close());
  const sync = new ResultsSync(store, graph, log);
  // Subscribed before the catch-up reads, so no change falls between the two.
  for (const kind of ['result', 'contest']) {
    const subscription = await bus.subscribe(`civic.${config.env}.${kind}.*`, (event) => sync.handle(event), {
      durable: `results-${config.env}-${kind}`,
    });
    lifecycle.defer(`results ${kind} events`, () => subscription.unsubscribe());
  }
  const implementation: ResultsServiceServer = {
    contestResults: unary(log, 'ContestResults', (req, call) => {
      const principal = principalOf(call);
      // Defence in depth, as in the graph service: a key of the other environment never reads this dataset.
      assertEnvironment(config.serves, { principal });
      return contestResults({ store, graph }, principal, req);
    }),
  };
  const server = await startGrpcServer({
    host: config.host,
    port: config.port,
    services: [{ name: 'civic.results.v1.ResultsService', definition: ResultsServiceService, implementation }],
    log,
  });
  lifecycle.defer('results grpc server', () => server.stop());
  const stopped = new AbortController();
  lifecycle.defer('results catch-up', () => stopped.abort());
  const caughtUp = catchUpUntilDone(sync, log, stopped.signal);
  if ((await store.syncedAt()) === undefined) await caughtUp;
  if (!stopped.signal.aborted) server.markServing();
  return { address: server.address, port: server.port, catchUp: async () => void (await sync.catchUp()) };
}

/** Catches up, trying again while the graph cannot be reached, until done or stopped. */
async function catchUpUntilDone(sync: ResultsSync, log: Logger, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    try {
      await sync.catchUp();
      return;
    } catch (err) {
      log.warn({ err, retryMs: CATCH_UP_RETRY_MS }, 'results could not be copied from the graph; trying again');
      await sleep(CATCH_UP_RETRY_MS, undefined, { signal }).catch(() => undefined);
    }
  }
}
