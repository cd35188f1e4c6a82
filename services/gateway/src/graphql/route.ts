import { createHandler } from 'graphql-http/lib/use/express';
import type { GraphQLSchema } from 'graphql';
import express, { Router, type Request, type Response } from 'express';
import type { ApiVersion, RateLimiter } from '@civicgraph/kit';
import { contextOf, principalOf } from '../http/request-context.js';
import { count } from '../http/respond.js';
import type { GraphQLContext } from './context.js';

/** Largest GraphQL request body accepted. */
const BODY_LIMIT = '256kb';

/**
 * POST/GET /graphql over graphql-http; every operation counts against the rate limit. The
 * JSON body is parsed here, after the edge, so no other route (and no caller without a
 * key) pays for a body parser.
 */
export function graphqlRoute(schema: GraphQLSchema, limiter: RateLimiter): Router {
  const router = Router();
  const handler = createHandler<GraphQLContext>({
    schema,
    context: (req) => {
      const res = req.context.res;
      return { principal: principalOf(res), version: contextOf(res).version as ApiVersion };
    },
  });
  router.all('/graphql', express.json({ limit: BODY_LIMIT }), async (req: Request, res: Response, next) => {
    await count(res, limiter);
    handler(req, res, next);
  });
  return router;
}
