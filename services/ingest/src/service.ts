import { join } from 'node:path';
import { IngestServiceService, type IngestServiceServer } from '@civicgraph/protos/civic/ingest/v1/ingest';
import { startGrpcServer, unary, type Lifecycle, type Logger } from '@civicgraph/kit';
import { connectBoundaryImport, connectGraphImport } from './clients/import-clients.js';
import type { IngestConfig } from './config.js';
import { Ingest } from './ingest.js';
import { watchSourceAge } from './source-age.js';
import { SOURCES } from './registry.js';
import { runView, sourceView } from './views.js';
import { IngestStore } from './state/ingest-store.js';
import type { RunRecord } from './state/ingest-store.js';

export interface IngestDeps {
  lifecycle: Lifecycle;
  log: Logger;
  /** Told as runs move (progress displays). */
  onRun?: (run: RunRecord) => void;
}

/** A running ingest service. */
export interface IngestService {
  readonly address: string;
  readonly port: number;
  readonly ingest: Ingest;
}

/**
 * Opens the ingest state, connects to the graph and geo services (which import their own
 * data: ingest never opens their stores), serves civic.ingest.v1, and (unless
 * INGEST_SCHEDULE=off) runs the due sources at once and then every tick.
 */
export async function startIngestService(config: IngestConfig, deps: IngestDeps): Promise<IngestService> {
  const { lifecycle, log } = deps;
  const store = IngestStore.open(join(config.dataDir, 'ingest', 'state'));
  lifecycle.defer('ingest state', () => store.close());
  const graph = connectGraphImport(config.graphAddr, config.env);
  lifecycle.defer('ingest graph client', () => graph.close());
  const boundaries = connectBoundaryImport(config.geoAddr, config.env);
  lifecycle.defer('ingest geo client', () => boundaries.close());
  const ingest = new Ingest(
    {
      origin: config.origin,
      store,
      filesDir: join(config.dataDir, 'ingest', 'files'),
      graph,
      boundaries,
      now: () => new Date(),
      log,
      ...(deps.onRun === undefined ? {} : { onRun: deps.onRun }),
    },
    SOURCES.filter((s) => config.sources.includes(s.id)),
  );
  lifecycle.defer('ingest runs', () => ingest.stop());
  lifecycle.defer('ingest source age', watchSourceAge(ingest));
  const implementation: IngestServiceServer = {
    listSources: unary(log, 'ListSources', () => ({ sources: ingest.list().map(sourceView) })),
    runSources: unary(log, 'RunSources', (req) => {
      const queued = ingest.queued(req.sources);
      ingest.run(queued).catch((err: unknown) => log.error({ err }, 'ingest runs asked for failed'));
      return { queued };
    }),
    listRuns: unary(log, 'ListRuns', (req) => ({
      runs: store.runs(req.limit > 0 ? Math.min(req.limit, 500) : 50).map(runView),
    })),
  };
  const server = await startGrpcServer({
    host: config.host,
    port: config.port,
    services: [{ name: 'civic.ingest.v1.IngestService', definition: IngestServiceService, implementation }],
    log,
  });
  lifecycle.defer('ingest grpc server', () => server.stop());
  // Due sources (never fetched, or their time has come) run at once, then every tick.
  if (config.schedule) ingest.start(config.tickMs);
  server.markServing();
  return { address: server.address, port: server.port, ingest };
}
