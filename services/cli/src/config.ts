import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dataDir } from '@civicgraph/auth';
import { readStoreSelection, type StoreSelection } from '@civicgraph/graph';
import { int, oneOf, optionalStr, str, ENVIRONMENTS } from '@civicgraph/kit';

/** `civicgraph` configuration: the only reader of process.env in the CLI. */
export interface CliConfig {
  /** Gateway HTTP port (PORT, default 8080). */
  port: number;
  /** Gateway bind host (HOST, default 127.0.0.1). */
  host: string;
  /** Embedded stores' directory (CIVIC_DATA_DIR, default `.civicgraph`). */
  dataDir: string;
  /** NATS server (NATS_URL); unset → in-process bus. */
  natsUrl: string | undefined;
  env: (typeof ENVIRONMENTS)[number];
  /**
   * Folder of the public data files (CIVIC_SHARED_DATA, default the `shared/data` folder
   * beside the repository when it exists): the sources' mirror unless CIVIC_SOURCES_MIRROR
   * is set, and the county populations.
   */
  sharedData: string | undefined;
  /** The graph store `import` writes to (GRAPH_STORE and ARANGO_*, as the graph service reads them). */
  graphStore: StoreSelection;
  /** The key pepper (CIVIC_KEY_PEPPER), as the auth service reads it; unset → the one kept in the data directory. */
  keyPepper: string | undefined;
  /** Where `up` and `sources run` read the public sources (CIVIC_SOURCES_MIRROR: a folder or an http(s) base); unset → the shared data folder when present, else the public hosts. */
  sourcesMirror: string | undefined;
  /** The admin API token `up` gives the gateway (CIVIC_ADMIN_TOKEN); unset → no admin API. */
  adminToken: string | undefined;
  logLevel: string;
}

function defaultSharedData(): string | undefined {
  const candidate = fileURLToPath(new URL('../../../../shared/data', import.meta.url));
  return existsSync(candidate) ? candidate : undefined;
}

export function readCliConfig(env: NodeJS.ProcessEnv = process.env): Readonly<CliConfig> {
  return Object.freeze({
    port: int(env, 'PORT', 8080, 0, 65535),
    host: str(env, 'HOST', '127.0.0.1'),
    dataDir: dataDir(env),
    natsUrl: optionalStr(env, 'NATS_URL'),
    env: oneOf(env, 'CIVIC_ENV', ENVIRONMENTS, 'test'),
    sharedData: optionalStr(env, 'CIVIC_SHARED_DATA') ?? defaultSharedData(),
    graphStore: readStoreSelection(env),
    keyPepper: optionalStr(env, 'CIVIC_KEY_PEPPER'),
    sourcesMirror: optionalStr(env, 'CIVIC_SOURCES_MIRROR'),
    adminToken: optionalStr(env, 'CIVIC_ADMIN_TOKEN'),
    logLevel: str(env, 'LOG_LEVEL', 'info'),
  });
}
