import { open, type Database, type RootDatabase } from 'lmdb';
import type { KeyRecord } from '@civicgraph/protos/civic/auth/v1/auth';
import { byCreation, KeyConflictError, type KeyStore, type NewKey } from '../domain/key-store.js';

/** Options of the LMDB key store. */
export interface LmdbKeyStoreOptions {
  /** Directory holding `data.mdb` and `lock.mdb`; created if missing. The service uses `${CIVIC_DATA_DIR}/auth`. */
  path: string;
}

/**
 * KeyStore on LMDB, shareable by several processes (the server and the `civicgraph keys`
 * CLI open the same directory). Two named databases: `keys` (key id → record, JSON) and
 * `hashes` (SHA-256 hex → key id). Both are written in one transaction, so the record and
 * its index never disagree, even when a process dies mid-write.
 */
export class LmdbKeyStore implements KeyStore {
  private constructor(
    private readonly root: RootDatabase,
    private readonly keys: Database<KeyRecord, string>,
    private readonly hashes: Database<string, string>,
  ) {}

  /** Opens (creating if needed) the store in `options.path`. */
  static open(options: LmdbKeyStoreOptions): LmdbKeyStore {
    const root = open({
      path: options.path,
      // overlappingSync (lmdb-js's default on Linux and macOS) lets a commit return before
      // it is flushed. Keys are written rarely and a key the CLI has printed must survive a
      // crash, so every commit here is flushed before it returns.
      overlappingSync: false,
    });
    const keys = root.openDB<KeyRecord, string>('keys', { encoding: 'json' });
    const hashes = root.openDB<string, string>('hashes', { encoding: 'string' });
    return new LmdbKeyStore(root, keys, hashes);
  }

  async create({ record, hash }: NewKey): Promise<void> {
    this.root.transactionSync(() => {
      if (this.keys.doesExist(record.keyId) || this.hashes.doesExist(hash)) throw new KeyConflictError(record.keyId);
      this.keys.putSync(record.keyId, record);
      this.hashes.putSync(hash, record.keyId);
    });
  }

  async findByHash(hash: string): Promise<KeyRecord | undefined> {
    this.freshSnapshot();
    const id = this.hashes.get(hash);
    return id === undefined ? undefined : this.keys.get(id);
  }

  async get(keyId: string): Promise<KeyRecord | undefined> {
    this.freshSnapshot();
    return this.keys.get(keyId);
  }

  async revoke(keyId: string, at: string): Promise<KeyRecord | undefined> {
    return this.root.transactionSync(() => {
      const record = this.keys.get(keyId);
      if (record === undefined || record.revokedAt !== '') return record;
      const revoked = { ...record, revokedAt: at };
      this.keys.putSync(keyId, revoked);
      return revoked;
    });
  }

  async list(): Promise<KeyRecord[]> {
    this.freshSnapshot();
    return [...this.keys.getRange()].map((e) => e.value).sort(byCreation);
  }

  async close(): Promise<void> {
    await this.root.close();
  }

  /**
   * lmdb-js reuses one read transaction until the next macrotask (setTimeout 0), and only
   * resets it early after a commit made through this same handle. Awaiting a promise is a
   * microtask, so without this a read could miss a key created or revoked by the CLI (or
   * by another handle on the same path) a moment ago. Resetting is cheap: the next read
   * renews the transaction on the newest snapshot.
   */
  private freshSnapshot(): void {
    this.root.resetReadTxn();
  }
}
