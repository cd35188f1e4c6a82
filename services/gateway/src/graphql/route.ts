import { createHandler } from 'graphql-http/lib/use/express';
import type { GraphQLSchema } from 'graphql';
import { Router, type Request, type Response } from 'express';
import type { ApiVersion, RateLimiter } from '@civicgraph/kit';
import { contextOf, principalOf } from '../http/request-context.js';
import { count } from '../http/respond.js';
import type { GraphQLContext } from './context.js';

/** POST/GET /graphql over graphql-http; every operation counts against the rate limit. */
export function graphqlRoute(schema: GraphQLSchema, limiter: RateLimiter): Router {
  const router = Router();
  const handler = createHandler<GraphQLContext>({
    schema,
    context: (req) => {
      const res = req.context.res;
      return { principal: principalOf(res), version: contextOf(res).version as ApiVersion };
    },
  });
  router.all('/graphql', async (req: Request, res: Response, next) => {
    await count(res, limiter);
    handler(req, res, next);
  });
  return router;
}
