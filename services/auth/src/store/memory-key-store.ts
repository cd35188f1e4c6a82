import type { KeyRecord } from '@civicgraph/protos/civic/auth/v1/auth';
import { byCreation, KeyConflictError, type KeyStore, type NewKey } from '../domain/key-store.js';

/**
 * An in-process KeyStore for tests and single-process use. Records are copied in and out,
 * so callers cannot change stored state by mutating what they passed or got back.
 */
export class MemoryKeyStore implements KeyStore {
  private readonly byId = new Map<string, KeyRecord>();
  private readonly idByHash = new Map<string, string>();
  private closed = false;

  async create({ record, hash }: NewKey): Promise<void> {
    this.assertOpen();
    if (this.byId.has(record.keyId) || this.idByHash.has(hash)) throw new KeyConflictError(record.keyId);
    this.byId.set(record.keyId, structuredClone(record));
    this.idByHash.set(hash, record.keyId);
  }

  async findByHash(hash: string): Promise<KeyRecord | undefined> {
    this.assertOpen();
    const id = this.idByHash.get(hash);
    return id === undefined ? undefined : this.copyOf(id);
  }

  async get(keyId: string): Promise<KeyRecord | undefined> {
    this.assertOpen();
    return this.copyOf(keyId);
  }

  async revoke(keyId: string, at: string): Promise<KeyRecord | undefined> {
    this.assertOpen();
    const record = this.byId.get(keyId);
    if (record === undefined) return undefined;
    if (record.revokedAt === '') record.revokedAt = at;
    return structuredClone(record);
  }

  async list(): Promise<KeyRecord[]> {
    this.assertOpen();
    return [...this.byId.values()].map((r) => structuredClone(r)).sort(byCreation);
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private copyOf(keyId: string): KeyRecord | undefined {
    const record = this.byId.get(keyId);
    return record === undefined ? undefined : structuredClone(record);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('key store is closed');
  }
}
