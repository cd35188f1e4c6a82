import { open, type Database, type RootDatabase } from 'lmdb';
import type { ContestRecord } from '../domain/contest-record.js';
import type { ResultsStore } from './results-store.js';

const SYNCED_AT = 'syncedAt';

/**
 * ResultsStore on LMDB (`${CIVIC_DATA_DIR}/results`), as the auth and webhooks services keep
 * theirs: `contests` (contest slug → its record, JSON), `rows` (result slug → contest slug)
 * and `meta`. A write touches all it changes in one transaction, so a record and the index
 * of its rows never disagree.
 */
export class LmdbResultsStore implements ResultsStore {
  private constructor(
    private readonly root: RootDatabase,
    private readonly contests: Database<ContestRecord, string>,
    private readonly rows: Database<string, string>,
    private readonly meta: Database<string, string>,
  ) {}

  /** Opens (creating if needed) the store in `path`. */
  static open(path: string): LmdbResultsStore {
    const root = open({ path });
    return new LmdbResultsStore(
      root,
      root.openDB<ContestRecord, string>('contests', { encoding: 'json' }),
      root.openDB<string, string>('rows', { encoding: 'string' }),
      root.openDB<string, string>('meta', { encoding: 'string' }),
    );
  }

  async contest(slug: string): Promise<ContestRecord | undefined> {
    return this.contests.get(slug);
  }

  async contestOf(resultSlug: string): Promise<string | undefined> {
    return this.rows.get(resultSlug);
  }

  async putContest(contest: string, record: ContestRecord | undefined): Promise<void> {
    this.root.transactionSync(() => {
      for (const row of this.contests.get(contest)?.rows ?? []) this.rows.removeSync(row.slug);
      if (record === undefined) {
        this.contests.removeSync(contest);
        return;
      }
      this.contests.putSync(contest, record);
      for (const row of record.rows) this.rows.putSync(row.slug, contest);
    });
  }

  async replaceAll(records: readonly ContestRecord[], syncedAt: string): Promise<void> {
    this.root.transactionSync(() => {
      for (const key of [...this.contests.getKeys()]) this.contests.removeSync(key);
      for (const key of [...this.rows.getKeys()]) this.rows.removeSync(key);
      for (const record of records) {
        this.contests.putSync(record.contest, record);
        for (const row of record.rows) this.rows.putSync(row.slug, record.contest);
      }
      this.meta.putSync(SYNCED_AT, syncedAt);
    });
  }

  async syncedAt(): Promise<string | undefined> {
    return this.meta.get(SYNCED_AT);
  }

  async close(): Promise<void> {
    await this.root.close();
  }
}
