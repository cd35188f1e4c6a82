import {
  getVariableValues,
  GraphQLError,
  Kind,
  parse,
  specifiedRules,
  validate,
  visit,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { queryBudget, type EntitlementName, type ErrorType } from '@civicgraph/kit';
import { analyzeOperation, MAX_WALKED_FIELDS, type Analysis } from './analyze.js';
import { withExtensions } from './errors.js';
import type { SchemaVariants } from './stitch.js';

/** Limits every document meets before its depth and cost are scored. */
const DOCUMENT_LIMITS = Object.freeze({
  /** Characters of the query text. */
  maxChars: 15_000,
  /** Lexical tokens (graphql-js stops parsing past it). */
  maxTokens: 3_000,
  /** Fields named under an alias, fragments expanded. */
  maxAliases: 100,
  /** Brackets (`{`, `[`, `(`) open at once: the parser recurses per level, so deeper text is refused before it runs. */
  maxNesting: 200,
});

/** The deepest bracket nesting of a GraphQL text, strings and comments skipped. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '#') {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i += 1;
    } else if (c === '"') {
      if (text.startsWith('"""', i)) {
        const end = text.indexOf('"""', i + 3);
        i = end < 0 ? text.length : end + 2;
      } else {
        for (i += 1; i < text.length && text[i] !== '"' && text[i] !== '\n'; i += 1) if (text[i] === '\\') i += 1;
      }
    } else if (c === '{' || c === '[' || c === '(') {
      depth += 1;
      if (depth > deepest) deepest = depth;
    } else if (c === '}' || c === ']' || c === ')') depth -= 1;
  }
  return deepest;
}

/** Documents kept parsed, validated and scored, per schema variant. */
const CACHE_SIZE = 1_000;

/** An operation ready to run, with what it will cost. */
export interface Prepared {
  schema: GraphQLSchema;
  document: DocumentNode;
  /** The operation of `document` that runs. */
  operation: OperationDefinitionNode;
  operationName: string | undefined;
  /** The request's variables, coerced to the operation's declared types. */
  variables: Record<string, unknown>;
  analysis: Analysis;
  ceiling: { depth: number; cost: number };
}

interface Checked {
  document?: DocumentNode;
  operation?: OperationDefinitionNode;
  operationName?: string;
  analysis?: Analysis;
  errors?: GraphQLError[];
}

/** A GraphQL error carrying the same `type` (and `field`) as a REST problem would. */
export function typedError(type: ErrorType, message: string, extensions: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { type, field: null, ...extensions } });
}

/**
 * Turns a request's query into an operation ready to run on the caller's schema, or into
 * the errors that refuse it, before anything executes: size and token limits, parsing,
 * fields withheld by an entitlement (refused as `entitlement_required` with their path,
 * not as unknown fields), validation against the caller's schema, aliases, then depth and
 * cost against the plan's ceilings. What depends only on the text and the schema variant is
 * cached, so a repeated document costs a map lookup.
 */
export class OperationPreparer {
  private readonly cache = new Map<string, Checked>();

  constructor(private readonly variants: SchemaVariants) {}

  prepare(
    principal: Principal,
    query: string,
    operationName: string | undefined,
    variables: Record<string, unknown> = {},
  ): Prepared | GraphQLError[] {
    if (query.length > DOCUMENT_LIMITS.maxChars) {
      return [
        typedError(
          'query_too_complex',
          `The query is ${query.length} characters long; at most ${DOCUMENT_LIMITS.maxChars} are accepted.`,
          { limit: 'document_size', score: query.length, ceiling: DOCUMENT_LIMITS.maxChars },
        ),
      ];
    }
    const { schema, held, key: variant } = this.variants.variant(principal);
    const key = `${variant}\n${operationName ?? ''}\n${query}`;
    let checked = this.cache.get(key);
    if (checked === undefined) {
      checked = this.check(schema, held, query, operationName);
      if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(key, checked);
    }
    if (checked.errors !== undefined) return checked.errors;
    const analysis = checked.analysis!;
    const budget = queryBudget(principal);
    const over = overBudget(analysis, budget);
    if (over !== undefined) return [over];
    // Coerced here, not during execution, so a variable of the wrong type is refused like
    // any other bad request (4xx), naming the variable.
    const coerced = getVariableValues(schema, checked.operation!.variableDefinitions ?? [], variables, {
      maxErrors: 20,
    });
    if (coerced.errors !== undefined) {
      return coerced.errors.map((e) => withExtensions(e, { type: 'invalid_parameter', field: 'variables' }));
    }
    return {
      schema,
      document: checked.document!,
      operation: checked.operation!,
      operationName: checked.operationName,
      variables: coerced.coerced,
      analysis,
      ceiling: { depth: budget.maxDepth, cost: budget.maxCost },
    };
  }

