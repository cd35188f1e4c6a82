import type { ExportJob } from '@civicgraph/protos/civic/graph/v1/exports';

/** An export job as REST shows it (snake_case; numbers as numbers; null for what is not reached). */
export function exportView(job: ExportJob, origin: string) {
  const m = job.manifest;
  return {
    id: job.id,
    object: 'export',
    status: job.status,
    cadence: job.cadence,
    created_at: job.createdAt,
    started_at: job.startedAt || null,
    finished_at: job.finishedAt || null,
    progress: { rows_written: Number(job.rowsWritten), rows_total: Number(job.rowsTotal) },
    request: {
      kinds: job.request?.kinds ?? [],
      states: job.request?.states ?? [],
      formats: job.request?.formats ?? [],
      edges: job.request?.skipEdges !== true,
    },
    error: job.error || null,
    manifest:
      m === undefined
        ? null
        : {
            schema_version: m.schemaVersion,
            position: { seq: Number(m.seq) },
            snapshot_at: m.snapshotAt,
            policy: m.policy ?? null,
            files: m.files.map((f) => ({
              name: f.name,
              table: f.table,
              format: f.format,
              rows: Number(f.rows),
              bytes: Number(f.bytes),
              sha256: f.sha256,
              url: signedUrl(origin, job.id, f.name, f.linkExpires, f.linkSignature),
              url_expires_at: new Date(Number(f.linkExpires) * 1000).toISOString(),
            })),
          },
  };
}

function signedUrl(origin: string, id: string, name: string, expires: string, signature: string): string {
  const path = `/v1/exports/${encodeURIComponent(id)}/files/${encodeURIComponent(name)}`;
  return `${origin}${path}?expires=${expires}&signature=${signature}`;
}
