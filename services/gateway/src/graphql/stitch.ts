import { stitchSchemas } from '@graphql-tools/stitch';
import type { GraphQLSchema } from 'graphql';

/**
 * The public schema: every service's subschema stitched into one. Today only geo; graph
 * and results join here as they land, without touching the REST layer.
 */
export function publicSchema(subschemas: GraphQLSchema[]): GraphQLSchema {
  return stitchSchemas({ subschemas: subschemas.map((schema) => ({ schema })) });
}
