import express, { type Express, type Request, type Response } from 'express';
import { assertJsonDepth, InvalidParameterError, type RateLimiter, type VersionRegistry } from '@civicgraph/kit';
import type { CypherResponse } from '@civicgraph/protos/civic/graph/v1/graph';
import { ANY_CHANGE, slugsIn, type ResponseCache } from '../../cache/response-cache.js';
import { principalOf } from '../../http/request-context.js';
import { CACHE_CANDIDACY, CACHE_GEOGRAPHIC, count, sendCacheable } from '../../http/respond.js';
import type { GraphUpstream } from '../../upstream/graph-client.js';
import { serveCached } from '../endpoint.js';
import { P, query, readParams } from '../schema/params.js';

/** Deepest nesting of a parameter value: protobuf's Struct, which carries them, recurses. */
const MAX_PARAMETER_DEPTH = 32;

/** The longest query text read; a longer one is refused naming `query`. */
export const MAX_QUERY_LENGTH = 16_384;

/** Largest POST body (the query and its parameters). */
const BODY_LIMIT = '256kb';

export const NDJSON = 'application/x-ndjson';

interface CypherDeps {
  graph: GraphUpstream;
  limiter: RateLimiter;
  responses: ResponseCache;
  versions: VersionRegistry;
}

const GET_PARAMS = [
  query(
    'query',
    'The Cypher query.',
    { type: 'string', maxLength: MAX_QUERY_LENGTH },
    'MATCH (p:Party) RETURN p.name',
    true,
  ),
  query('parameters', 'The values of its `$name` parameters, as a JSON object.', { type: 'string' }, '{"state":"co"}'),
  P.minConfidence,
];

/**
 * The Cypher layer (Build and Enterprise; the plan gate in front answers Explore):
 *
 *   POST /v1/cypher          {query, parameters?, min_confidence?} → {columns, rows, stats}
 *   GET  /v1/cypher?query=…  the same, cacheable (ETag, revalidation, the response cache)
 *   GET  /v1/cypher/schema   labels, properties and relationship types, as this key may query them
 *
 * `Accept: application/x-ndjson` answers a line of columns, a line per row, and a line of
 * stats. The graph service parses, checks and runs the query (services/graph/src/cypher).
 */
export function cypherRoutes(app: Express, deps: CypherDeps): void {
  const json = express.json({ limit: BODY_LIMIT, type: () => true });

  app.get('/v1/cypher/schema', async (req, res) => {
    const schema = await deps.graph.cypherSchema(principalOf(res));
    const body = Buffer.from(JSON.stringify(schema));
    await sendCacheable(req, res, deps.limiter, { body, cacheControl: CACHE_GEOGRAPHIC });
  });
  app.get('/v1/cypher', async (req, res) => {
    const params = readParams(GET_PARAMS, req.query);
    const ask = {
      query: params['query'] as string,
      parameters: parametersOf(params['parameters'] as string | undefined),
      minConfidence: params['min_confidence'] as number,
    };
    if (wantsNdjson(req)) return sendNdjson(res, deps.limiter, await deps.graph.cypher(principalOf(res), ask));
    await serveCached(
      req,
      res,
      deps,
      CACHE_CANDIDACY,
      async () => answerView(await deps.graph.cypher(principalOf(res), ask)),
      // An aggregate may depend on any node, named in it or not: any change drops it.
      (view) => [...slugsIn(view.rows), ANY_CHANGE],
    );
  });
  app.post('/v1/cypher', json, async (req, res) => {
    const answer = await deps.graph.cypher(principalOf(res), cypherAsk(req.body));
    if (wantsNdjson(req)) return sendNdjson(res, deps.limiter, answer);
    await count(res, deps.limiter);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(JSON.stringify(answerView(answer)));
  });
}

/** The answer as the API writes it (snake_case stats). */
export function answerView(a: CypherResponse): { columns: string[]; rows: unknown[][]; stats: Record<string, number> } {
  const s = a.stats;
  return {
    columns: a.columns,
    rows: a.rows,
    stats: {
      rows_examined: s?.rowsExamined ?? 0,
      rows_returned: s?.rowsReturned ?? 0,
      elapsed_ms: Math.round((s?.elapsedMs ?? 0) * 10) / 10,
    },
  };
}

function wantsNdjson(req: Request): boolean {
  return req.accepts(['application/json', NDJSON]) === NDJSON;
}

/** NDJSON: `{"columns":[…]}`, then one JSON array per row, then `{"stats":{…}}`. */
async function sendNdjson(res: Response, limiter: RateLimiter, a: CypherResponse): Promise<void> {
  await count(res, limiter);
  const view = answerView(a);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Type', `${NDJSON}; charset=utf-8`);
  const lines = [
    JSON.stringify({ columns: view.columns }),
    ...view.rows.map((r) => JSON.stringify(r)),
    JSON.stringify({ stats: view.stats }),
  ];
  res.end(`${lines.join('\n')}\n`);
}

/** A Cypher question: the query, its parameters, and the confidence floor. */
interface CypherAsk {
  query: string;
  parameters: Record<string, unknown>;
  minConfidence: number;
}

/** POST's body (and the agent's cypher arguments): `{query, parameters?, min_confidence?}`, each checked, the bad field named. */
export function cypherAsk(b: unknown): CypherAsk {
  if (b === null || typeof b !== 'object' || Array.isArray(b))
    throw new InvalidParameterError('body', 'Send a JSON object: {"query": "MATCH …", "parameters": {…}}.');
  const { query: q, parameters, min_confidence: minConfidence, ...rest } = b as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined)
    throw new InvalidParameterError(
      unknown.slice(0, 100),
      `Unknown field "${unknown.slice(0, 100)}". Accepted: query, parameters, min_confidence.`,
    );
  if (typeof q !== 'string' || q.trim() === '')
    throw new InvalidParameterError('query', 'query must be a non-empty string.');
  if (q.length > MAX_QUERY_LENGTH)
    throw new InvalidParameterError('query', `query is longer than ${MAX_QUERY_LENGTH} characters.`);
  if (parameters !== undefined && (parameters === null || typeof parameters !== 'object' || Array.isArray(parameters)))
    throw new InvalidParameterError('parameters', 'parameters must be a JSON object of values by name.');
  if (minConfidence !== undefined && (typeof minConfidence !== 'number' || !(minConfidence >= 0 && minConfidence <= 1)))
    throw new InvalidParameterError('min_confidence', 'min_confidence must be a number between 0 and 1.');
  assertJsonDepth(parameters ?? {}, MAX_PARAMETER_DEPTH, 'parameters');
  return { query: q, parameters: (parameters ?? {}) as Record<string, unknown>, minConfidence: minConfidence ?? 0 };
}

/** GET's `parameters`: a JSON object, or nothing. */
function parametersOf(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined) return {};
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw new InvalidParameterError(
      'parameters',
      'parameters must be a JSON object (URL-encoded), e.g. {"state":"co"}.',
    );
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw new InvalidParameterError('parameters', 'parameters must be a JSON object of values by name.');
  assertJsonDepth(v, MAX_PARAMETER_DEPTH, 'parameters');
  return v as Record<string, unknown>;
}
