import { ArangoGraphStore } from './arango/arango-graph-store.js';
import type { GraphStore } from './graph-store.js';
import { LmdbGraphStore } from './lmdb/lmdb-graph-store.js';
import type { StoreSelection } from './store-settings.js';

/** Opens the selected adapter; `embeddedPath` is the LMDB directory for `embedded`. */
export async function openGraphStore(selection: StoreSelection, embeddedPath: string): Promise<GraphStore> {
  if (selection.kind === 'arangodb') {
    const { url, database, username, password, prefix } = selection;
    return ArangoGraphStore.connect({ url, database, username, password, prefix });
  }
  return LmdbGraphStore.open(embeddedPath);
}
