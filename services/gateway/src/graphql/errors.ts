import { GraphQLError } from 'graphql';
import { asCivicError, NotFoundError } from '@civicgraph/kit';

/** A typed error as a GraphQL error: same `type` and `field` as REST, in `extensions`. */
function toGraphQLError(err: unknown): GraphQLError {
  if (err instanceof GraphQLError) return err;
  const e = asCivicError(err);
  return new GraphQLError(e.type === 'internal' ? 'An internal error occurred.' : e.message, {
    extensions: { type: e.type, field: e.field ?? null, status: e.status },
  });
}

/** `err` with `extensions` added (a GraphQLError's own are fixed once made). */
export function withExtensions(err: GraphQLError, extensions: Record<string, unknown>): GraphQLError {
  return new GraphQLError(err.message, {
    nodes: err.nodes,
    source: err.source,
    positions: err.positions,
    path: err.path,
    extensions: { ...err.extensions, ...extensions },
  });
}

/** Wraps a resolver so anything it throws leaves as a typed GraphQL error. */
export function typed<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await fn(...args);
    } catch (err) {
      throw toGraphQLError(err);
    }
  };
}

/** An upstream answer, or null where it is not found (GraphQL's absent, REST's 404). */
export async function orAbsent<T>(answer: Promise<T>): Promise<T | null> {
  try {
    return await answer;
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}

/** Resolvers answering null for the named fields where the proto holds an empty string. */
export function emptyAsNull(...fields: string[]): Record<string, (source: Record<string, string>) => string | null> {
  return Object.fromEntries(fields.map((f) => [f, (source: Record<string, string>) => source[f] || null]));
}
