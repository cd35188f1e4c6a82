import type { KeyRecord } from '@civicgraph/protos/civic/auth/v1/auth';

/** A key to be stored: its record and the SHA-256 hex of its secret. The secret never is. */
export interface NewKey {
  record: KeyRecord;
  /** `hashKey(secret)`: the only form in which a key's secret reaches a store. */
  hash: string;
}

/**
 * Where key records live. Several processes may share one store (the server and the
 * `civicgraph keys` CLI), so every read reflects writes committed by any of them.
 */
export interface KeyStore {
  /** Stores a new key atomically: record and hash index together. Throws KeyConflictError on a taken id or hash. */
  create(key: NewKey): Promise<void>;
  /** The record whose secret hashes to `hash`, revoked or not. */
  findByHash(hash: string): Promise<KeyRecord | undefined>;
  /** The record with this id, revoked or not. */
  get(keyId: string): Promise<KeyRecord | undefined>;
  /**
   * Marks the key revoked at `at` (RFC 3339) unless it already is; returns the record as
   * stored afterwards (an earlier revocation keeps its instant), or undefined if unknown.
   */
  revoke(keyId: string, at: string): Promise<KeyRecord | undefined>;
  /** Every record, oldest first (ties by id). */
  list(): Promise<KeyRecord[]>;
  /** Releases the store; later calls fail. */
  close(): Promise<void>;
}

/** A new key's id or hash is already stored. With random ids and keys this means a bug. */
export class KeyConflictError extends Error {
  constructor(readonly keyId: string) {
    super(`key id or key hash already stored (${keyId})`);
    this.name = 'KeyConflictError';
  }
}

/** Oldest first, ties broken by id, so listings are stable across adapters. */
export function byCreation(a: KeyRecord, b: KeyRecord): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.keyId < b.keyId ? -1 : a.keyId > b.keyId ? 1 : 0;
}
