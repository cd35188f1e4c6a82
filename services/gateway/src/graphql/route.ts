import { createHandler, type Handler } from 'graphql-http';
import { GraphQLError, type ExecutionResult } from 'graphql';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { RateLimiter } from '@civicgraph/kit';
import { responseKey, type ResponseCache } from '../cache/response-cache.js';
import { chargeAnswer, requestsFor } from './charge.js';
import { contextOf, principalOf } from '../http/request-context.js';
import { count } from '../http/respond.js';
import { graphqlContext, type GraphQLContext } from './context.js';
import { withExtensions } from './errors.js';
import { OperationPreparer, typedError, type Prepared } from './prepare.js';
import type { SchemaVariants } from './stitch.js';

/** Largest GraphQL request body accepted. */
const BODY_LIMIT = '256kb';

/** What an operation was scored at (reported in `extensions.cost`). */
const running = new WeakMap<object, { prepared: Prepared; res: Response }>();

/** A clean result to keep in the response cache once graphql-http has written it: what it was charged and the slugs behind it. */
interface Keepable {
  charged: number;
  slugs: string[];
}

/**
 * Every error leaves with a stable `extensions.type`: ours carry it already; what
 * graphql-js raises while coercing variables or executing is a bad parameter.
 */
function formatError(err: Readonly<GraphQLError | Error>): GraphQLError | Error {
  if (!(err instanceof GraphQLError)) return typedError('internal', 'An internal error occurred.');
  const type = err.extensions?.['type'];
  if (
    err.path !== undefined &&
    (type === 'response_too_large' || type === 'query_too_complex') &&
    err.extensions['field'] == null
  ) {
    // An outline refused as it resolved (geometry-cost.ts): the field is where, in the caller's own names.
    return withExtensions(err, { field: err.path.join('.') });
  }
  if (typeof type === 'string') return err;
  return withExtensions(err, { type: 'invalid_parameter', field: err.path === undefined ? 'variables' : 'query' });
}

/**
 * POST/GET /graphql over graphql-http. Each operation is prepared (limits, entitlements,
 * validation, depth and cost; see OperationPreparer) on the schema the caller's
 * entitlements shape, counts against the same per-key rate limit as REST, and reports its
 * cost in `extensions.cost`. The JSON body is parsed here, after the edge, so no other
 * route (and no caller without a key) pays for a body parser.
 */
