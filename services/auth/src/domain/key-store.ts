import type { KeyRecord } from '@civicgraph/protos/civic/auth/v1/auth';
import type { StoredSecret } from './key-hasher.js';

/** A key to be stored: its record and its sealed secret. The key itself never is. */
export interface NewKey {
  record: KeyRecord;
  secret: StoredSecret;
}

/** A key found by the lookup digest of a presented secret: its record and that secret. */
export interface FoundKey {
  record: KeyRecord;
  secret: StoredSecret;
}

/** A rotation: the new secret, its display prefix, when, and until when older secrets work. */
export interface Rotation {
  secret: StoredSecret;
  keyPrefix: string;
  /** RFC 3339 instant of the rotation. */
  at: string;
  /** RFC 3339 instant at which the secrets in use before the rotation stop working. */
  previousExpiresAt: string;
}

/**
 * Where key records live. Several processes may share one store (the server and the
 * `civicgraph keys` CLI), so every read reflects writes committed by any of them.
 */
export interface KeyStore {
  /** Stores a new key atomically: record and secret together. Throws KeyConflictError on a taken id or lookup. */
  create(key: NewKey): Promise<void>;
  /** The key holding a secret with this lookup digest, revoked or expired or not. */
  findByLookup(lookup: string): Promise<FoundKey | undefined>;
  /** The record with this id, revoked or not. */
  get(keyId: string): Promise<KeyRecord | undefined>;
  /**
   * Marks the key revoked at `at` (RFC 3339) unless it already is; returns the record as
   * stored afterwards (an earlier revocation keeps its instant), or undefined if unknown.
   */
  revoke(keyId: string, at: string): Promise<KeyRecord | undefined>;
  /**
   * Adds the rotation's secret to the key atomically: secrets already expired at
   * `rotation.at` are dropped, the others expire at `previousExpiresAt` at the latest, and
   * the record names the new prefix. Returns the updated record, or undefined if unknown.
   */
  rotate(keyId: string, rotation: Rotation): Promise<KeyRecord | undefined>;
  /** Every record, oldest first (ties by id). */
  list(): Promise<KeyRecord[]>;
  /** Releases the store; later calls fail. */
  close(): Promise<void>;
}

/** A new key's id or lookup is already stored. With random ids and keys this means a bug. */
export class KeyConflictError extends Error {
  constructor(readonly keyId: string) {
    super(`key id or key lookup already stored (${keyId})`);
    this.name = 'KeyConflictError';
  }
}

/** Oldest first, ties broken by id, so listings are stable across adapters. */
export function byCreation(a: KeyRecord, b: KeyRecord): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.keyId < b.keyId ? -1 : a.keyId > b.keyId ? 1 : 0;
}

/**
 * The secrets a key keeps after a rotation (shared by the adapters, so they agree): the
 * unexpired ones, each ending by `previousExpiresAt`, then the new one.
 */
export function rotatedSecrets(current: readonly StoredSecret[], rotation: Rotation): StoredSecret[] {
  const kept = current
    .filter((s) => s.expiresAt === '' || s.expiresAt > rotation.at)
    .map((s) => ({
      ...s,
      expiresAt:
        s.expiresAt === '' || s.expiresAt > rotation.previousExpiresAt ? rotation.previousExpiresAt : s.expiresAt,
    }));
  return [...kept, rotation.secret];
}

/** The record after a rotation: new prefix, the instant, and the previous secret's terms. */
export function rotatedRecord(record: KeyRecord, rotation: Rotation): KeyRecord {
  return {
    ...record,
    keyPrefix: rotation.keyPrefix,
    rotatedAt: rotation.at,
    previousKeyPrefix: record.keyPrefix,
    previousKeyExpiresAt: rotation.previousExpiresAt,
  };
}
