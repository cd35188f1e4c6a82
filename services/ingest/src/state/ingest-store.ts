import { open, type Database, type RootDatabase } from 'lmdb';
import type { Validators } from '../fetch/fetch-file.js';

/** Rows an import counted. */
export interface RowCounts {
  created: number;
  updated: number;
  unchanged: number;
  rejected: number;
}

/** What the ingest service knows of one source: its last fetch, version, outcome and schedule. */
export interface SourceState {
  id: string;
  /** `never` fetched; `ok` the last attempt succeeded (changed or not); `failed` it did not (the previous data still serves). */
  status: 'never' | 'ok' | 'failed';
  lastFetchAt: string | null;
  /** When a fetch last found new content and imported it. */
  lastChangeAt: string | null;
  /** SHA-256 of the content imported last (every file, by name). */
  hash: string | null;
  /** The reader revision it was imported under (`READER_REVISIONS`); absent in states saved before there were any. */
  readerRevision?: number;
  /** Per file: the ETag / Last-Modified its host sent, for the next conditional fetch. */
  validators: Record<string, Validators>;
  /** What identifies the version held: an ETag, a Last-Modified, else the content hash. */
  version: string | null;
  /** Rows and events of the last import that ran. */
  rows: RowCounts | null;
  events: number | null;
  /** Why the last attempt failed; null when it did not. */
  error: string | null;
  /** Failures in a row, for the backoff. */
  failures: number;
  /** When the scheduler tries next (refresh interval, or backoff after a failure). */
  nextAttemptAt: string | null;
}

/** One run of one source: a job with its status, progress and outcome. */
export interface RunRecord {
  id: string;
  source: string;
  startedAt: string;
  finishedAt: string | null;
  /** `running`; `changed` (new content imported); `unchanged` (nothing new, nothing imported); `failed`. */
  status: 'running' | 'changed' | 'unchanged' | 'failed';
  /** Rows the import read: 0 while it runs (the owning service answers for the whole source at once). */
  progress: number;
  rows: RowCounts | null;
  events: number | null;
  error: string | null;
}

export function freshState(id: string): SourceState {
  return {
    id,
    status: 'never',
    lastFetchAt: null,
    lastChangeAt: null,
    hash: null,
    validators: {},
    version: null,
    rows: null,
    events: null,
    error: null,
    failures: 0,
    nextAttemptAt: null,
  };
}

/** Most runs kept; older ones are dropped. */
const KEEP_RUNS = 500;

/**
 * The ingest service's state in LMDB at `${CIVIC_DATA_DIR}/ingest/state`, shared with the
 * CLI (`civicgraph sources list|status`) the way the key store is: sources by id, runs by
 * start time.
 */
export class IngestStore {
  private constructor(
    private readonly root: RootDatabase,
    private readonly sources: Database<SourceState, string>,
    private readonly runLog: Database<RunRecord, string>,
  ) {}

  static open(path: string): IngestStore {
    const root = open({ path, overlappingSync: false });
    return new IngestStore(
      root,
      root.openDB<SourceState, string>('sources', { encoding: 'json' }),
      root.openDB<RunRecord, string>('runs', { encoding: 'json' }),
    );
  }

  state(id: string): SourceState {
    this.root.resetReadTxn();
    return this.sources.get(id) ?? freshState(id);
  }

  async saveState(state: SourceState): Promise<void> {
    await this.sources.put(state.id, state);
  }

  /** Newest first. */
  runs(limit = 50): RunRecord[] {
    this.root.resetReadTxn();
    return [...this.runLog.getRange({ reverse: true, limit })].map((e) => e.value);
  }

  async saveRun(run: RunRecord): Promise<void> {
    await this.runLog.put(run.id, run);
    const keys = [...this.runLog.getKeys({ reverse: true })];
    for (const old of keys.slice(KEEP_RUNS)) await this.runLog.remove(old);
  }

  async close(): Promise<void> {
    await this.root.close();
  }
}
