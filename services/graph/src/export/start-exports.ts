import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { secretFromFile, type Lifecycle, type Logger } from '@civicgraph/kit';
import type { ExportStorageSelection, GraphConfig } from '../config.js';
import type { GraphSnapshot } from '../store/snapshot/graph-snapshot.js';
import { geoBoundaries } from './boundaries.js';
import { watchExports } from './export-metrics.js';
import { ExportWorker } from './export-worker.js';
import { Exports } from './exports.js';
import { JetStreamJobQueue } from './jobs/job-queue.js';
import { LmdbJobStore, type JobStore } from './jobs/job-store.js';
import { KvJobStore } from './jobs/kv-job-store.js';
import { ExportLinks } from './links.js';
import type { ExportStorage } from './storage/export-storage.js';
import { FsExportStorage } from './storage/fs-storage.js';
import { S3ExportStorage } from './storage/s3-storage.js';

/** How often the monthly schedule looks at the calendar. */
const SCHEDULE_MS = 60 * 60 * 1000;

export interface ExportsRuntime {
  exports: Exports;
  /** Undefined when another process runs the jobs (GRAPH_EXPORT_WORKER=off). */
  worker: ExportWorker | undefined;
}

export interface ExportsOptions {
  path: string;
  worker: boolean;
  /** Opens a consistent snapshot of the graph; undefined when the store has none (no worker then). */
  snapshot: (() => Promise<GraphSnapshot>) | undefined;
  /** Signs download links; unset → a random secret kept in `path` (replicas must share one). */
  linkSecret: string | undefined;
  storage: ExportStorageSelection;
  /** The geo service, for the boundaries file; unset → exports without boundaries. */
  geoAddr: string | undefined;
  /** NATS: jobs in a JetStream key-value bucket, handed out on a JetStream work queue; unset → the embedded job store, polled. */
  nats?: { url: string; word: string } | undefined;
}

/** The export options the graph's settings give, for the graph service and the lone export worker alike. */
export function exportsOptions(
  config: GraphConfig,
  worker: boolean,
  snapshot: ExportsOptions['snapshot'],
): ExportsOptions {
  return {
    path: config.exportsPath,
    worker,
    snapshot,
    linkSecret: config.cursorSecret,
    storage: config.exportStorage,
    geoAddr: config.geoAddr,
    nats: config.natsUrl === undefined ? undefined : { url: config.natsUrl, word: config.env },
  };
}

/**
 * The graph service's exports: the job store, the file storage, the rules, and (unless
 * turned off) the worker and the monthly schedule. Embedded, jobs are in LMDB under `path`
 * and the worker polls them (and is woken when one is queued); with NATS they are in a
 * JetStream key-value bucket every replica shares and are handed out on a JetStream work
 * queue, so any replica's worker (or export-worker-main.ts) runs each job once, and a job
 * whose worker died goes to another. The graph service runs it with its store's snapshots;
 * `export-worker-main.ts` runs the worker alone, reading the store without loading it.
 */
export async function startExports(
  options: ExportsOptions,
  lifecycle: Lifecycle,
  log: Logger,
): Promise<ExportsRuntime> {
  mkdirSync(options.path, { recursive: true });
  const queued = await openJobs(options, lifecycle, log);
  lifecycle.defer('export metrics', watchExports(queued.jobs));
  const storage = storageOf(options.storage, options.path);
  const geo = options.geoAddr === undefined ? undefined : geoBoundaries(options.geoAddr);
  if (geo !== undefined) lifecycle.defer('export geo client', () => geo.close());
  const snapshot = options.snapshot;
  const worker =
    options.worker && snapshot !== undefined
      ? new ExportWorker({
          jobs: queued.jobs,
          storage,
          snapshot,
          log,
          ...(geo === undefined ? {} : { boundaries: geo.source }),
        })
      : undefined;
  const links = new ExportLinks(secretFromFile(join(options.path, 'links.secret'), options.linkSecret));
  const queue = queued.queue;
  const onQueued = (id: string) => {
    if (queue === undefined) worker?.kick();
    else void queue.enqueue(id).catch((err: unknown) => log.error({ err, export: id }, 'export job not queued'));
  };
  const exports = new Exports(queued.jobs, storage, links, onQueued);
  if (worker !== undefined) {
    if (queue === undefined) {
      worker.start();
      lifecycle.defer('export worker', () => worker.stop());
    } else {
      await queue.consume((id, working) => worker.runOne(id, working));
      lifecycle.defer('export worker', () => queue.stop());
    }
    const schedule = async () => {
      await exports.scheduleMonthly();
      // A job whose hand-out was lost (a crash between recording and queueing it) is handed out again.
      if (queue !== undefined)
        for (const j of await queued.jobs.all()) if (j.status === 'queued') await queue.enqueue(j.id);
    };
    const tick = () => void schedule().catch((err: unknown) => log.error({ err }, 'monthly exports not scheduled'));
    tick();
    const timer = setInterval(tick, SCHEDULE_MS);
    timer.unref();
    lifecycle.defer('monthly export schedule', () => clearInterval(timer));
  }
  return { exports, worker };
}

async function openJobs(
  options: ExportsOptions,
  lifecycle: Lifecycle,
  log: Logger,
): Promise<{ jobs: JobStore; queue: JetStreamJobQueue | undefined }> {
  if (options.nats === undefined) {
    const jobs = LmdbJobStore.open(join(options.path, 'jobs'));
    lifecycle.defer('export jobs', () => jobs.close());
    return { jobs, queue: undefined };
  }
  const nc = await connect({ servers: options.nats.url, name: 'civicgraph-exports', maxReconnectAttempts: -1 });
  // Deferred first, so it runs last: after the worker has stopped taking jobs.
  lifecycle.defer('export jobs connection', () => nc.drain());
  const word = options.nats.word;
  const jobs = await KvJobStore.open(nc, `civic_exports_${word.replace(/[^A-Za-z0-9_-]/g, '_')}`);
  return { jobs, queue: await JetStreamJobQueue.open(nc, { word, logger: log }) };
}

function storageOf(selection: ExportStorageSelection, path: string): ExportStorage {
  if (selection.kind === 'filesystem') return new FsExportStorage(join(path, 'files'));
  return new S3ExportStorage({ ...selection, stagingDir: join(path, 'staging') });
}
