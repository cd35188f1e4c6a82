import { ConfigError, defineSettings, text, url, word, type SettingValues } from '@civicgraph/kit';

/**
 * Which GraphStore adapter a service opens (GRAPH_STORE): `embedded` (LMDB in
 * CIVIC_DATA_DIR) or `arangodb` (ARANGO_*). Read by the graph, results and ingest services
 * alike, so all open the same graph.
 */
export type StoreSelection =
  | { kind: 'embedded' }
  | { kind: 'arangodb'; url: string; database: string; username: string; password: string; prefix: string };

/** The store settings, spread into the schema of every service that opens the graph store. */
export const STORE_SETTINGS = defineSettings('graph store', {
  GRAPH_STORE: {
    type: word(['embedded', 'arangodb'] as const),
    default: 'embedded',
    description: '`embedded` (LMDB in `CIVIC_DATA_DIR/graph`) or `arangodb`',
  },
  ARANGO_URL: {
    type: url('http', 'https'),
    description: 'ArangoDB, e.g. `http://arangodb:8529`; required when `GRAPH_STORE=arangodb`',
  },
  ARANGO_DATABASE: { type: text(), default: 'civicgraph', description: 'ArangoDB database' },
  ARANGO_USER: { type: text(), default: 'root', description: 'ArangoDB user' },
  ARANGO_PASSWORD: { type: text(), sensitive: true, default: '', description: 'ArangoDB password' },
  ARANGO_PREFIX: { type: text(), default: 'graph_', description: 'prefix of the collections' },
}).specs;

/** The store selection the parsed settings name; ARANGO_URL is needed only by `arangodb`. */
export function storeSelectionOf(s: SettingValues<typeof STORE_SETTINGS>): StoreSelection {
  if (s.GRAPH_STORE === 'embedded') return { kind: 'embedded' };
  if (s.ARANGO_URL === undefined)
    throw new ConfigError('ARANGO_URL', 'GRAPH_STORE=arangodb needs ARANGO_URL, e.g. http://arangodb:8529');
  return {
    kind: 'arangodb',
    url: s.ARANGO_URL,
    database: s.ARANGO_DATABASE,
    username: s.ARANGO_USER,
    password: s.ARANGO_PASSWORD,
    prefix: s.ARANGO_PREFIX,
  };
}
