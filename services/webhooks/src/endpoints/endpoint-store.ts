import { open, type Database, type RootDatabase } from 'lmdb';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { Endpoint, EndpointDirectory } from '../delivery/deliverer.js';

/** A subscription as stored: the endpoint, what it wants, and the key that owns it. */
export interface EndpointRecord extends Endpoint {
  /** The owning key's id: only that key sees, changes or deletes it. */
  keyId: string;
  /** The owning key's principal when last confirmed: what payloads are shaped for. */
  principal: Principal;
  events: string[];
  /** Lowercase USPS codes; empty = every state the key may see. */
  states: string[];
  description: string;
  /** Why it is disabled ('' while enabled): a 410, the owner, a revoked key. */
  disabledReason: string;
  createdAt: string;
  updatedAt: string;
}

/** What an idempotent create remembers: which endpoint it made, from which body. */
export interface IdempotentCreate {
  endpointId: string;
  bodyHash: string;
  createdAt: string;
}

/**
 * Webhook endpoints on LMDB: `endpoints` (id → record) and `by-key` (`<keyId>|<created>|<id>`
 * → id). Small and read on every event, so the dispatcher keeps no copy of its own.
 */
export class LmdbEndpointStore implements EndpointDirectory {
  private constructor(
    private readonly root: RootDatabase,
    private readonly endpoints: Database<EndpointRecord, string>,
    private readonly byKey: Database<string, string>,
    private readonly idempotency: Database<IdempotentCreate, string>,
  ) {}

  static open(path: string): LmdbEndpointStore {
    const root = open({ path, overlappingSync: false });
    return new LmdbEndpointStore(
      root,
      root.openDB('endpoints', { encoding: 'json' }),
      root.openDB('by-key', { encoding: 'string' }),
      root.openDB('idempotency', { encoding: 'json' }),
    );
  }

  /** The endpoint an earlier create with this key and idempotency key made, if any. */
  async idempotent(keyId: string, idempotencyKey: string): Promise<IdempotentCreate | undefined> {
    return this.idempotency.get(`${keyId}|${idempotencyKey}`);
  }

  /** Stores a new endpoint and, when given, the idempotency key that made it, together. */
  async create(record: EndpointRecord, idempotencyKey: string, bodyHash: string): Promise<void> {
    await this.root.transaction(() => {
      this.endpoints.put(record.id, record);
      this.byKey.put(keyIndex(record), record.id);
      if (idempotencyKey !== '')
        this.idempotency.put(`${record.keyId}|${idempotencyKey}`, {
          endpointId: record.id,
          bodyHash,
          createdAt: record.createdAt,
        });
    });
  }

  async put(record: EndpointRecord): Promise<void> {
    await this.root.transaction(() => {
      this.endpoints.put(record.id, record);
      this.byKey.put(keyIndex(record), record.id);
    });
  }

  async get(id: string): Promise<EndpointRecord | undefined> {
    return this.endpoints.get(id);
  }

  async remove(id: string): Promise<boolean> {
    return this.root.transaction(() => {
      const record = this.endpoints.get(id);
      if (record === undefined) return false;
      this.byKey.remove(keyIndex(record));
      this.endpoints.remove(id);
      return true;
    });
  }

  async disable(id: string, reason: string): Promise<void> {
    await this.root.transaction(() => {
      const record = this.endpoints.get(id);
      if (record !== undefined)
        this.endpoints.put(id, {
          ...record,
          enabled: false,
          disabledReason: reason,
          updatedAt: new Date().toISOString(),
        });
    });
  }

  /** A key's endpoints, oldest first. */
  async ofKey(keyId: string): Promise<EndpointRecord[]> {
    const out: EndpointRecord[] = [];
    for (const { value } of this.byKey.getRange({ start: `${keyId}|`, end: `${keyId}|\uffff` })) {
      const r = this.endpoints.get(value);
      if (r !== undefined) out.push(r);
    }
    return out;
  }

  /** Every enabled endpoint: the dispatcher matches each event against them. */
  async enabled(): Promise<EndpointRecord[]> {
    return [...this.endpoints.getRange()].map((e) => e.value).filter((r) => r.enabled);
  }

  /** Disables every endpoint of a key (its key was revoked); returns how many. */
  async disableKey(keyId: string, reason: string): Promise<number> {
    let n = 0;
    for (const r of await this.ofKey(keyId)) {
      if (r.enabled) {
        await this.disable(r.id, reason);
        n++;
      }
    }
    return n;
  }

  async close(): Promise<void> {
    await this.root.close();
  }
}

const keyIndex = (r: EndpointRecord): string => `${r.keyId}|${r.createdAt}|${r.id}`;
