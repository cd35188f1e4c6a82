import { InvalidParameterError, NotFoundError, UnauthenticatedError } from '@civicgraph/kit';
import type {
  CreateKeyRequest,
  KeyRecord,
  ListKeysRequest,
  ListKeysResponse,
  Principal,
  RotateKeyRequest,
} from '@civicgraph/protos/civic/auth/v1/auth';
import type { KeyStore } from './key-store.js';
import type { RandomSource } from '@civicgraph/kit';
import type { KeyHasher } from './key-hasher.js';
import { displayPrefix, generateKey, generateKeyId, parseKey } from './keys.js';
import { keyTerms, normaliseLabel } from './new-key.js';
import { PLAN_RATE_LIMITS } from './plans.js';

/** Collaborators of the KeyService. */
export interface KeyServiceOptions {
  store: KeyStore;
  /** Seals and verifies secrets with the deployment's pepper. */
  hasher: KeyHasher;
  /** Told after a key is revoked or rotated, so every gateway can drop it at once. */
  announce?: KeyAnnouncer;
  /** The current instant; injectable for tests. Default: the system clock. */
  clock?: () => Date;
  /** Random bytes for keys and ids; injectable for tests. Default: crypto.randomBytes. */
  random?: RandomSource;
}

/** Where key lifecycle changes are announced (the event bus, in a running deployment). */
export type KeyAnnouncer = (change: 'revoked' | 'rotated', record: KeyRecord) => Promise<void>;

/** A key as issued: the secret (shown once, never stored) and its record. */
export interface IssuedKey {
  key: string;
  record: KeyRecord;
}

/**
 * One message for every failed authentication, so a caller cannot tell a malformed key
 * from an unknown, expired or revoked one.
 */
export const AUTHENTICATION_FAILED = 'The API key is missing, malformed, unknown or revoked.';

/** Grace period of a rotated key's previous secret when none is asked for: one day. */
export const DEFAULT_GRACE_SECONDS = 86_400;
/** Longest grace period: seven days. */
export const MAX_GRACE_SECONDS = 604_800;
/** Page size bounds of ListKeys. */
export const LIST_LIMIT = { default: 50, max: 200 } as const;

/** Issues, authenticates, revokes, rotates and lists API keys. No I/O of its own beyond the store. */
export class KeyService {
  private readonly store: KeyStore;
  private readonly hasher: KeyHasher;
  private readonly announce: KeyAnnouncer;
  private readonly clock: () => Date;
  private readonly random: RandomSource | undefined;

  constructor(options: KeyServiceOptions) {
    this.store = options.store;
    this.hasher = options.hasher;
    this.announce = options.announce ?? (async () => {});
    this.clock = options.clock ?? (() => new Date());
    this.random = options.random;
  }

