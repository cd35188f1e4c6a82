import { InvalidParameterError, NotFoundError, UnauthenticatedError } from '@civicgraph/kit';
import type { CreateKeyRequest, KeyRecord, Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { KeyStore } from './key-store.js';
import type { RandomSource } from '@civicgraph/kit';
import { displayPrefix, generateKey, generateKeyId, hashKey, parseKey } from './keys.js';
import { keyTerms, normaliseLabel } from './new-key.js';
import { PLAN_RATE_LIMITS } from './plans.js';

/** Collaborators of the KeyService. */
export interface KeyServiceOptions {
  store: KeyStore;
  /** The current instant; injectable for tests. Default: the system clock. */
  clock?: () => Date;
  /** Random bytes for keys and ids; injectable for tests. Default: crypto.randomBytes. */
  random?: RandomSource;
}

/** A key as issued: the secret (shown once, never stored) and its record. */
export interface IssuedKey {
  key: string;
  record: KeyRecord;
}

/**
 * One message for every failed authentication, so a caller cannot tell a malformed key
 * from an unknown or a revoked one.
 */
export const AUTHENTICATION_FAILED = 'The API key is missing, malformed, unknown or revoked.';

/** Issues, authenticates, revokes and lists API keys. No I/O of its own beyond the store. */
export class KeyService {
  private readonly store: KeyStore;
  private readonly clock: () => Date;
  private readonly random: RandomSource | undefined;

  constructor(options: KeyServiceOptions) {
    this.store = options.store;
    this.clock = options.clock ?? (() => new Date());
    this.random = options.random;
  }

  /** Issues a key under the plan rules; only its hash is stored. */
  async create(req: CreateKeyRequest): Promise<IssuedKey> {
    const terms = keyTerms(req);
    const label = normaliseLabel(req.label);
    const key = generateKey(terms.environment, this.random);
    const keyId = generateKeyId(this.random);
    const record: KeyRecord = {
      keyId,
      keyPrefix: displayPrefix(key),
      label,
      principal: { keyId, ...terms },
      createdAt: this.now(),
      revokedAt: '',
    };
    await this.store.create({ record, hash: hashKey(key) });
    return { key, record };
  }

  /** The principal of an active key; anything else is one indistinct UnauthenticatedError. */
  async authenticate(rawKey: string): Promise<Principal> {
    const parsed = parseKey(rawKey);
    if (parsed === undefined) throw new UnauthenticatedError(AUTHENTICATION_FAILED);
    const record = await this.store.findByHash(hashKey(parsed.key));
    const principal = record?.principal;
    if (!record || !principal || record.revokedAt !== '' || principal.environment !== parsed.environment) {
      throw new UnauthenticatedError(AUTHENTICATION_FAILED);
    }
    return withCurrentLimit(principal);
  }

  /** Revokes a key; revoking a revoked key returns it unchanged. Unknown ids are NotFoundError. */
  async revoke(keyId: string): Promise<KeyRecord> {
    if (keyId === '') throw new InvalidParameterError('key_id', 'key_id is required.');
    const record = await this.store.revoke(keyId, this.now());
    if (record === undefined) throw new NotFoundError(`No key has id ${JSON.stringify(keyId)}.`);
    return record;
  }

  /** Every key record, revoked ones included, oldest first. */
  async list(): Promise<KeyRecord[]> {
    return this.store.list();
  }

  private now(): string {
    return this.clock().toISOString();
  }
}

/**
 * The principal with its plan's current limit: Explore and Build follow the plan table
 * (so a changed plan limit reaches existing keys), Enterprise keeps its negotiated limit.
 */
function withCurrentLimit(principal: Principal): Principal {
  const planLimit = PLAN_RATE_LIMITS[principal.plan];
  return planLimit === undefined ? principal : { ...principal, rateLimitPerMinute: planLimit };
}
