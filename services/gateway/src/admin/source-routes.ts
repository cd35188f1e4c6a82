import express, { type Express, type Request, type Response } from 'express';
import type { Run, RowCounts, SourceStatus } from '@civicgraph/protos/civic/ingest/v1/ingest';
import { InvalidParameterError, NotFoundError } from '@civicgraph/kit';
import type { IngestUpstream } from '../upstream/ingest-client.js';
import { requireAdminToken } from './admin-token.js';

const BODY_LIMIT = '16kb';
const SOURCE_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * The admin sources API, for operators (the admin token, never API keys):
 *   GET  /admin/v1/sources       every public source with its last fetch, version, rows and status
 *   GET  /admin/v1/sources/runs  the newest import runs (`limit`, 1..500)
 *   POST /admin/v1/sources/runs  `{sources?: [id]}` queues runs now: 202, then watch the runs
 * A deployment without an ingest service answers 404 there, saying so.
 */
export function adminSourceRoutes(
  app: Express,
  ingest: IngestUpstream | undefined,
  adminToken: string | undefined,
): void {
  const guard = [requireAdminToken(adminToken), express.json({ limit: BODY_LIMIT })];
  if (ingest === undefined) {
    app.all(
      ['/admin/v1/sources', '/admin/v1/sources/runs'],
      guard,
      (_req: Request, _res: Response, next: (err?: unknown) => void) =>
        next(new NotFoundError("This deployment runs no ingest service (the gateway's INGEST_ADDR is unset).")),
    );
    return;
  }
  app.get('/admin/v1/sources', guard, async (_req: Request, res: Response) => {
    res.json({ object: 'list', data: (await ingest.listSources()).sources.map(sourceView), has_more: false });
  });
  app.get('/admin/v1/sources/runs', guard, async (req: Request, res: Response) => {
    const limit = limitParam(req.query['limit']);
    res.json({ object: 'list', data: (await ingest.listRuns(limit)).runs.map(runView), has_more: false });
  });
  app.post('/admin/v1/sources/runs', guard, async (req: Request, res: Response) => {
    const { queued } = await ingest.runSources(sourcesParam(req.body));
    res.status(202).json({ queued });
  });
}

function limitParam(v: unknown): number {
  if (v === undefined) return 50;
  if (typeof v !== 'string' || !/^\d{1,3}$/.test(v) || Number(v) < 1 || Number(v) > 500)
    throw new InvalidParameterError('limit', 'limit must be a whole number from 1 to 500.');
  return Number(v);
}

function sourcesParam(body: unknown): string[] {
  if (body === undefined || body === null || (typeof body === 'object' && !('sources' in body))) return [];
  const sources = (body as { sources?: unknown }).sources;
  if (
    !Array.isArray(sources) ||
    sources.length > 100 ||
    !sources.every((s) => typeof s === 'string' && SOURCE_ID.test(s))
  ) {
    throw new InvalidParameterError('sources', 'sources must be a list of source ids such as "fec-weball26".');
  }
  return sources as string[];
}

const orNull = (s: string): string | null => (s === '' ? null : s);
const counts = (r: RowCounts | undefined) =>
  r === undefined
    ? null
    : {
        created: Number(r.created),
        updated: Number(r.updated),
        unchanged: Number(r.unchanged),
        rejected: Number(r.rejected),
      };

function sourceView(s: SourceStatus) {
  return {
    id: s.id,
    name: s.name,
    publisher: s.publisher,
    licence: s.licence,
    format: s.format,
    covers: s.covers,
    urls: s.urls,
    importer: s.importer,
    refresh_hours: s.refreshHours,
    status: s.status,
    last_fetch_at: orNull(s.lastFetchAt),
    last_change_at: orNull(s.lastChangeAt),
    next_attempt_at: orNull(s.nextAttemptAt),
    version: orNull(s.version),
    rows: counts(s.rows),
    events: Number(s.events),
    error: orNull(s.error),
    failures: s.failures,
  };
}

function runView(r: Run) {
  return {
    id: r.id,
    source: r.source,
    status: r.status,
    started_at: r.startedAt,
    finished_at: orNull(r.finishedAt),
    progress: Number(r.progress),
    rows: counts(r.rows),
    events: Number(r.events),
    error: orNull(r.error),
  };
}
