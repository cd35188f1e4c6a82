import { ConfigError, oneOf, optionalStr, str } from '@civicgraph/kit';
import { ArangoGraphStore } from './arango/arango-graph-store.js';
import type { GraphStore } from './graph-store.js';
import { LmdbGraphStore } from './lmdb/lmdb-graph-store.js';

/**
 * Which GraphStore adapter a service opens (GRAPH_STORE): `embedded` (default; LMDB in
 * CIVIC_DATA_DIR) or `arangodb` (ARANGO_URL, ARANGO_DATABASE default civicgraph,
 * ARANGO_USER default root, ARANGO_PASSWORD, ARANGO_PREFIX default graph_). Read by the
 * graph and results services alike, so both open the same graph.
 */
export type StoreSelection =
  | { kind: 'embedded' }
  | { kind: 'arangodb'; url: string; database: string; username: string; password: string; prefix: string };

export function readStoreSelection(env: NodeJS.ProcessEnv): StoreSelection {
  const kind = oneOf(env, 'GRAPH_STORE', ['embedded', 'arangodb'] as const, 'embedded');
  if (kind === 'embedded') return { kind };
  const url = optionalStr(env, 'ARANGO_URL');
  if (url === undefined) throw new ConfigError('ARANGO_URL', 'GRAPH_STORE=arangodb needs ARANGO_URL, e.g. http://arangodb:8529');
  return {
    kind,
    url,
    database: str(env, 'ARANGO_DATABASE', 'civicgraph'),
    username: str(env, 'ARANGO_USER', 'root'),
    password: str(env, 'ARANGO_PASSWORD', ''),
    prefix: str(env, 'ARANGO_PREFIX', 'graph_'),
  };
}

/** Opens the selected adapter; `embeddedPath` is the LMDB directory for `embedded`. */
export async function openGraphStore(selection: StoreSelection, embeddedPath: string): Promise<GraphStore> {
  if (selection.kind === 'arangodb') {
    const { url, database, username, password, prefix } = selection;
    return ArangoGraphStore.connect({ url, database, username, password, prefix });
  }
  return LmdbGraphStore.open(embeddedPath);
}
