import { stitchSchemas } from '@graphql-tools/stitch';
import { filterSchema, pruneSchema } from '@graphql-tools/utils';
import type { GraphQLSchema } from 'graphql';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { hasEntitlement, type EntitlementName } from '@civicgraph/kit';
import type { FieldRules } from './field-rules.js';
import { DateScalar, EmailAddressScalar, JsonScalar, StateCodeScalar, UrlScalar } from './scalars.js';

/** The subschemas the gateway stitches, one per service. */
interface Subschemas {
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
      { schema: s.geo, merge: { Region: bySlugs('_regions') } },
      { schema: s.graph },
      { schema: s.results, merge: { Contest: bySlugs('_contestResults') } },
    ],
    // The gateway validates and coerces arguments itself (before anything is delegated), so
    // its scalars are the checking ones, not pass-through copies of the subschemas'.
    resolvers: {
      Date: DateScalar,
      StateCode: StateCodeScalar,
      URL: UrlScalar,
      EmailAddress: EmailAddressScalar,
      JSON: JsonScalar,
    },
  });
}

/** Merges a type by its slug through `fieldName(slugs: [String!]!)`: one batched delegation per request. */
function bySlugs(fieldName: string) {
  return {
    selectionSet: '{ slug }',
    fieldName,
    key: ({ slug }: { slug: string }) => slug,
    argsFromKeys: (slugs: readonly string[]) => ({ slugs }),
  };
}

/** The schema a principal sees, the gated entitlements it holds, and their key. */
interface Variant {
  schema: GraphQLSchema;
  held: ReadonlySet<EntitlementName>;
  key: string;
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
  private readonly variants = new Map<string, Variant>();
  /** Per principal object (the principal cache hands out one per key): asked on every operation. */
  private readonly byPrincipal = new WeakMap<Principal, Variant>();
  private readonly gated: readonly EntitlementName[];

  constructor(
    readonly full: GraphQLSchema,
    readonly rules: FieldRules,
  ) {
    this.gated = [...new Set(rules.entitlements.values())].sort();
  }

  /** The principal's variant: its schema and the entitlements among those gated that it holds. */
  variant(principal: Principal): Variant {
    let v = this.byPrincipal.get(principal);
    if (v !== undefined) return v;
    const held = new Set(this.gated.filter((e) => hasEntitlement(principal, e)));
    const key = [...held].join(',');
    v = this.variants.get(key);
    if (v === undefined) {
      v = { schema: this.build(held), held, key };
      this.variants.set(key, v);
    }
    this.byPrincipal.set(principal, v);
    return v;
  }

  for(principal: Principal): GraphQLSchema {
    return this.variant(principal).schema;
  }

  private build(held: ReadonlySet<EntitlementName>): GraphQLSchema {
    const visible = (coordinate: string) => {
      const needs = this.rules.entitlements.get(coordinate);
      return needs === undefined || held.has(needs);
    };
    return pruneSchema(
      filterSchema({
        schema: this.full,
        rootFieldFilter: (op, name) => !name.startsWith('_') && visible(`${op}.${name}`),
        objectFieldFilter: (type, name) => visible(`${type}.${name}`),
      }),
    );
  }
}
