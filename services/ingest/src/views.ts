import type { Run, SourceStatus as SourceMessage } from '@civicgraph/protos/civic/ingest/v1/ingest';
import type { SourceStatus } from './ingest.js';
import type { RunRecord } from './state/ingest-store.js';

/** A source and its state → civic.ingest.v1.SourceStatus. */
export function sourceView({ source, state }: SourceStatus): SourceMessage {
  return {
    id: source.id,
    name: source.name,
    publisher: source.publisher,
    licence: source.licence,
    format: source.format,
    covers: source.covers,
    urls: [
      ...source.files.flatMap((f) => (f.url === undefined ? [] : [f.url])),
      ...(source.tree?.archive === undefined ? [] : [source.tree.archive.url]),
    ],
    importer: source.import.kind,
    refreshHours: source.refreshHours,
    status: state.status,
    lastFetchAt: state.lastFetchAt ?? '',
    lastChangeAt: state.lastChangeAt ?? '',
    nextAttemptAt: state.nextAttemptAt ?? '',
    version: state.version ?? '',
    ...(state.rows === null ? {} : { rows: counts(state.rows) }),
    events: String(state.events ?? 0),
    error: state.error ?? '',
    failures: state.failures,
  };
}

export function runView(r: RunRecord): Run {
  return {
    id: r.id,
    source: r.source,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt ?? '',
    status: r.status,
    progress: String(r.progress),
    ...(r.rows === null ? {} : { rows: counts(r.rows) }),
    events: String(r.events ?? 0),
    error: r.error ?? '',
  };
}

function counts(r: { created: number; updated: number; unchanged: number; rejected: number }) {
  return {
    created: String(r.created),
    updated: String(r.updated),
    unchanged: String(r.unchanged),
    rejected: String(r.rejected),
  };
}