  /** Issues a key under the plan rules; only its sealed secret is stored. */
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
      rotatedAt: '',
      previousKeyPrefix: '',
      previousKeyExpiresAt: '',
    };
    await this.store.create({ record, secret: this.hasher.seal(key) });
    return { key, record };
  }

  /**
   * The principal of an active key; anything else is one indistinct UnauthenticatedError.
   * Every well-formed key costs one indexed lookup and one constant-time comparison, found
   * or not, so neither the answer's content nor its timing says how close a guess came.
   */
  async authenticate(rawKey: string): Promise<Principal> {
    const parsed = parseKey(rawKey);
    if (parsed === undefined) throw new UnauthenticatedError(AUTHENTICATION_FAILED);
    const found = await this.store.findByLookup(this.hasher.lookup(parsed.key));
    const matches = this.hasher.verify(parsed.key, found?.secret);
    const principal = found?.record.principal;
    const now = this.now();
    if (
      !matches ||
      !found ||
      !principal ||
      found.record.revokedAt !== '' ||
      principal.environment !== parsed.environment
    ) {
      throw new UnauthenticatedError(AUTHENTICATION_FAILED);
    }
    if (found.secret.expiresAt !== '' && found.secret.expiresAt <= now)
      throw new UnauthenticatedError(AUTHENTICATION_FAILED);
    return withCurrentLimit(principal);
  }

  /** Revokes a key and announces it; revoking a revoked key returns it unchanged (announced again). */
  async revoke(keyId: string): Promise<KeyRecord> {
    requireKeyId(keyId);
    const record = await this.store.revoke(keyId, this.now());
    if (record === undefined) throw notFound(keyId);
    await this.announce('revoked', record);
    return record;
  }

  /**
   * A new secret for the key; the secrets in use until now keep working for the grace
   * period (default a day, at most seven). A revoked key cannot be rotated.
   */
  async rotate(req: RotateKeyRequest): Promise<IssuedKey> {
    requireKeyId(req.keyId);
    const grace = req.graceSeconds ?? DEFAULT_GRACE_SECONDS;
    if (!Number.isInteger(grace) || grace < 0 || grace > MAX_GRACE_SECONDS) {
      throw new InvalidParameterError(
        'grace_seconds',
        `grace_seconds must be an integer from 0 to ${MAX_GRACE_SECONDS}.`,
      );
    }
    const current = await this.store.get(req.keyId);
    if (current === undefined || current.principal === undefined) throw notFound(req.keyId);
    if (current.revokedAt !== '')
      throw new InvalidParameterError('key_id', `Key ${req.keyId} is revoked; issue a new key instead.`);
    const key = generateKey(current.principal.environment, this.random);
    const at = this.clock();
    const record = await this.store.rotate(req.keyId, {
      secret: this.hasher.seal(key),
      keyPrefix: displayPrefix(key),
      at: at.toISOString(),
      previousExpiresAt: new Date(at.getTime() + grace * 1000).toISOString(),
    });
    if (record === undefined) throw notFound(req.keyId);
    await this.announce('rotated', record);
    return { key, record };
  }

  /** One key's record. */
  async get(keyId: string): Promise<KeyRecord> {
    requireKeyId(keyId);
    const record = await this.store.get(keyId);
    if (record === undefined) throw notFound(keyId);
    return record;
  }

  /** A page of key records, oldest first, after `starting_after` (a key id of the previous page). */
  async page(req: ListKeysRequest): Promise<ListKeysResponse> {
    const limit = req.limit === 0 ? LIST_LIMIT.default : req.limit;
    if (!Number.isInteger(limit) || limit < 1 || limit > LIST_LIMIT.max) {
      throw new InvalidParameterError('limit', `limit must be an integer from 1 to ${LIST_LIMIT.max}.`);
    }
    const all = await this.store.list();
    let from = 0;
    if (req.startingAfter !== '') {
      const at = all.findIndex((r) => r.keyId === req.startingAfter);
      if (at < 0)
        throw new InvalidParameterError(
          'starting_after',
          `starting_after names no key (${JSON.stringify(req.startingAfter.slice(0, 40))}).`,
        );
      from = at + 1;
    }
    const keys = all.slice(from, from + limit);
    return { keys, hasMore: from + limit < all.length };
  }

  /** Every key record, revoked ones included, oldest first. */
  async list(): Promise<KeyRecord[]> {
    return this.store.list();
  }

  private now(): string {
    return this.clock().toISOString();
  }
}

function requireKeyId(keyId: string): void {
  if (keyId === '') throw new InvalidParameterError('key_id', 'key_id is required.');
}

function notFound(keyId: string): NotFoundError {
  return new NotFoundError(`No key has id ${JSON.stringify(keyId.slice(0, 40))}.`, { field: 'key_id' });
}

/**
 * The principal with its plan's current limit: Explore and Build follow the plan table
 * (so a changed plan limit reaches existing keys), Enterprise keeps its negotiated limit.
 */
function withCurrentLimit(principal: Principal): Principal {
  const planLimit = PLAN_RATE_LIMITS[principal.plan];
  return planLimit === undefined ? principal : { ...principal, rateLimitPerMinute: planLimit };
}