export function graphqlRoute(
  router: Router,
  variants: SchemaVariants,
  limiter: RateLimiter,
  responses: ResponseCache,
): void {
  const preparer = new OperationPreparer(variants);
  const handler = createHandler<Request, { res: Response }, GraphQLContext>({
    onSubscribe: async (req, params) => {
      const res = req.context.res;
      const principal = principalOf(res);
      const p = preparer.prepare(principal, params.query, params.operationName ?? undefined, params.variables ?? {});
      if (Array.isArray(p)) return p;
      const contextValue = graphqlContext(principal, contextOf(res).version ?? '', p.analysis.cost);
      running.set(contextValue, { prepared: p, res });
      return {
        schema: p.schema,
        document: p.document,
        operationName: p.operationName,
        variableValues: p.variables,
        contextValue,
      };
    },
    onOperation: async (_req, args, result) => {
      const run = args.contextValue === undefined ? undefined : running.get(args.contextValue);
      if (run === undefined) return;
      const r = result as ExecutionResult;
      const p = run.prepared;
      const charged = requestsFor(r);
      const answered: ExecutionResult = {
        ...r,
        extensions: {
          ...r.extensions,
          cost: {
            requested: p.analysis.cost,
            spent: args.contextValue!.spend.cost,
            depth: p.analysis.depth,
            ceiling: p.ceiling,
            charged,
          },
        },
      };
      // Only clean results are kept: an error may be an upstream's passing failure.
      if (r.errors === undefined)
        run.res.locals['keepable'] = { charged, slugs: [...args.contextValue!.touched] } satisfies Keepable;
      await chargeAnswer(run.res, limiter, charged);
      return answered;
    },
    formatError,
  });
  router.all('/graphql', express.json({ limit: BODY_LIMIT }), async (req: Request, res: Response, next) => {
    // What a key may ask and see depends on the key, also for a GET an intermediary could keep.
    res.setHeader('Vary', 'Authorization, Civic-Version');
    res.setHeader('Cache-Control', 'private, no-cache');
    await count(res, limiter);
    const problem = Array.isArray(req.body)
      ? // Batches are not part of GraphQL over HTTP; refused whole, before any of them runs.
        { field: 'body', message: 'Send one operation per request; batched arrays are not accepted.' }
      : paramsProblem(
          req.method === 'GET'
            ? (req.query as Record<string, unknown>)
            : (req.body as Record<string, unknown> | undefined),
          req.method === 'GET',
        );
    if (problem !== undefined) {
      res
        .status(400)
        .type('application/json')
        .send(
          JSON.stringify({
            errors: [{ message: problem.message, extensions: { type: 'invalid_parameter', field: problem.field } }],
          }),
        );
      return;
    }
    // Everything the result depends on: the caller's policy, version and day (responseKey),
    // the media type asked for, and the operation with its variables.
    const params = (req.method === 'GET' ? req.query : req.body) as Record<string, unknown> | undefined;
    const key = responseKey(
      principalOf(res),
      contextOf(res).version ?? '',
      `graphql|${req.get('Accept') ?? ''}|${JSON.stringify([params?.['operationName'], params?.['variables'], params?.['query']])}`,
    );
    const cached = responses.get(key);
    res.setHeader('Civic-Cache', cached === undefined ? 'miss' : 'hit');
    if (cached !== undefined) {
      await chargeAnswer(res, limiter, cached.charged ?? 1);
      res.setHeader('Content-Type', cached.contentType ?? 'application/json');
      return void res.end(cached.body);
    }
    const generation = responses.mark();
    const answer = await serve(handler, req, res, next);
    const keep = res.locals['keepable'] as Keepable | undefined;
    if (answer === undefined || keep === undefined) return;
    const body = Buffer.from(answer.body);
    responses.set(
      key,
      {
        body,
        cacheControl: 'private, no-cache',
        contentType: answer.contentType,
        charged: keep.charged,
      },
      keep.slugs,
      generation,
    );
  });
}

/**
 * What is wrong with a request's parameters, before graphql-http reads them: `query` a
 * string, `operationName` a string, `variables` and `extensions` objects (JSON text in a
 * GET's query string). undefined when they are well formed (or absent: the handler says so).
 */
function paramsProblem(
  params: Record<string, unknown> | undefined,
  fromQueryString: boolean,
): { field: string; message: string } | undefined {
  if (params === undefined || params === null || typeof params !== 'object') return undefined;
  const { query, operationName } = params;
  if (query !== undefined && typeof query !== 'string')
    return { field: 'query', message: 'query must be a string holding a GraphQL document.' };
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string')
    return { field: 'operationName', message: 'operationName must be a string.' };
  for (const field of ['variables', 'extensions']) {
    let value = params[field];
    if (value === undefined || value === null) continue;
    if (fromQueryString && typeof value === 'string') {
      try {
        value = JSON.parse(value);
      } catch {
        return { field, message: `${field} must be a JSON object.` };
      }
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { field, message: `${field} must be a JSON object.` };
  }
  return undefined;
}

/**
 * graphql-http's handler over express, answering with a Content-Length (its own express
 * adapter sends every answer chunked) and handing a failure of the handler itself to the
 * problem handler instead of printing it.
 */
async function serve(
  handler: Handler<Request, { res: Response }>,
  req: Request,
  res: Response,
  next: NextFunction,
): Promise<{ body: string; contentType: string } | undefined> {
  let answer;
  try {
    answer = await handler({
      url: req.url,
      method: req.method,
      headers: req.headers,
      body: () => (req.body as Record<string, unknown> | undefined) ?? null,
      raw: req,
      context: { res },
    });
  } catch (err) {
    return void next(err);
  }
  const [body, init] = answer;
  for (const [name, value] of Object.entries(init.headers ?? {})) if (value !== undefined) res.setHeader(name, value);
  res.statusCode = init.status;
  res.end(body ?? undefined);
  return typeof body === 'string' && init.status === 200
    ? { body, contentType: String(init.headers?.['content-type'] ?? 'application/json') }
    : undefined;
}
