/**
 * The graph service's importers, by the names `civicgraph import`, the ingest registry and
 * the graph's ImportSource RPC share (the graph describes each: GRAPH_IMPORT_KINDS).
 */
export const GRAPH_IMPORT_KIND_NAMES = [
  'ocd',
  'legislators',
  'openstates-people',
  'fec-candidates',
  'results',
  'precinct-districts',
  'vip',
] as const;

/** A graph importer's name. */
export type GraphImportKind = (typeof GRAPH_IMPORT_KIND_NAMES)[number];
