import { stitchSchemas } from '@graphql-tools/stitch';
import { filterSchema, pruneSchema } from '@graphql-tools/utils';
import type { GraphQLSchema } from 'graphql';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { hasEntitlement, type EntitlementName } from '@civicgraph/kit';
import type { FieldRules } from './field-rules.js';
import { DateScalar, EmailAddressScalar, JsonScalar, StateCodeScalar, UrlScalar } from './scalars.js';

/** The subschemas the gateway stitches, one per service. */
export interface Subschemas {
  geo: GraphQLSchema;
  graph: GraphQLSchema;
  results: GraphQLSchema;
}

/**
 * Every service's subschema stitched into one, with type merging: a `Region` the graph
 * hands out gets its geo fields (population, roles, validity, boundary) from geo's
 * `_regions`, and a `Contest` its `results` from the results service's `_contestResults`;
 * each merge is one batched delegation per request, whatever the number of objects.
 */
export function stitchedSchema(s: Subschemas): GraphQLSchema {
  return stitchSchemas({
    subschemas: [
      { schema: s.geo, merge: { Region: { selectionSet: '{ slug }', fieldName: '_regions', key: ({ slug }: { slug: string }) => slug, argsFromKeys: (slugs: readonly string[]) => ({ slugs }) } } },
      { schema: s.graph },
      { schema: s.results, merge: { Contest: { selectionSet: '{ slug }', fieldName: '_contestResults', key: ({ slug }: { slug: string }) => slug, argsFromKeys: (slugs: readonly string[]) => ({ slugs }) } } },
    ],
    // The gateway validates and coerces arguments itself (before anything is delegated), so
    // its scalars are the checking ones, not pass-through copies of the subschemas'.
    resolvers: { Date: DateScalar, StateCode: StateCodeScalar, URL: UrlScalar, EmailAddress: EmailAddressScalar, JSON: JsonScalar },
  });
}

/**
 * The public schema as each key sees it: the stitched schema without the merging root
 * fields (`_…`) and without every field whose entitlement (per the SDL's `@entitlement`)
 * the policy says the key lacks; types left unreachable are pruned. So a key without
 * `contact` introspects no contact field, and a query naming one fails validation (see
 * the entitlement rule, which says why). One schema per distinct set of entitlements,
 * built once.
 */
export class SchemaVariants {
  private readonly variants = new Map<string, GraphQLSchema>();
  private readonly gated: readonly EntitlementName[];

  constructor(
    readonly full: GraphQLSchema,
    readonly rules: FieldRules,
  ) {
    this.gated = [...new Set(rules.entitlements.values())].sort();
  }

  /** The entitlements among those the schema gates that `principal` holds. */
  held(principal: Principal): ReadonlySet<EntitlementName> {
    return new Set(this.gated.filter((e) => hasEntitlement(principal, e)));
  }

  for(principal: Principal): GraphQLSchema {
    const held = this.held(principal);
    const key = [...held].join(',');
    let schema = this.variants.get(key);
    if (schema === undefined) {
      schema = this.build(held);
      this.variants.set(key, schema);
    }
    return schema;
  }

  private build(held: ReadonlySet<EntitlementName>): GraphQLSchema {
    const visible = (coordinate: string) => {
      const needs = this.rules.entitlements.get(coordinate);
      return needs === undefined || held.has(needs);
    };
    return pruneSchema(filterSchema({
      schema: this.full,
      rootFieldFilter: (op, name) => !name.startsWith('_') && visible(`${op}.${name}`),
      objectFieldFilter: (type, name) => visible(`${type}.${name}`),
    }));
  }
}
