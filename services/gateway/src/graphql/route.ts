import { createHandler } from 'graphql-http/lib/use/express';
import { GraphQLError, type ExecutionResult } from 'graphql';
import express, { type Request, type Response, type Router } from 'express';
import type { RateLimiter } from '@civicgraph/kit';
import { contextOf, principalOf } from '../http/request-context.js';
import { count } from '../http/respond.js';
import { graphqlContext, type GraphQLContext } from './context.js';
import { OperationPreparer, typedError, type Prepared } from './prepare.js';
import type { SchemaVariants } from './stitch.js';

/** Largest GraphQL request body accepted. */
const BODY_LIMIT = '256kb';

/** What an operation was scored at, reported in `extensions.cost` of its result. */
const scored = new WeakMap<object, Prepared>();

/**
 * Every error leaves with a stable `extensions.type`: ours carry it already; what
 * graphql-js raises while coercing variables or executing is a bad parameter.
 */
function formatError(err: Readonly<GraphQLError | Error>): GraphQLError | Error {
  if (!(err instanceof GraphQLError)) return typedError('internal', 'An internal error occurred.');
  if (typeof err.extensions?.['type'] === 'string') return err;
  const field = err.path === undefined ? 'variables' : 'query';
  return new GraphQLError(err.message, { nodes: err.nodes, source: err.source, positions: err.positions, path: err.path, extensions: { ...err.extensions, type: 'invalid_parameter', field } });
}

/**
 * POST/GET /graphql over graphql-http. Each operation is prepared (limits, entitlements,
 * validation, depth and cost; see OperationPreparer) on the schema the caller's
 * entitlements shape, counts against the same per-key rate limit as REST, and reports its
 * cost in `extensions.cost`. The JSON body is parsed here, after the edge, so no other
 * route (and no caller without a key) pays for a body parser.
 */
export function graphqlRoute(router: Router, variants: SchemaVariants, limiter: RateLimiter): void {
  const preparer = new OperationPreparer(variants);
  const handler = createHandler<GraphQLContext>({
    onSubscribe: (req, params) => {
      const res = req.context.res;
      const principal = principalOf(res);
      const prepared = preparer.prepare(principal, params.query, params.operationName ?? undefined, params.variables ?? {});
      if (Array.isArray(prepared)) return prepared;
      const p = prepared as Prepared;
      const contextValue = graphqlContext(principal, contextOf(res).version ?? '');
      scored.set(contextValue, p);
      return { schema: p.schema, document: p.document, operationName: p.operationName, variableValues: p.variables, contextValue };
    },
    onOperation: (_req, args, result) => {
      const p = args.contextValue === undefined ? undefined : scored.get(args.contextValue);
      if (p === undefined) return;
      const r = result as ExecutionResult;
      return { ...r, extensions: { ...r.extensions, cost: { requested: p.analysis.cost, depth: p.analysis.depth, ceiling: p.ceiling } } };
    },
    formatError,
  });
  router.all('/graphql', express.json({ limit: BODY_LIMIT }), async (req: Request, res: Response, next) => {
    await count(res, limiter);
    if (Array.isArray(req.body)) {
      // Batches are not part of GraphQL over HTTP; refused whole, before any of them runs.
      res.status(400).type('application/json').send(JSON.stringify({ errors: [{ message: 'Send one operation per request; batched arrays are not accepted.', extensions: { type: 'invalid_parameter', field: 'body' } }] }));
      return;
    }
    handler(req, res, next);
  });
}
