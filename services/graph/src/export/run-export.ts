import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { ExportFile, ExportManifest } from '@civicgraph/protos/civic/graph/v1/exports';
import type { GraphSnapshot } from '../store/snapshot/graph-snapshot.js';
import { MANIFEST_NAME, manifestJson, manifestOf } from './manifest.js';
import type { BoundarySource } from './boundaries.js';
import type { ExportSpec } from './spec.js';
import type { ExportStorage } from './storage/export-storage.js';
import { verifyFile } from './verify.js';
import { writeTables, type Progress } from './write-tables.js';

/**
 * One export, start to finish, from an open snapshot: every table written to staging, each
 * file verified, then published one by one and the manifest file last — so a reader that
 * finds the manifest finds every file it names, whole. The job store (worker) or the
 * operator (CLI) records the returned manifest. The caller closes the snapshot.
 */
export async function runExport(
  snapshot: GraphSnapshot,
  job: { id: string; principal: Principal; spec: ExportSpec; snapshotAt: Date },
  storage: ExportStorage,
  progress: Progress,
  boundaries?: BoundarySource,
): Promise<ExportManifest> {
  const dir = await storage.stage(job.id);
  try {
    const date = job.snapshotAt.toISOString().slice(0, 10);
    const written = await writeTables(
      snapshot,
      job.principal,
      job.spec,
      dir,
      progress,
      boundaries === undefined ? undefined : { source: boundaries, date },
    );
    const files: ExportFile[] = [];
    for (const file of written) files.push(await verifyFile(file));
    const manifest = manifestOf(job.principal, snapshot.seq, job.snapshotAt, files);
    for (const file of written) await storage.publish(job.id, file.name, file.path);
    const manifestPath = join(dir, MANIFEST_NAME);
    await writeFile(manifestPath, JSON.stringify(manifestJson(job.id, manifest), null, 2) + '\n');
    await storage.publish(job.id, MANIFEST_NAME, manifestPath);
    return manifest;
  } finally {
    await storage.unstage(job.id).catch(() => undefined);
  }
}
