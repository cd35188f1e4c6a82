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

/**
 * An in-process KeyStore for tests and single-process use. Records are copied in and out,
 * so callers cannot change stored state by mutating what they passed or got back.
 */
export class MemoryKeyStore implements KeyStore {
  private readonly byId = new Map<string, KeyRecord>();
  private readonly secretsById = new Map<string, StoredSecret[]>();
  private readonly idByLookup = new Map<string, string>();
  private closed = false;

  async create({ record, secret }: NewKey): Promise<void> {
    this.assertOpen();
    if (this.byId.has(record.keyId) || this.idByLookup.has(secret.lookup)) throw new KeyConflictError(record.keyId);
    this.byId.set(record.keyId, structuredClone(record));
    this.secretsById.set(record.keyId, [{ ...secret }]);
    this.idByLookup.set(secret.lookup, record.keyId);
  }

  async findByLookup(lookup: string): Promise<FoundKey | undefined> {
    this.assertOpen();
    const id = this.idByLookup.get(lookup);
    const secret = id === undefined ? undefined : this.secretsById.get(id)?.find((s) => s.lookup === lookup);
    const record = id === undefined ? undefined : this.copyOf(id);
    return record === undefined || secret === undefined ? undefined : { record, secret: { ...secret } };
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

  async rotate(keyId: string, rotation: Rotation): Promise<KeyRecord | undefined> {
    this.assertOpen();
    const record = this.byId.get(keyId);
    if (record === undefined) return undefined;
    if (this.idByLookup.has(rotation.secret.lookup)) throw new KeyConflictError(keyId);
    const before = this.secretsById.get(keyId) ?? [];
    const after = rotatedSecrets(before, rotation);
    for (const s of before) if (!after.some((a) => a.lookup === s.lookup)) this.idByLookup.delete(s.lookup);
    this.idByLookup.set(rotation.secret.lookup, keyId);
    this.secretsById.set(keyId, after);
    const next = rotatedRecord(record, rotation);
    this.byId.set(keyId, next);
    return structuredClone(next);
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
