import type { GeoUpstream } from '../upstream/geo-client.js';
import type { GraphUpstream, ResultsUpstream } from '../upstream/graph-client.js';
import { fieldRules } from './field-rules.js';
import { SchemaVariants, stitchedSchema } from './stitch.js';
import { geoSubschema } from './subschemas/geo.js';
import { graphSubschema } from './subschemas/graph.js';
import { resultsSubschema } from './subschemas/results.js';
import { subschemaSdl } from './subschemas/sdl.js';

export interface GraphQLDeps {
  geo: GeoUpstream;
  graph: GraphUpstream;
  results: ResultsUpstream;
}

/** The public GraphQL schema, stitched from the services' subschemas, in its per-entitlement variants. */
export function graphqlSchemas(deps: GraphQLDeps): SchemaVariants {
  const full = stitchedSchema({
    geo: geoSubschema(deps.geo),
    graph: graphSubschema(deps),
    results: resultsSubschema(deps.results),
  });
  return new SchemaVariants(full, fieldRules([subschemaSdl('geo'), subschemaSdl('graph'), subschemaSdl('results')]));
}
