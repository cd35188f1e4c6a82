import { Database } from 'arangojs';
import type { AqlQuery } from 'arangojs/aql';
import type { EdgeKind, NodeKind } from '../../model/kinds.js';
import type { EdgeDoc, NodeDoc } from '../../model/nodes.js';
import type { ChangeSet, GraphStore, NodeQuery, OutboxEntry, Page, StoreStats } from '../graph-store.js';
import type { Query } from '../../cypher/ast.js';
import type { StoreCypherAnswer, StoreCypherRequest } from '../../cypher/store-cypher.js';
import { commitChangeSet } from './arango-commit.js';
import type { GraphSnapshot } from '../snapshot/graph-snapshot.js';
import { arangoSnapshot } from '../snapshot/arango-snapshot.js';
import { runArangoCypher } from './arango-cypher.js';
import { tryEncodeKey } from './arango-keys.js';
import { checkName, collectionNames, ensureCollections, ensureDatabase } from './arango-schema.js';
import { checkNodeQuery, nodeQueryAql, toPage } from './node-query-aql.js';
import {
  ackEventsAql,
  edgesAql,
  edgesOfAql,
  nodesByKeyAql,
  pendingEventsAql,
  statsAql,
  type ArangoCollections,
} from './statements-aql.js';

/** Where the graph lives in ArangoDB. */
export interface ArangoGraphStoreOptions {
  /** Server URL, e.g. `http://127.0.0.1:8529`. */
  url: string;
  /** Database name; created when missing (which needs a user allowed to create databases). */
  database: string;
  /** Default `root`. */
  username?: string;
  /** Default ''. */
  password?: string;
  /** Prefix of the collection names (`<prefix>nodes`, `…edges`, `…outbox`, `…meta`). Default `graph_`. */
  prefix?: string;
}

/** The server did not answer, or refused to open or create the database. */
export class ArangoUnavailableError extends Error {
  constructor(url: string, database: string, options: { cause: unknown }) {
    const why = options.cause instanceof Error ? options.cause.message : String(options.cause);
    super(`ArangoDB at ${url}: cannot open database "${database}": ${why}`, options);
    this.name = 'ArangoUnavailableError';
  }
}

/**
 * The GraphStore on ArangoDB (the distributed deployment): nodes in a document collection
 * keyed by their encoded slug, edges in an edge collection between node documents, the
 * outbox in a third collection, all written by one stream transaction per change set
 * (arango-commit.ts). Reads are AQL with bind variables only; nothing is cached in the
 * process, so several service instances can share one database.
 */
export class ArangoGraphStore implements GraphStore {
  private closed = false;
  /**
   * This process's commits, one after another. Commits already serialize on the server
   * (arango-commit.ts); queuing them here as well keeps waiting transactions from taking
   * every connection of the driver's pool while the one holding the lock needs one.
   */
  private writes: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly db: Database,
    private readonly c: ArangoCollections,
  ) {}

  /** Connects, creating the database, collections and indexes that are missing. */
  static async connect(opts: ArangoGraphStoreOptions): Promise<ArangoGraphStore> {
    const prefix = opts.prefix ?? 'graph_';
    checkName('database', opts.database);
    collectionNames(prefix);
    const system = new Database({
      url: opts.url,
      auth: { username: opts.username ?? 'root', password: opts.password ?? '' },
    });
    try {
      const db = await ensureDatabase(system, opts.database);
      return new ArangoGraphStore(db, await ensureCollections(db, prefix));
    } catch (err) {
      system.close();
      throw new ArangoUnavailableError(opts.url, opts.database, { cause: err });
    }
  }

  /** The database this store writes to. */
  get databaseName(): string {
    return this.db.name;
  }

  async commit(changes: ChangeSet): Promise<void> {
    this.assertOpen();
    const mine = this.writes.then(() => commitChangeSet(this.db, this.c, changes));
    this.writes = mine.catch(() => undefined);
    await mine;
  }

  async getNode<K extends NodeKind = NodeKind>(slug: string): Promise<NodeDoc<K> | undefined> {
    const [node] = await this.getNodes([slug]);
    return node as NodeDoc<K> | undefined;
  }

  async getNodes(slugs: readonly string[]): Promise<NodeDoc[]> {
    const keys = slugs.flatMap((s) => tryEncodeKey(s) ?? []);
    if (keys.length === 0) return [];
    const found = new Map(
      (await this.all<NodeDoc>(nodesByKeyAql(this.c.nodes, [...new Set(keys)]))).map((n) => [n.slug, n]),
    );
    return slugs.flatMap((s) => found.get(s) ?? []);
  }

  async edges(slug: string, direction: 'out' | 'in', kind?: EdgeKind): Promise<EdgeDoc[]> {
    const key = tryEncodeKey(slug);
    if (key === undefined) return [];
    return this.all<EdgeDoc>(edgesAql(this.c.edges, `${this.c.nodes.name}/${key}`, direction, kind));
  }

  async edgesOf(slugs: readonly string[], direction: 'out' | 'in', kind?: EdgeKind): Promise<EdgeDoc[][]> {
    const handles = slugs.map((slug) => {
      const key = tryEncodeKey(slug);
      return key === undefined ? undefined : `${this.c.nodes.name}/${key}`;
    });
    const valid = handles.filter((h): h is string => h !== undefined);
    if (valid.length === 0) return slugs.map(() => []);
    const lists = await this.all<EdgeDoc[]>(edgesOfAql(this.c.edges, valid, direction, kind));
    let next = 0;
    return handles.map((h) => (h === undefined ? [] : lists[next++]!));
  }

  async query(q: NodeQuery): Promise<Page> {
    checkNodeQuery(q);
    return toPage(await this.all<NodeDoc>(nodeQueryAql(this.c.nodes, q)), q);
  }

  /** Cypher compiled to one AQL query (cypher/aql), the key's scope inside it. */
  async cypher(query: Query, request: StoreCypherRequest): Promise<StoreCypherAnswer> {
    this.assertOpen();
    return runArangoCypher(this.db, this.c, query, request);
  }

  async pendingEvents(limit: number): Promise<OutboxEntry[]> {
    const n = Number.isFinite(limit) ? Math.floor(limit) : 0;
    return n > 0 ? this.all<OutboxEntry>(pendingEventsAql(this.c.outbox, n)) : [];
  }

  async ackEvents(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.all(ackEventsAql(this.c.outbox, ids));
  }

  /** A read-only stream transaction: one RocksDB snapshot on a single server (store/snapshot/arango-snapshot.ts). */
  async snapshot(): Promise<GraphSnapshot> {
    this.assertOpen();
    return arangoSnapshot(this.db, this.c);
  }

  async stats(): Promise<StoreStats> {
    const [counts] = await this.all<Omit<StoreStats, 'indexBytes'>>(statsAql(this.c));
    if (counts === undefined) throw new Error('ArangoDB returned no counts');
    return { ...counts, indexBytes: null };
  }

  /** Closes the connections; the data stays in the database. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }

  private async all<T>(q: AqlQuery): Promise<T[]> {
    this.assertOpen();
    return (await this.db.query<T>(q)).all();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the ArangoGraphStore is closed');
  }
}
