import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { CreateExportRequest } from '@civicgraph/protos/civic/graph/v1/exports';
import { InvalidParameterError, OutOfScopeError, stateVisible } from '@civicgraph/kit';
import { isNodeKind, NODE_KINDS, type NodeKind } from '../model/kinds.js';

/** The file formats of an export: gzip NDJSON (the rows as the API shows them), CSV and Parquet (flattened). */
export const EXPORT_FORMATS = ['ndjson', 'csv', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** What an export holds, checked: the node kinds, the states narrowing the key's scope, formats, edges. */
export interface ExportSpec {
  kinds: NodeKind[];
  /** Empty: the key's whole scope. */
  states: string[];
  formats: ExportFormat[];
  edges: boolean;
}

/** The whole graph in every format: what the monthly exports hold. */
export const FULL_EXPORT: ExportSpec = Object.freeze({
  kinds: [...NODE_KINDS],
  states: [],
  formats: [...EXPORT_FORMATS],
  edges: true,
});

/**
 * The request as a spec, refusing what cannot be exported: an unknown kind or format
 * (invalid_parameter, naming `kinds` or `formats`), a malformed state, or a state outside
 * the key's scope (out_of_scope, naming `states`). Lists are de-duplicated and sorted, so
 * two requests asking the same thing compare equal (idempotency).
 */
export function exportSpecOf(req: CreateExportRequest, principal: Principal): ExportSpec {
  const kinds = uniqueSorted(req.kinds);
  for (const k of kinds)
    if (!isNodeKind(k))
      throw new InvalidParameterError('kinds', `"${k}" is not a node kind; kinds are ${NODE_KINDS.join(', ')}.`);
  const formats = uniqueSorted(req.formats);
  for (const f of formats)
    if (!(EXPORT_FORMATS as readonly string[]).includes(f))
      throw new InvalidParameterError(
        'formats',
        `"${f}" is not an export format; formats are ${EXPORT_FORMATS.join(', ')}.`,
      );
  const states = uniqueSorted(req.states);
  for (const s of states) {
    if (!/^[a-z]{2}$/.test(s)) throw new InvalidParameterError('states', `"${s}" is not a lowercase USPS state code.`);
    if (!stateVisible(principal, s))
      throw new OutOfScopeError(`The state ${s} is outside this key's scope.`, { field: 'states' });
  }
  return {
    kinds: kinds.length === 0 ? [...NODE_KINDS] : (kinds as NodeKind[]),
    states,
    formats: formats.length === 0 ? [...EXPORT_FORMATS] : (formats as ExportFormat[]),
    edges: !req.skipEdges,
  };
}

function uniqueSorted(values: readonly string[]): string[] {
  return [...new Set(values.map((v) => v.trim()))].filter((v) => v !== '').sort();
}
