import { InvalidParameterError } from '@civicgraph/kit';
import { isEdgeKind, isNodeKind } from '../model/kinds.js';
import { cloneJson } from './clone-json.js';
import type { EdgeDoc, NodeDoc } from '../model/nodes.js';
import { RevConflictError, type ChangeSet } from './graph-store.js';

/**
 * What every adapter does with a change set before and while applying it, so they agree:
 * the same input errors, the same rev rule, the same order of parts.
 *
 * Order: puts, then removes (each with the edges touching it), then unlinks, then links —
 * so a change set may remove an edge and link its replacement, and links always survive.
 */

/**
 * Longest slug or edge key accepted. Keeps every edge's identity inside LMDB's key limit
 * (1,978 bytes for [from, kind, to, key]) and far inside any other adapter's.
 */
export const MAX_ID_CHARS = 500;

/** Throws InvalidParameterError naming the first malformed part of a change set. */
export function validateChangeSet(changes: ChangeSet): void {
  const seen = new Set<string>();
  const once = (slug: string, field: string): void => {
    if (seen.has(slug)) throw new InvalidParameterError(field, `${slug} appears more than once in one change set`);
    seen.add(slug);
  };
  changes.put.forEach(({ node, expectRev }, i) => {
    const field = `put[${i}]`;
    if (!isNodeKind(node.kind))
      throw new InvalidParameterError(`${field}.node.kind`, `unknown node kind "${String(node.kind)}"`);
    checkId(node.slug, `${field}.node.slug`);
    if (!node.slug.startsWith(`${node.kind}:`))
      throw new InvalidParameterError(`${field}.node.slug`, `slug "${node.slug}" does not start with "${node.kind}:"`);
    checkRev(expectRev, `${field}.expectRev`);
    once(node.slug, `${field}.node.slug`);
  });
  changes.remove.forEach(({ slug, expectRev }, i) => {
    checkId(slug, `remove[${i}].slug`);
    checkRev(expectRev, `remove[${i}].expectRev`);
    once(slug, `remove[${i}].slug`);
  });
  changes.link.forEach((e, i) => checkEdge(e, `link[${i}]`));
  changes.unlink.forEach((e, i) => checkEdge(e, `unlink[${i}]`));
}

function checkEdge(e: Pick<EdgeDoc, 'kind' | 'from' | 'to' | 'key'>, field: string): void {
  if (!isEdgeKind(e.kind)) throw new InvalidParameterError(`${field}.kind`, `unknown edge kind "${String(e.kind)}"`);
  checkId(e.from, `${field}.from`);
  checkId(e.to, `${field}.to`);
  if (typeof e.key !== 'string') throw new InvalidParameterError(`${field}.key`, 'an edge key must be a string');
  if (e.key !== '') checkId(e.key, `${field}.key`);
}

/** A slug or key: a non-empty string of at most MAX_ID_CHARS, without NUL (LMDB's key separator). */
function checkId(id: unknown, field: string): void {
  if (typeof id !== 'string' || id === '') throw new InvalidParameterError(field, 'must be a non-empty string');
  if (id.length > MAX_ID_CHARS)
    throw new InvalidParameterError(field, `is ${id.length} characters long; at most ${MAX_ID_CHARS} are allowed`);
  if (id.includes('\u0000')) throw new InvalidParameterError(field, 'must not contain a NUL character');
}

function checkRev(rev: number, field: string): void {
  if (!Number.isInteger(rev) || rev < 0)
    throw new InvalidParameterError(field, `expectRev must be a whole number ≥ 0, not ${rev}`);
}

/**
 * Checks every expectRev against the current revs (0: absent) before anything is written;
 * throws RevConflictError for the first that differs.
 */
export function checkRevs(changes: ChangeSet, currentRev: (slug: string) => number): void {
  for (const { node, expectRev } of changes.put) conflictUnless(node.slug, expectRev, currentRev(node.slug));
  for (const { slug, expectRev } of changes.remove) conflictUnless(slug, expectRev, currentRev(slug));
}

function conflictUnless(slug: string, expected: number, actual: number): void {
  if (expected !== actual) throw new RevConflictError(slug, expected, actual);
}

/** The node as stored: a copy of the caller's, at rev expectRev + 1 whatever rev it carried. */
export function storedNode(node: NodeDoc, expectRev: number): NodeDoc {
  return { ...cloneJson(node), rev: expectRev + 1 };
}

/**
 * The change set as it will be stored: nodes copied at their new rev, edges and events
 * copied, so the caller keeps its own objects (and the store may freeze its copies).
 */
export function prepareChangeSet(changes: ChangeSet): ChangeSet {
  return {
    put: changes.put.map(({ node, expectRev }) => ({ node: storedNode(node, expectRev), expectRev })),
    remove: changes.remove.map(({ slug, expectRev }) => ({ slug, expectRev })),
    link: changes.link.map((e) => cloneJson(e)),
    unlink: changes.unlink.map(({ kind, from, to, key }) => ({ kind, from, to, key })),
    events: changes.events.map((e) => cloneJson(e)),
  };
}
