import type { Database } from 'arangojs';
import { isArangoError } from 'arangojs/errors';
import { CollectionType } from 'arangojs/collections';
import type { EnsurePersistentIndexOptions } from 'arangojs/indexes';
import { INDEXED } from '../graph-store.js';
import type { ArangoCollections } from './statements-aql.js';

/**
 * The database layout, created at start and safe to create again: every step checks or
 * tolerates what a previous start (or a concurrent one) already made.
 */

/** Collection and database names: a letter, then letters, digits, `_` or `-`. */
const NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const MAX_NAME_BYTES = 64;
/** ArangoDB's "duplicate name": another start created it first. */
const DUPLICATE_NAME = 1207;

/** Collection names of a store whose collections start with `prefix`. */
export function collectionNames(prefix: string): Record<keyof ArangoCollections, string> {
  const names = { nodes: `${prefix}nodes`, edges: `${prefix}edges`, outbox: `${prefix}outbox`, meta: `${prefix}meta` };
  for (const name of Object.values(names)) checkName('collection', name);
  return names;
}

/** Throws a RangeError naming a database or collection name ArangoDB would refuse. */
export function checkName(what: 'database' | 'collection', name: string): void {
  if (!NAME.test(name) || name.length > MAX_NAME_BYTES) {
    throw new RangeError(
      `${what} name "${name}" must be a letter then letters, digits, "_" or "-", at most ${MAX_NAME_BYTES} characters`,
    );
  }
}

/** The persistent indexes, named so a restart finds them instead of adding copies. */
export function indexPlan(): Record<keyof ArangoCollections, EnsurePersistentIndexOptions[]> {
  const persistent = (name: string, fields: string[], unique = false): EnsurePersistentIndexOptions => ({
    type: 'persistent',
    name,
    fields,
    unique,
  });
  return {
    nodes: [
      persistent('kind-slug', ['kind', 'oslug']),
      persistent('kind-date-slug', ['kind', 'odate', 'oslug']),
      persistent('kind-state', ['kind', 'state']),
      persistent('kind-tier', ['kind', 'tier']),
      persistent('kind-confidence', ['kind', 'confidence']),
      ...INDEXED.map((field) => persistent(`kind-idx-${field}`, ['kind', `idx.${field}`])),
    ],
    // Vertex-centric: edges of one kind at one node, without scanning the node's others.
    edges: [persistent('from-kind', ['_from', 'kind']), persistent('to-kind', ['_to', 'kind'])],
    outbox: [persistent('seq', ['seq'], true), persistent('event-id', ['event.id'])],
    meta: [],
  };
}

/** Opens (creating when missing) the database `name` on the server `system` talks to. */
export async function ensureDatabase(system: Database, name: string): Promise<Database> {
  checkName('database', name);
  const db = system.database(name);
  if (await db.exists()) return db;
  try {
    await system.createDatabase(name);
  } catch (err) {
    if (!(isArangoError(err) && err.errorNum === DUPLICATE_NAME)) throw err;
  }
  return db;
}

/** Creates the collections and indexes that are missing and returns the collections. */
export async function ensureCollections(db: Database, prefix: string): Promise<ArangoCollections> {
  const names = collectionNames(prefix);
  const collections: ArangoCollections = {
    nodes: db.collection(names.nodes),
    edges: db.collection(names.edges),
    outbox: db.collection(names.outbox),
    meta: db.collection(names.meta),
  };
  await ensureCollection(db, names.nodes, 'document');
  await ensureCollection(db, names.edges, 'edge');
  await ensureCollection(db, names.outbox, 'document');
  await ensureCollection(db, names.meta, 'document');
  const plan = indexPlan();
  for (const key of Object.keys(plan) as (keyof ArangoCollections)[]) {
    for (const index of plan[key]) await collections[key].ensureIndex(index);
  }
  return collections;
}

async function ensureCollection(db: Database, name: string, type: 'document' | 'edge'): Promise<void> {
  const collection = db.collection(name);
  if (await collection.exists()) {
    const wanted = type === 'edge' ? CollectionType.EDGE_COLLECTION : CollectionType.DOCUMENT_COLLECTION;
    if ((await collection.get()).type !== wanted)
      throw new Error(`collection "${name}" exists but is not a ${type} collection`);
    return;
  }
  try {
    if (type === 'edge') await db.createEdgeCollection(name);
    else await db.createCollection(name);
  } catch (err) {
    if (!(isArangoError(err) && err.errorNum === DUPLICATE_NAME)) throw err;
  }
}
