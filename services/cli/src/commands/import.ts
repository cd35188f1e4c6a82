import { InvalidParameterError } from '@civicgraph/kit';
import { GRAPH_IMPORT_KINDS, isGraphImportKind } from '@civicgraph/graph';
import type { CliConfig } from '../config.js';
import { importBoundariesCommand } from './import-boundaries.js';
import { importGraph } from './import-graph.js';

/** `civicgraph import <kind> …`: boundaries into the geo store, everything else into the graph. */
export async function importCommand(config: CliConfig, args: string[]): Promise<string> {
  const [kind, ...rest] = args;
  if (kind === 'boundaries') return importBoundariesCommand(config, rest);
  if (kind !== undefined && isGraphImportKind(kind)) return importGraph(config, kind, rest);
  const kinds = ['boundaries', ...Object.keys(GRAPH_IMPORT_KINDS)].join(', ');
  throw new InvalidParameterError(
    'kind',
    `usage: civicgraph import <kind> <path>; kind is one of ${kinds}${kind === undefined ? '' : `, not "${kind}"`}.`,
  );
}
