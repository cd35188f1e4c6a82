import { dirname, join } from 'node:path';
import { GraphServiceService, type GraphServiceServer } from '@civicgraph/protos/civic/graph/v1/graph';
import { ExportServiceService } from '@civicgraph/protos/civic/graph/v1/exports';
import {
  assertEnvironment,
  IMPORT_MESSAGE_BYTES,
  NotFoundError,
  nodeVisible,
  principalOf as callerOf,
  servicePrincipalOf,
  startGrpcServer,
  unary,
  type EventBus,
  type Lifecycle,
  type Logger,
} from '@civicgraph/kit';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { GraphConfig } from './config.js';
import { OutboxRelay } from './domain/outbox-relay.js';
import { rescoreCandidacies, type RescoreOutcome } from './domain/rescore.js';
import { GraphWriter } from './domain/writer.js';
import { exportHandlers } from './export/handlers.js';
import { exportsOptions, startExports, type ExportsRuntime } from './export/start-exports.js';
import { importSource } from './import/import-source.js';
import type { BallotAccess, FilingStatus } from './model/nodes.js';
import { Cursors } from '@civicgraph/kit';
import { slugParam } from './service/params.js';
import { ballot } from './service/queries/ballot.js';
import { answerBallots } from './service/queries/ballots.js';
import { getCandidacy, listCandidacies } from './service/queries/candidacies.js';
import { getContest, listContests } from './service/queries/contests.js';
import type { QueryContext } from './service/queries/context.js';
import { listElectionDates } from './service/queries/election-dates.js';
import { listOfficeholders } from './service/queries/officeholders.js';
import { cypher, cypherSchemaFor } from './service/queries/cypher.js';
import { listResults } from './service/queries/results.js';
import type { GraphStore } from './store/graph-store.js';
import { openGraphStore } from './store/open-store.js';

export interface GraphDeps {
  bus: EventBus;
  lifecycle: Lifecycle;
  log: Logger;
}

/** A running graph service: its address, and the store and writer importers in this process use. */
export interface GraphService {
  readonly address: string;
  readonly port: number;
  readonly store: GraphStore;
  readonly writer: GraphWriter;
  /** Publishes every committed, unpublished event now (tests, and imports that want their events out). */
  drainOutbox(): Promise<number>;
  /** Re-scores every stored candidacy as of now (the job GRAPH_RESCORE_INTERVAL_MS runs). */
  rescore(): Promise<RescoreOutcome>;
  /** Bulk exports: the rules, and the worker when this process runs it. */
  readonly exports: ExportsRuntime;
}

/**
 * Opens the embedded store, starts the outbox relay (every committed change reaches the bus,
 * after a crash too) and serves civic.graph.v1.
 */
