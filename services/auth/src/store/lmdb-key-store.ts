import { open, type Database, type RootDatabase } from 'lmdb';
import type { KeyRecord } from '@civicgraph/protos/civic/auth/v1/auth';
import type { StoredSecret } from '../domain/key-hasher.js';
import {
  byCreation,
  KeyConflictError,
  rotatedRecord,
  rotatedSecrets,
  type FoundKey,
  type KeyStore,
  type NewKey,
  type Rotation,
} from '../domain/key-store.js';

/** Options of the LMDB key store. */
export interface LmdbKeyStoreOptions {
  /** Directory holding `data.mdb` and `lock.mdb`; created if missing. The service uses `${CIVIC_DATA_DIR}/auth`. */
  path: string;
}

/**
 * KeyStore on LMDB, shareable by several processes (the server and the `civicgraph keys`
 * CLI open the same directory). Three named databases: `keys` (key id → record, JSON),
 * `secrets` (key id → its sealed secrets, JSON) and `lookups` (lookup digest → key id).
 * A change writes all it touches in one transaction, so a record and its index never
 * disagree, even when a process dies mid-write.
 */
export class LmdbKeyStore implements KeyStore {
  private constructor(
    private readonly root: RootDatabase,
    private readonly keys: Database<KeyRecord, string>,
    private readonly secrets: Database<StoredSecret[], string>,
    private readonly lookups: Database<string, string>,
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
    const secrets = root.openDB<StoredSecret[], string>('secrets', { encoding: 'json' });
    const lookups = root.openDB<string, string>('lookups', { encoding: 'string' });
    return new LmdbKeyStore(root, keys, secrets, lookups);
  }

  async create({ record, secret }: NewKey): Promise<void> {
    this.root.transactionSync(() => {
      if (this.keys.doesExist(record.keyId) || this.lookups.doesExist(secret.lookup))
        throw new KeyConflictError(record.keyId);
      this.keys.putSync(record.keyId, record);
      this.secrets.putSync(record.keyId, [secret]);
      this.lookups.putSync(secret.lookup, record.keyId);
    });
  }

  async findByLookup(lookup: string): Promise<FoundKey | undefined> {
    this.freshSnapshot();
    const id = this.lookups.get(lookup);
    if (id === undefined) return undefined;
    const record = this.keys.get(id);
    const secret = this.secrets.get(id)?.find((s) => s.lookup === lookup);
    return record === undefined || secret === undefined ? undefined : { record, secret };
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

  async rotate(keyId: string, rotation: Rotation): Promise<KeyRecord | undefined> {
    return this.root.transactionSync(() => {
      const record = this.keys.get(keyId);
      if (record === undefined) return undefined;
      if (this.lookups.doesExist(rotation.secret.lookup)) throw new KeyConflictError(keyId);
      const before = this.secrets.get(keyId) ?? [];
      const after = rotatedSecrets(before, rotation);
      for (const s of before) if (!after.some((a) => a.lookup === s.lookup)) this.lookups.removeSync(s.lookup);
      this.lookups.putSync(rotation.secret.lookup, keyId);
      this.secrets.putSync(keyId, after);
      const next = rotatedRecord(record, rotation);
      this.keys.putSync(keyId, next);
      return next;
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
