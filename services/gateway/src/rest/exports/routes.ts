import express, { type Express, type Request, type Response } from 'express';
import { InvalidParameterError, servicePrincipal, type DeploymentEnvironment, type RateLimiter } from '@civicgraph/kit';
import type { CreateExportRequest } from '@civicgraph/protos/civic/graph/v1/exports';
import { count, sendUncached } from '../../http/respond.js';
import { principalOf } from '../../http/request-context.js';
import type { ExportsUpstream } from '../../upstream/exports-client.js';
import { sendExportFile } from './download.js';
import { exportView } from './views.js';

/** Largest request body: a handful of lists of words. */
const BODY_LIMIT = '16kb';
const BODY_FIELDS = new Set(['kinds', 'states', 'formats', 'edges']);
export const EXPORTS_PATH = '/v1/exports';

export interface ExportRouteDeps {
  exports: ExportsUpstream;
  limiter: RateLimiter;
  serves: DeploymentEnvironment;
}

/**
 * Downloads through a signed link: no key, the link's signature is the authority (checked
 * by the graph service), so these are served before the edge asks for a key. A request to
 * the same path without `signature` goes on to the keyed route.
 */
export function exportLinkRoutes(app: Express, deps: ExportRouteDeps): void {
  app.get(
    `${EXPORTS_PATH}/:id/files/:name`,
    (req, res, next) => (typeof req.query['signature'] === 'string' ? next() : next('route')),
    async (req, res) => {
      const link = { expires: digits(req.query['expires'], 'expires'), signature: String(req.query['signature']) };
      const caller = servicePrincipal('gateway', deps.serves);
      await sendExportFile(req, res, deps.exports, caller, { id: param(req, 'id'), name: param(req, 'name'), link });
    },
  );
}

/**
 * Bulk exports (Build and Enterprise; the plan gate in front answers Explore):
 *
 *   GET  /v1/exports                      the exports the key may download, newest first
 *   POST /v1/exports                      {kinds?, states?, formats?, edges?} → 202, a queued job (Enterprise; Idempotency-Key)
 *   GET  /v1/exports/{id}                 status, progress and, once done, the manifest with signed links
 *   GET  /v1/exports/{id}/files/{name}    the file (Range, ETag, Repr-Digest)
 *
 * The graph service holds the rules and the files (services/graph/src/export).
 */
export function exportRoutes(app: Express, deps: ExportRouteDeps): void {
  const json = express.json({ limit: BODY_LIMIT, type: () => true });
  const send = (res: Response, status: number, view: unknown) => sendUncached(res, deps.limiter, status, view);
  app.get(EXPORTS_PATH, async (req, res) => {
    const jobs = await deps.exports.list(principalOf(res));
    await send(res, 200, { data: jobs.map((j) => exportView(j, originOf(req))), next_cursor: null });
  });
  app.post(EXPORTS_PATH, json, async (req, res) => {
    const job = await deps.exports.create(principalOf(res), createRequestOf(req));
    res.setHeader('Location', `${EXPORTS_PATH}/${job.id}`);
    await send(res, 202, exportView(job, originOf(req)));
  });
  app.get(`${EXPORTS_PATH}/:id`, async (req, res) =>
    send(res, 200, exportView(await deps.exports.get(principalOf(res), param(req, 'id')), originOf(req))),
  );
  app.get(`${EXPORTS_PATH}/:id/files/:name`, async (req, res) => {
    await count(res, deps.limiter);
    await sendExportFile(req, res, deps.exports, principalOf(res), {
      id: param(req, 'id'),
      name: param(req, 'name'),
    });
  });
}

/** The POST body as the contract's request; a bad field is refused naming it. */
function createRequestOf(req: Request): CreateExportRequest {
  const body: unknown = req.body ?? {};
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new InvalidParameterError('body', 'The body must be a JSON object.');
  for (const key of Object.keys(body))
    if (!BODY_FIELDS.has(key))
      throw new InvalidParameterError(key, `Unknown field "${key}"; the fields are ${[...BODY_FIELDS].join(', ')}.`);
  const b = body as Record<string, unknown>;
  if (b['edges'] !== undefined && typeof b['edges'] !== 'boolean')
    throw new InvalidParameterError('edges', 'edges must be true or false.');
  const key = req.get('Idempotency-Key')?.trim() ?? '';
  return {
    kinds: words(b['kinds'], 'kinds'),
    states: words(b['states'], 'states'),
    formats: words(b['formats'], 'formats'),
    skipEdges: b['edges'] === false,
    idempotencyKey: key,
  };
}

function words(v: unknown, field: string): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > 64 || !v.every((w) => typeof w === 'string' && w.length <= 64))
    throw new InvalidParameterError(field, `${field} must be a list of words.`);
  return v as string[];
}

function param(req: Request, name: string): string {
  const v: unknown = req.params[name];
  return typeof v === 'string' ? v : '';
}

function digits(v: unknown, field: string): string {
  if (typeof v !== 'string' || !/^\d{1,12}$/.test(v))
    throw new InvalidParameterError(field, `${field} must be a whole number of seconds.`);
  return v;
}

/** Where the client reached us: signed links are absolute, on the same origin. */
function originOf(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}