  private check(
    schema: GraphQLSchema,
    held: ReadonlySet<EntitlementName>,
    query: string,
    operationName: string | undefined,
  ): Checked {
    const nesting = nestingDepth(query);
    if (nesting > DOCUMENT_LIMITS.maxNesting) {
      return {
        errors: [
          typedError(
            'query_too_complex',
            `The query nests brackets ${nesting} deep; at most ${DOCUMENT_LIMITS.maxNesting} are accepted.`,
            { limit: 'nesting', score: nesting, ceiling: DOCUMENT_LIMITS.maxNesting },
          ),
        ],
      };
    }
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: DOCUMENT_LIMITS.maxTokens });
    } catch (err) {
      const e = err as GraphQLError;
      if (e.message.includes('tokens')) {
        return {
          errors: [
            typedError('query_too_complex', `The query has more than ${DOCUMENT_LIMITS.maxTokens} tokens.`, {
              limit: 'tokens',
              ceiling: DOCUMENT_LIMITS.maxTokens,
            }),
          ],
        };
      }
      return { errors: [withExtensions(e, { type: 'invalid_parameter', field: 'query' })] };
    }
    const operation = pickOperation(document, operationName);
    if (operation instanceof GraphQLError) return { errors: [operation] };
    const fragments = document.definitions.filter(
      (d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION,
    );
    // Scored against the whole schema first, so a field the key may not see is named as
    // such rather than reported as unknown.
    const full = analyzeOperation(this.variants.full, operation, fragments, this.variants.rules, held);
    // Before validation, whose cost grows with the expanded document: a fragment bomb ends here.
    if (full.truncated) {
      return {
        errors: [
          typedError('query_too_complex', `The query expands to more than ${MAX_WALKED_FIELDS} selections.`, {
            limit: 'selections',
            ceiling: MAX_WALKED_FIELDS,
          }),
        ],
      };
    }
    if (full.aliases > DOCUMENT_LIMITS.maxAliases) {
      return {
        errors: [
          typedError(
            'query_too_complex',
            `The query uses ${full.aliases} aliases; at most ${DOCUMENT_LIMITS.maxAliases} are accepted.`,
            { limit: 'aliases', score: full.aliases, ceiling: DOCUMENT_LIMITS.maxAliases },
          ),
        ],
      };
    }
    if (full.denied.length > 0) {
      return {
        errors: full.denied.map(
          (d) =>
            new GraphQLError(`${d.coordinate} requires the ${d.entitlement} entitlement, which this key lacks.`, {
              path: d.path,
              extensions: {
                type: 'entitlement_required',
                field: d.coordinate,
                entitlement: d.entitlement,
                path: d.path,
              },
            }),
        ),
      };
    }
    const invalid = validate(schema, document, specifiedRules, { maxErrors: 20 });
    if (invalid.length > 0) return { errors: invalid.map((e) => invalidQuery(document, e)) };
    // A valid document names only fields of the caller's schema, so the walk above is its score.
    return { document, operation, operationName: operation.name?.value ?? operationName, analysis: full };
  }
}

/**
 * A validation error as `invalid_parameter`. A bad argument value is named by its
 * argument (as REST names a bad parameter); anything else by `query`.
 */
function invalidQuery(document: DocumentNode, e: GraphQLError): GraphQLError {
  const at = e.nodes?.[0]?.loc;
  let field = 'query';
  if (at !== undefined) {
    visit(document, {
      Argument(arg) {
        if (
          arg.loc !== undefined &&
          arg.value.loc !== undefined &&
          arg.value.loc.start <= at.start &&
          at.end <= arg.value.loc.end
        )
          field = arg.name.value;
      },
    });
  }
  return withExtensions(e, { type: 'invalid_parameter', field });
}

/** The operation to run: the named one, or the only one. */
function pickOperation(
  document: DocumentNode,
  operationName: string | undefined,
): OperationDefinitionNode | GraphQLError {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (operationName !== undefined && operationName !== '') {
    const named = operations.find((o) => o.name?.value === operationName);
    return (
      named ??
      typedError(
        'invalid_parameter',
        `The document has no operation named ${JSON.stringify(operationName.slice(0, 80))}.`,
        { field: 'operationName' },
      )
    );
  }
  if (operations.length === 1) return operations[0]!;
  return typedError(
    'invalid_parameter',
    operations.length === 0
      ? 'The document holds no operation.'
      : 'The document holds several operations; name one in operationName.',
    { field: 'operationName' },
  );
}

/** Where a question too large for one GraphQL document belongs (the spec: heavy aggregate work goes to Cypher or bulk export). */
const AGGREGATES_HINT =
  'Ask for fewer items, or count and aggregate in Cypher (POST /v1/cypher, Build and Enterprise), which runs the work next to the data.';

/** The refusal of an operation over its plan's depth or cost ceiling, naming where it is deepest or costliest. */
function overBudget(a: Analysis, budget: { maxDepth: number; maxCost: number }): GraphQLError | undefined {
  if (a.depth > budget.maxDepth) {
    return typedError(
      'query_too_complex',
      `The query is ${a.depth} fields deep at ${a.deepestPath.join('.')}; this key's plan allows ${budget.maxDepth}.`,
      { limit: 'depth', score: a.depth, ceiling: budget.maxDepth, path: a.deepestPath },
    );
  }
  if (a.cost > budget.maxCost) {
    return typedError(
      'query_too_complex',
      `The query would cost ${a.cost}, most of it under ${a.costliestPath.join('.')}; this key's plan allows ${budget.maxCost}. ${AGGREGATES_HINT}`,
      { limit: 'cost', score: a.cost, ceiling: budget.maxCost, path: a.costliestPath },
    );
  }
  return undefined;
}
