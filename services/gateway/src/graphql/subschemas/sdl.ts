import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The services whose GraphQL subschemas the gateway stitches. */
export type SubschemaName = 'geo' | 'graph' | 'results';

/** A service's subschema SDL, from protos/graphql (the only contract source). */
export function subschemaSdl(name: SubschemaName): string {
  return readFileSync(require.resolve(`@civicgraph/protos/graphql/${name}.graphql`), 'utf8');
}
