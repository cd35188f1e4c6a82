import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { ExportFile, ExportManifest } from '@civicgraph/protos/civic/graph/v1/exports';
import type { ExportSpec } from '../spec.js';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';
export type Cadence = 'monthly' | 'on_demand';

/** An export job as stored: what to export, for whom, and how far it got. */
export interface JobRecord {
  id: string;
  status: JobStatus;
  cadence: Cadence;
  /** Monthly: `YYYY-MM`; on demand: ''. */
  month: string;
  /** The key that asked (on demand: the only key that sees it). */
  ownerKeyId: string;
  /** The policy fingerprint of the principal the rows are shaped for: who may download it. */
  shape: string;
  /** The principal the rows are shaped for, as it was when the job was made. */
  principal: Principal;
  spec: ExportSpec;
  createdAt: string;
  startedAt: string;
  finishedAt: string;
  /** Attempts begun; a job whose worker died is retried until MAX_ATTEMPTS. */
  attempts: number;
  /** While running: the instant (ms) after which another worker may take the job over. */
  leaseUntil: number;
  rowsWritten: number;
  rowsTotal: number;
  error: string;
  /** Set when the files are published: the last step of a successful export. */
  manifest: ExportManifest | undefined;
}

/** Attempts of one job before it is marked failed. */
export const MAX_ATTEMPTS = 3;

/** The manifest's files, without anything a reader could not check. */
export type ManifestFile = ExportFile;
