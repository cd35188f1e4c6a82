import { originOf, type Origin } from '@civicgraph/ingest';
import type { CliConfig } from '../config.js';

/** Where the CLI reads the public sources: CIVIC_SOURCES_MIRROR, else the shared data folder beside the checkout, else the public hosts. */
export function sourcesOrigin(config: CliConfig): Origin {
  if (config.sourcesMirror !== undefined) return originOf(config.sourcesMirror);
  return config.sharedData === undefined ? { kind: 'public' } : { kind: 'folder', path: config.sharedData };
}
