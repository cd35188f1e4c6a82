import {
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  isInterfaceType,
  isInputObjectType,
  isEnumType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { EntitlementName } from '@civicgraph/kit';
import type { FieldRules } from './field-rules.js';

/** A list field without `@listSize` is assumed to hold this many items. */
export const DEFAULT_LIST_SIZE = 10;

/** Most selections the walk expands (fragments included) before it gives up: the operation is then refused. */
export const MAX_WALKED_FIELDS = 5_000;

/** A field the principal may not see, where the query names it. */
interface DeniedField {
  coordinate: string;
  entitlement: EntitlementName;
  path: string[];
}

/** What an operation would cost, worked out before it runs. */
export interface Analysis {
  /** Deepest field nesting (a root field is depth 1) and the response path to it. */
  depth: number;
  deepestPath: string[];
  /** Each field costs 1 plus its selection's cost, times the list's expected size for list fields. */
  cost: number;
  /** Path to the object field under which the most cost sits, from the root (where to trim). */
  costliestPath: string[];
  /** Fields named under an alias. */
  aliases: number;
  /** Selections walked, fragments expanded; at MAX_WALKED_FIELDS the walk stopped early. */
  walked: number;
  truncated: boolean;
  denied: DeniedField[];
}

interface Walk {
  schema: GraphQLSchema;
  rules: FieldRules;
  held: ReadonlySet<EntitlementName>;
  fragments: Map<string, FragmentDefinitionNode>;
  result: Analysis;
}

interface Branch {
  cost: number;
  path: string[];
}

/**
 * Walks an operation's selections with fragments expanded (a spread already being
 * expanded on the way down is skipped, so cycles end), against `schema`, scoring depth,
 * cost and aliases, and noting every field gated by an entitlement not in `held`.
 * Unknown fields are skipped: validation reports them.
 */
export function analyzeOperation(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: readonly FragmentDefinitionNode[],
  rules: FieldRules,
  held: ReadonlySet<EntitlementName>,
): Analysis {
  const result: Analysis = {
    depth: 0,
    deepestPath: [],
    cost: 0,
    costliestPath: [],
    aliases: 0,
    walked: 0,
    truncated: false,
    denied: [],
  };
  const walk: Walk = { schema, rules, held, fragments: new Map(fragments.map((f) => [f.name.value, f])), result };
  const root =
    operation.operation === 'query'
      ? schema.getQueryType()
      : operation.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  if (root === null || root === undefined) return result;
  const branch = selectionCost(walk, root, operation.selectionSet, [], new Set());
  result.cost = branch.cost;
  result.costliestPath = branch.path;
  return result;
}

function selectionCost(
  w: Walk,
  parent: GraphQLNamedType,
  set: SelectionSetNode,
  path: string[],
  expanding: Set<string>,
): Branch {
  let total = 0;
  let costliest: Branch = { cost: 0, path: [] };
  for (const sel of set.selections) {
    if (w.result.walked >= MAX_WALKED_FIELDS) {
      w.result.truncated = true;
      break;
    }
    w.result.walked += 1; // every selection, spreads and meta-fields too: a fragment bomb ends here
    let b: Branch;
    if (sel.kind === Kind.FIELD) {
      b = fieldCost(w, parent, sel, path, expanding);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const on = sel.typeCondition === undefined ? parent : (w.schema.getType(sel.typeCondition.name.value) ?? parent);
      b = selectionCost(w, on, sel.selectionSet, path, expanding);
    } else {
      const name = sel.name.value;
      const fragment = w.fragments.get(name);
      if (fragment === undefined || expanding.has(name)) continue;
      expanding.add(name);
      b = selectionCost(
        w,
        w.schema.getType(fragment.typeCondition.name.value) ?? parent,
        fragment.selectionSet,
        path,
        expanding,
      );
      expanding.delete(name);
    }
    total += b.cost;
    if (b.cost > costliest.cost) costliest = b;
  }
  return { cost: total, path: costliest.path };
}

function fieldCost(w: Walk, parent: GraphQLNamedType, sel: FieldNode, path: string[], expanding: Set<string>): Branch {
  const name = sel.name.value;
  if (sel.alias !== undefined) w.result.aliases += 1;
  if (name.startsWith('__'))
    return { cost: introspectionCost(w.schema, name, sel), path: [...path, sel.alias?.value ?? name] };
  const here = [...path, sel.alias?.value ?? name];
  if (here.length > w.result.depth) {
    w.result.depth = here.length;
    w.result.deepestPath = here;
  }
  const coordinate = `${parent.name}.${name}`;
  const needs = w.rules.entitlements.get(coordinate);
  if (needs !== undefined && !w.held.has(needs)) w.result.denied.push({ coordinate, entitlement: needs, path: here });
  const def = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
  if (def === undefined) return { cost: 1, path: [] };
  const list = isListType(getNullableType(def.type));
  const size = list ? (w.rules.listSizes.get(coordinate) ?? DEFAULT_LIST_SIZE) : 1;
  if (sel.selectionSet === undefined) return { cost: 1, path: [] }; // a leaf: the path names the object holding it
  const inner = selectionCost(w, getNamedType(def.type), sel.selectionSet, here, expanding);
  return { cost: 1 + size * inner.cost, path: inner.path.length > 0 ? inner.path : here };
}

/** What an introspection field returns, as a cost: `__typename` nothing; `__schema` every type, field, argument and value; `__type` the one named. */
function introspectionCost(schema: GraphQLSchema, name: string, sel: FieldNode): number {
  if (name === '__schema') return weighed(schema).all;
  if (name !== '__type') return 0;
  const arg = sel.arguments?.find((a) => a.name.value === 'name')?.value;
  const named = arg?.kind === Kind.STRING ? schema.getType(arg.value) : undefined;
  return named === undefined || named === null ? weighed(schema).largest : typeWeight(named);
}

const weights = new WeakMap<GraphQLSchema, { all: number; largest: number }>();

function weighed(schema: GraphQLSchema): { all: number; largest: number } {
  let w = weights.get(schema);
  if (w === undefined) {
    const each = Object.values(schema.getTypeMap()).map(typeWeight);
    w = {
      all: each.reduce((a, b) => a + b, 0) + schema.getDirectives().reduce((n, d) => n + 1 + d.args.length, 0),
      largest: Math.max(1, ...each),
    };
    weights.set(schema, w);
  }
  return w;
}

/** 1 for the type, plus its fields with their arguments, its input fields or its enum values. */
function typeWeight(type: GraphQLNamedType): number {
  if (isObjectType(type) || isInterfaceType(type))
    return 1 + Object.values(type.getFields()).reduce((n, f) => n + 1 + f.args.length, 0);
  if (isInputObjectType(type)) return 1 + Object.keys(type.getFields()).length;
  if (isEnumType(type)) return 1 + type.getValues().length;
  return 1;
}
