export { defaultIngestConfig, ingestSettings, readIngestConfig, originOf, type IngestConfig } from './config.js';
export { startIngestService, type IngestService, type IngestDeps } from './service.js';
export { Ingest, type SourceStatus } from './ingest.js';
export { SOURCES, sourceById, type Source, type SourceFile } from './registry.js';
export { IngestStore, type SourceState, type RunRecord, type RowCounts } from './state/ingest-store.js';
export { runView, sourceView } from './views.js';
export type { Origin } from './fetch/fetch-file.js';
export { connectGraphImport, connectBoundaryImport, IMPORT_DEADLINE_MS } from './clients/import-clients.js';
export type { GraphImport, BoundaryImport, ImportTargets } from './run/import-staged.js';
