export * from './model/kinds.js';
export * from './model/nodes.js';
export * from './model/slugs.js';
export { indexKeys, sortKey, type IndexKeys } from './model/index-keys.js';
export * from './store/graph-store.js';
export type * from './domain/drafts.js';
export { STORE_SETTINGS, storeSelectionOf, type StoreSelection } from './store/store-settings.js';
export { openGraphStore } from './store/open-store.js';
export { defaultGraphConfig, graphSettings, readGraphConfig, type GraphConfig } from './config.js';
export { startGraphService, type GraphService, type GraphDeps } from './graph-service.js';
export { GraphWriter } from './domain/writer.js';
export { OutboxRelay } from './domain/outbox-relay.js';
export type { BatchOutcome, NodeOutcome } from './domain/batch-plan.js';
export { LmdbGraphStore } from './store/lmdb/lmdb-graph-store.js';
export { runImport, summaryText, rowsSeen, type ImportTally } from './import/run-import.js';
export { importSource } from './import/import-source.js';
export {
  graphImporter,
  isGraphImportKind,
  GRAPH_IMPORT_KINDS,
  type GraphImportKind,
  type GraphImportOptions,
} from './import/kinds.js';
export { generateDemo, DEMO_MARKER, type DemoRegion, type DemoOptions } from './demo/generate.js';
export { queryAll, MAX_ANSWER_NODES } from './store/query-all.js';
export { surroundingGenerals } from './demo/calendar.js';
export type { GraphSnapshot } from './store/snapshot/graph-snapshot.js';
export { LmdbSnapshots } from './store/snapshot/lmdb-snapshot.js';
export { ExportWorker, type ExportWorkerOptions } from './export/export-worker.js';
export { LmdbJobStore, type JobStore } from './export/jobs/job-store.js';
export { KvJobStore } from './export/jobs/kv-job-store.js';
export { JetStreamJobQueue } from './export/jobs/job-queue.js';
export { FsExportStorage } from './export/storage/fs-storage.js';
export type { ExportStorage } from './export/storage/export-storage.js';
export { Exports } from './export/exports.js';
export { ExportLinks } from './export/links.js';
export { FULL_EXPORT, EXPORT_FORMATS, type ExportSpec, type ExportFormat } from './export/spec.js';
export { writeTables, type WrittenFile } from './export/write-tables.js';
export { MANIFEST_NAME, EXPORT_SCHEMA_VERSION, manifestJson } from './export/manifest.js';
export { runExport } from './export/run-export.js';
export { ArangoGraphStore } from './store/arango/arango-graph-store.js';
export { exportSpecOf } from './export/spec.js';
export { S3ExportStorage, type S3StorageOptions } from './export/storage/s3-storage.js';
