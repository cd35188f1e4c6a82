import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { secretFromFile, type Lifecycle, type Logger } from '@civicgraph/kit';
import type { GraphSnapshot } from '../store/snapshot/graph-snapshot.js';
import { geoBoundaries } from './boundaries.js';
import { ExportWorker } from './export-worker.js';
import { Exports } from './exports.js';
import { JobStore } from './jobs/job-store.js';
import { ExportLinks } from './links.js';
import type { ExportStorageSelection } from '../config.js';
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

/**
 * The graph service's exports: the job store and file storage under `path`, the rules, and
 * (unless turned off) the worker and the monthly schedule. The graph service runs it with
 * its store's snapshots; `export-worker-main.ts` runs the worker alone, in a process of its
 * own, reading the store without loading it into memory.
 */
export function startExports(
  options: {
    path: string;
    worker: boolean;
    /** Opens a consistent snapshot of the graph; undefined when the store has none (no worker then). */
    snapshot: (() => Promise<GraphSnapshot>) | undefined;
    /** Signs download links; unset → a random secret kept in `path` (replicas must share one). */
    linkSecret: string | undefined;
    storage: ExportStorageSelection;
    /** The geo service, for the boundaries file; unset → exports without boundaries. */
    geoAddr: string | undefined;
  },
  lifecycle: Lifecycle,
  log: Logger,
): ExportsRuntime {
  mkdirSync(options.path, { recursive: true });
  const jobs = JobStore.open(join(options.path, 'jobs'));
  lifecycle.defer('export jobs', () => jobs.close());
  const storage = storageOf(options.storage, options.path);
  const snapshot = options.snapshot;
  const geo = options.geoAddr === undefined ? undefined : geoBoundaries(options.geoAddr);
  if (geo !== undefined) lifecycle.defer('export geo client', () => geo.close());
  const worker =
    options.worker && snapshot !== undefined
      ? new ExportWorker({ jobs, storage, snapshot, log, ...(geo === undefined ? {} : { boundaries: geo.source }) })
      : undefined;
  const links = new ExportLinks(secretFromFile(join(options.path, 'links.secret'), options.linkSecret));
  const exports = new Exports(jobs, storage, links, () => worker?.kick());
  if (worker !== undefined) {
    worker.start();
    lifecycle.defer('export worker', () => worker.stop());
    const schedule = () =>
      void exports.scheduleMonthly().catch((err: unknown) => log.error({ err }, 'monthly exports not scheduled'));
    schedule();
    const timer = setInterval(schedule, SCHEDULE_MS);
    timer.unref();
    lifecycle.defer('monthly export schedule', () => clearInterval(timer));
  }
  return { exports, worker };
}

function storageOf(selection: ExportStorageSelection, path: string): ExportStorage {
  if (selection.kind === 'filesystem') return new FsExportStorage(join(path, 'files'));
  return new S3ExportStorage({ ...selection, stagingDir: join(path, 'staging') });
}
