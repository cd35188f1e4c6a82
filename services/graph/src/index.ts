export * from './model/kinds.js';
export * from './model/nodes.js';
export * from './model/slugs.js';
export { indexKeys, sortKey, type IndexKeys } from './model/index-keys.js';
export * from './store/graph-store.js';
export type * from './domain/drafts.js';