export async function startGraphService(config: GraphConfig, deps: GraphDeps): Promise<GraphService> {
  const { bus, lifecycle, log } = deps;
  const store = await openGraphStore(config.store, config.storePath);
  lifecycle.defer('graph store', () => store.close());
  const writer = new GraphWriter({ store, env: config.env });
  const relay = new OutboxRelay({ store, bus, log, pollMs: config.relayPollMs });
  relay.start();
  lifecycle.defer('graph outbox relay', () => relay.stop());
  const ctx: QueryContext = {
    store,
    cursors: Cursors.fromSecretFile(join(dirname(config.storePath), 'graph-cursor.secret'), config.cursorSecret),
  };

  // Defence in depth: the gateway already refuses keys of the other environment; a call that
  // carries one anyway (a misrouted or misconfigured gateway) never reaches this dataset.
  const served = (principal: Principal): Principal => (assertEnvironment(config.serves, { principal }), principal);
  const principalOf = (call: Parameters<typeof callerOf>[0]): Principal => served(callerOf(call));
  const implementation: GraphServiceServer = {
    listContests: unary(log, 'ListContests', (req, call) => listContests(ctx, principalOf(call), req)),
    getContest: unary(log, 'GetContest', (req, call) => getContest(ctx, principalOf(call), req)),
    listCandidacies: unary(log, 'ListCandidacies', (req, call) => listCandidacies(ctx, principalOf(call), req)),
    getCandidacy: unary(log, 'GetCandidacy', (req, call) => getCandidacy(ctx, principalOf(call), req)),
    ballot: unary(log, 'Ballot', (req, call) => ballot(ctx, principalOf(call), req)),
    ballots: unary(log, 'Ballots', (req, call) => {
      const principal = principalOf(call);
      return answerBallots(req, (one) => ballot(ctx, principal, one));
    }),
    listOfficeholders: unary(log, 'ListOfficeholders', (req, call) => listOfficeholders(ctx, principalOf(call), req)),
    listElectionDates: unary(log, 'ListElectionDates', (req, call) => listElectionDates(ctx, principalOf(call), req)),
    moveCandidacy: unary(log, 'MoveCandidacy', async (req, call) => {
      const principal = principalOf(call);
      const slug = slugParam('slug', req.slug, 'candidacy', true);
      const provenance = slugParam('provenance', req.provenance, 'provenance', true);
      const node = await store.getNode(slug);
      if (node === undefined || !nodeVisible(principal, node))
        throw new NotFoundError(`No candidacy ${slug}.`, { field: 'slug' });
      await writer.moveCandidacy(
        slug,
        {
          ...(req.filingStatus === '' ? {} : { filingStatus: req.filingStatus as FilingStatus }),
          ...(req.ballotAccess === '' ? {} : { ballotAccess: req.ballotAccess as BallotAccess }),
        },
        provenance,
      );
      return getCandidacy(ctx, principal, { slug, minConfidence: 0 });
    }),
    listResults: unary(log, 'ListResults', (req, call) => listResults(ctx, principalOf(call), req)),
    cypher: unary(log, 'Cypher', (req, call) => cypher(store, principalOf(call), req)),
    cypherSchema: unary(log, 'CypherSchema', (_req, call) => cypherSchemaFor(principalOf(call))),
    importSource: unary(log, 'ImportSource', async (req, call) => {
      const caller = served(servicePrincipalOf(call, 'ImportSource'));
      const started = performance.now();
      const answer = await importSource(store, writer, req);
      log.info(
        {
          caller: caller.keyId,
          kind: req.kind,
          files: req.files.length,
          created: answer.created,
          updated: answer.updated,
          rejected: answer.rejected,
          events: answer.events,
          ms: Math.round(performance.now() - started),
        },
        'source imported',
      );
      return answer;
    }),
  };
  const exports = await startExports(
    exportsOptions(config, config.exportWorker, store.snapshot?.bind(store)),
    lifecycle,
    log,
  );
  const server = await startGrpcServer({
    host: config.host,
    port: config.port,
    services: [
      { name: 'civic.graph.v1.GraphService', definition: GraphServiceService, implementation },
      {
        name: 'civic.graph.v1.ExportService',
        definition: ExportServiceService,
        implementation: exportHandlers(exports.exports, principalOf, log),
      },
    ],
    log,
    // ImportSource carries a whole source in one message.
    maxReceiveMessageBytes: IMPORT_MESSAGE_BYTES,
  });
  lifecycle.defer('graph grpc server', () => server.stop());
  const rescore = async (): Promise<RescoreOutcome> => {
    const outcome = await rescoreCandidacies({ store, env: config.env, now: new Date() });
    log.info(outcome, 'candidacies re-scored as their sources age');
    return outcome;
  };
  if (config.rescoreIntervalMs > 0) {
    const timer = setInterval(
      () => rescore().catch((err: unknown) => log.error({ err }, 're-scoring failed; the next pass will retry')),
      config.rescoreIntervalMs,
    );
    timer.unref();
    lifecycle.defer('graph re-scoring', () => clearInterval(timer));
  }
  server.markServing();
  return {
    address: server.address,
    port: server.port,
    store,
    writer,
    drainOutbox: () => relay.drain(),
    rescore,
    exports,
  };
}
