import { InvalidParameterError } from '@civicgraph/kit';
import { aql, join, type AqlQuery } from 'arangojs/aql';
import type { DocumentCollection } from 'arangojs/collections';
import { sortKey } from '../../model/index-keys.js';
import type { NodeDoc } from '../../model/nodes.js';
import { INDEXED, type Indexed, type NodeQuery, type Page } from '../graph-store.js';
import { NODE_FIELDS, orderKey } from './arango-documents.js';

/**
 * `GraphStore.query` as one AQL query. Every value from the caller is a bind variable;
 * the query text is assembled only from the fixed fragments in this file, chosen by
 * whitelisted names (a match field, an order), so no input can change the query's shape.
 * The server filters, orders, applies the keyset cursor and the limit (+1, to learn
 * whether another page follows).
 */

/** The stored attribute behind each matchable field: fixed text, never built from input. */
const MATCH_ATTRIBUTE: Record<Indexed, AqlQuery> = {
  region: aql`n.idx.region`,
  office: aql`n.idx.office`,
  contest: aql`n.idx.contest`,
  person: aql`n.idx.person`,
  party: aql`n.idx.party`,
  level: aql`n.idx.level`,
  election: aql`n.idx.election`,
};

const ORDER: Record<'slug' | 'date', AqlQuery> = {
  slug: aql`SORT n.kind, n.oslug`,
  date: aql`SORT n.kind, n.odate, n.oslug`,
};

export const MAX_QUERY_LIMIT = 1000;

/**
 * Throws InvalidParameterError naming the first field of `q` that cannot be answered, with
 * the same rules and words as the in-memory index (memory/graph-index.ts). An unknown
 * match field is refused rather than ignored: it has no fixed fragment to stand for it.
 */
export function checkNodeQuery(q: NodeQuery): void {
  if (!Number.isInteger(q.limit) || q.limit < 1 || q.limit > MAX_QUERY_LIMIT) {
    throw new InvalidParameterError('limit', `limit must be an integer from 1 to ${MAX_QUERY_LIMIT}, not ${q.limit}`);
  }
  if (q.minConfidence !== undefined && !(q.minConfidence >= 0 && q.minConfidence <= 1)) {
    throw new InvalidParameterError('min_confidence', `min_confidence must be from 0 to 1, not ${q.minConfidence}`);
  }
  if (q.order !== undefined && !Object.hasOwn(ORDER, q.order)) {
    throw new InvalidParameterError('order', `order must be slug or date, not "${String(q.order)}"`);
  }
  for (const field of Object.keys(q.match ?? {})) {
    if (!(INDEXED as readonly string[]).includes(field))
      throw new InvalidParameterError(`match.${field}`, `"${field}" is not an indexed field`);
  }
}

/** The AQL for a node query over `nodes`; call `checkNodeQuery` first. */
export function nodeQueryAql(nodes: DocumentCollection, q: NodeQuery): AqlQuery {
  // Only candidacies carry a confidence: minConfidence leaves other kinds alone, as in every adapter.
  const order = q.order ?? 'slug';
  return aql`
    FOR n IN ${nodes}
      FILTER n.kind == ${q.kind}
      ${scopeFilters(q)}
      ${matchFilters(q.match)}
      ${dateFilters(q)}
      ${q.minConfidence === undefined ? undefined : aql`FILTER n.confidence == null OR n.confidence >= ${q.minConfidence}`}
      ${q.after === undefined ? undefined : afterFilter(order, q.after)}
      ${ORDER[order]}
      LIMIT ${q.limit + 1}
      RETURN KEEP(n, ${[...NODE_FIELDS]})
  `;
}

/** The page from the `limit + 1` rows the query returned. */
export function toPage(rows: NodeDoc[], q: NodeQuery): Page {
  if (rows.length <= q.limit) return { nodes: rows, next: undefined };
  const nodes = rows.slice(0, q.limit);
  const last = nodes[nodes.length - 1];
  return { nodes, next: last === undefined ? undefined : sortKey(last, q.order ?? 'slug') };
}

function scopeFilters(q: NodeQuery): AqlQuery | undefined {
  const parts: AqlQuery[] = [];
  if (q.states !== undefined && q.states.length > 0) parts.push(aql`FILTER n.state IN ${[...q.states]}`);
  if (q.tiers !== undefined && q.tiers.length > 0) parts.push(aql`FILTER n.tier == "" OR n.tier IN ${[...q.tiers]}`);
  return parts.length > 0 ? join(parts, ' ') : undefined;
}

function matchFilters(match: NodeQuery['match']): AqlQuery | undefined {
  const parts: AqlQuery[] = [];
  for (const field of INDEXED) {
    const values = match?.[field];
    if (values !== undefined) parts.push(aql`FILTER ${MATCH_ATTRIBUTE[field]} IN ${[...values]}`);
  }
  return parts.length > 0 ? join(parts, ' ') : undefined;
}

/** Nodes without a date are outside every date range. */
function dateFilters(q: NodeQuery): AqlQuery | undefined {
  const parts: AqlQuery[] = [];
  if (q.dateFrom !== undefined) parts.push(aql`FILTER n.date != null AND n.odate >= ${orderKey(q.dateFrom)}`);
  if (q.dateTo !== undefined) parts.push(aql`FILTER n.date != null AND n.odate <= ${orderKey(q.dateTo)}`);
  return parts.length > 0 ? join(parts, ' ') : undefined;
}

/**
 * Keyset: rows strictly after the cursor in the query's order. A date cursor is
 * `sortKey` = date, NUL, slug; comparing (date, slug) as a pair is the same as comparing
 * those strings, and a cursor without NUL (not made by sortKey) compares as date-only,
 * again like the strings would.
 */
function afterFilter(order: 'slug' | 'date', after: string): AqlQuery {
  if (order === 'slug') return aql`FILTER n.oslug > ${orderKey(after)}`;
  const { date, slug } = splitDateCursor(after);
  const d = orderKey(date);
  return aql`FILTER n.odate > ${d} OR (n.odate == ${d} AND n.oslug > ${orderKey(slug)})`;
}

export function splitDateCursor(after: string): { date: string; slug: string } {
  const nul = after.indexOf('\u0000');
  return nul < 0 ? { date: after, slug: '' } : { date: after.slice(0, nul), slug: after.slice(nul + 1) };
}
