import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { ExportFile, ExportManifest, ExportPolicy } from '@civicgraph/protos/civic/graph/v1/exports';
import { contactVisible, environmentOf } from '@civicgraph/kit';

/**
 * The version of the files' layout: names (`<table>.<ext>`), the row shape of NDJSON (the
 * node as its events show it), the fixed columns of CSV and Parquet. Raised on any change a
 * loader would notice.
 */
export const EXPORT_SCHEMA_VERSION = 1;

/** The manifest file published last, beside the data files. */
export const MANIFEST_NAME = 'manifest.json';

/** The policy the rows were shaped by, as the manifest states it. */
export function policyOf(p: Principal): ExportPolicy {
  return {
    environment: environmentOf(p),
    contact: contactVisible(p),
    states: [...(p.entitlements?.states ?? [])].sort(),
    tiers: [...(p.entitlements?.tiers ?? [])].sort(),
  };
}

export function manifestOf(p: Principal, seq: number, snapshotAt: Date, files: ExportFile[]): ExportManifest {
  return {
    schemaVersion: EXPORT_SCHEMA_VERSION,
    seq: String(seq),
    snapshotAt: snapshotAt.toISOString(),
    policy: policyOf(p),
    files,
  };
}

/** The manifest as its JSON file holds it (REST's snake_case words, numbers as numbers). */
export function manifestJson(id: string, m: ExportManifest): object {
  return {
    id,
    schema_version: m.schemaVersion,
    position: { seq: Number(m.seq) },
    snapshot_at: m.snapshotAt,
    policy: m.policy,
    files: m.files.map((f) => ({
      name: f.name,
      table: f.table,
      format: f.format,
      rows: Number(f.rows),
      bytes: Number(f.bytes),
      sha256: f.sha256,
    })),
  };
}
