import { InvalidParameterError } from '@civicgraph/kit';
import { EDGE_ENDS, isEdgeKind, isTier, type NodeKind } from '../model/kinds.js';
import { PROVENANCE_METHODS, type EdgeDoc, type ProvenanceData } from '../model/nodes.js';
import { parseSlug } from '../model/slugs.js';
import type { DraftBatch, NodeDraft } from './drafts.js';
import { validateStatements } from './claims.js';
import { parseInstant } from './instants.js';

/**
 * Checks on what importers hand the writer, so bad input ends as one clear error naming
 * the field (the importer turns it into a row rejection) and never as a half-written
 * node. Types are checked at run time too: drafts are often built from parsed files.
 */

const STATE = /^([a-z]{2})?$/;

/** Throws InvalidParameterError naming the first problem with a batch's shape or any of its node drafts. */
export function checkBatch(batch: DraftBatch): void {
  if (typeof batch !== 'object' || batch === null || !Array.isArray(batch.nodes) || !Array.isArray(batch.edges)) {
    throw new InvalidParameterError('batch', 'a draft batch has a list of nodes and a list of edges');
  }
  for (const d of batch.nodes) checkDraft(d);
}

/** Throws InvalidParameterError naming the first problem with a node draft. */
export function checkDraft(d: NodeDraft): void {
  if (typeof d !== 'object' || d === null)
    throw new InvalidParameterError('nodes', `a node draft must be a record, got ${JSON.stringify(d)}`);
  const parsed = parseSlug(String(d.slug));
  if (!parsed)
    throw new InvalidParameterError(
      'slug',
      `"${String(d.slug)}" is not a slug (kind:key, key lowercase letters, digits, single hyphens)`,
    );
  if (parsed.kind !== d.kind)
    throw new InvalidParameterError('kind', `${d.slug} is a ${parsed.kind} slug on a ${String(d.kind)} draft`);
  if (typeof d.state !== 'string' || !STATE.test(d.state))
    throw new InvalidParameterError(
      'state',
      `${d.slug}: state "${String(d.state)}" is not a lowercase USPS code or ''`,
    );
  if (d.tier !== '' && !isTier(String(d.tier)))
    throw new InvalidParameterError('tier', `${d.slug}: tier "${String(d.tier)}" is not a jurisdiction tier`);
  if (d.kind === 'candidacy') {
    checkSlugOf('provenance', d.provenance, d.slug, 'provenance');
    if (typeof d.claims !== 'object' || d.claims === null)
      throw new InvalidParameterError('claims', `${d.slug}: claims must be a record of field values`);
    validateStatements(d.slug, d.claims);
    for (const p of d.positions ?? []) checkSlugOf('position', p, d.slug, 'positions');
    return;
  }
  if (typeof d.data !== 'object' || d.data === null || Array.isArray(d.data))
    throw new InvalidParameterError('data', `${d.slug}: data must be a record`);
  if (d.kind === 'provenance') checkProvenance(d.slug, d.data);
}

/** A provenance record must be scoreable: a known method and a readable retrieved-at. */
export function checkProvenance(slug: string, p: ProvenanceData): void {
  if (typeof p.source !== 'string' || p.source.trim() === '')
    throw new InvalidParameterError('source', `${slug}: a provenance record needs a source name`);
  if (!(PROVENANCE_METHODS as readonly string[]).includes(p.method)) {
    throw new InvalidParameterError(
      'method',
      `${slug}: method "${String(p.method)}" is not one of ${PROVENANCE_METHODS.join(', ')}`,
    );
  }
  if (Number.isNaN(parseInstant(p.retrievedAt))) {
    throw new InvalidParameterError(
      'retrieved_at',
      `${slug}: retrievedAt "${String(p.retrievedAt)}" is not an RFC 3339 instant`,
    );
  }
}

/** Throws unless the edge's kind exists and joins the kinds of nodes it names, and both ends exist. */
export function checkEdge(e: EdgeDoc, exists: (slug: string) => boolean): void {
  if (typeof e !== 'object' || e === null)
    throw new InvalidParameterError('edge', `an edge must be a record, got ${JSON.stringify(e)}`);
  const what = `edge ${String(e.kind)} ${String(e.from)} → ${String(e.to)}`;
  if (!isEdgeKind(String(e.kind))) throw new InvalidParameterError('edge', `${what}: unknown edge kind`);
  const allowed = EDGE_ENDS[e.kind] as { from: readonly NodeKind[]; to: readonly NodeKind[] };
  const from = parseSlug(String(e.from))?.kind;
  const to = parseSlug(String(e.to))?.kind;
  if (!from || !allowed.from.includes(from))
    throw new InvalidParameterError('edge', `${what}: ${e.kind} cannot start at ${String(e.from)}`);
  if (!to || !allowed.to.includes(to))
    throw new InvalidParameterError('edge', `${what}: ${e.kind} cannot end at ${String(e.to)}`);
  if (typeof e.key !== 'string')
    throw new InvalidParameterError('edge', `${what}: key must be text ('' when there are no parallel edges)`);
  for (const end of [e.from, e.to]) {
    if (!exists(end)) throw new InvalidParameterError('edge', `${what}: ${end} is neither in the batch nor stored`);
  }
}

function checkSlugOf(kind: NodeKind, value: unknown, owner: string, field: string): void {
  if (typeof value !== 'string' || parseSlug(value)?.kind !== kind) {
    throw new InvalidParameterError(field, `${owner}: ${field} "${String(value)}" is not a ${kind} slug`);
  }
}
