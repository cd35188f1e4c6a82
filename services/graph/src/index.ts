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
