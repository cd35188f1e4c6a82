import { GraphQLError } from 'graphql';
import { asCivicError } from '@civicgraph/kit';

/** A typed error as a GraphQL error: same `type` and `field` as REST, in `extensions`. */
export function toGraphQLError(err: unknown): GraphQLError {
  if (err instanceof GraphQLError) return err;
  const e = asCivicError(err);
  return new GraphQLError(e.type === 'internal' ? 'An internal error occurred.' : e.message, {
    extensions: { type: e.type, field: e.field ?? null, status: e.status },
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
