import { open, type Database, type RootDatabase } from 'lmdb';
import { listPosition, type Delivery, type DeliveryLog } from './delivery.js';

/**
 * The delivery log on LMDB: `deliveries` (id → delivery), `byEndpoint`
 * (`<endpoint>|<created>|<id>` → id, for listings newest first) and `due`
 * (`<nextAttemptAt>|<id>` → id, pending ones only). A put rewrites all three in one
 * transaction, flushed before it returns: a delivery the dispatcher has accepted survives
 * a crash, and is retried after the restart.
 */
export class LmdbDeliveryLog implements DeliveryLog {
  private constructor(
    private readonly root: RootDatabase,
    private readonly deliveries: Database<Delivery, string>,
    private readonly byEndpoint: Database<string, string>,
    private readonly dueIndex: Database<string, string>,
  ) {}

  static open(path: string): LmdbDeliveryLog {
    const root = open({ path, overlappingSync: false });
    return new LmdbDeliveryLog(
      root,
      root.openDB<Delivery, string>('deliveries', { encoding: 'json' }),
      root.openDB<string, string>('by-endpoint', { encoding: 'string' }),
      root.openDB<string, string>('due', { encoding: 'string' }),
    );
  }

  async put(delivery: Delivery): Promise<void> {
    await this.root.transaction(() => {
      const before = this.deliveries.get(delivery.id);
      if (before !== undefined && before.nextAttemptAt !== '') this.dueIndex.remove(dueKey(before));
      if (before === undefined) this.byEndpoint.put(endpointKey(delivery), delivery.id);
      this.deliveries.put(delivery.id, delivery);
      if (delivery.status === 'pending' && delivery.nextAttemptAt !== '')
        this.dueIndex.put(dueKey(delivery), delivery.id);
    });
  }

  async get(id: string): Promise<Delivery | undefined> {
    return this.deliveries.get(id);
  }

  async listByEndpoint(endpointId: string, limit: number, before?: string): Promise<Delivery[]> {
    const start = before === undefined ? `${endpointId}|\uffff` : `${endpointId}|${before}`;
    const out: Delivery[] = [];
    for (const { key, value } of this.byEndpoint.getRange({ start, end: `${endpointId}|`, reverse: true })) {
      if (key === start) continue;
      const d = this.deliveries.get(value);
      if (d !== undefined) out.push(d);
      if (out.length >= limit) break;
    }
    return out;
  }

  async due(now: string, limit: number): Promise<Delivery[]> {
    const out: Delivery[] = [];
    for (const { value } of this.dueIndex.getRange({ end: `${now}|\uffff` })) {
      const d = this.deliveries.get(value);
      if (d !== undefined && d.status === 'pending') out.push(d);
      if (out.length >= limit) break;
    }
    return out;
  }

  async close(): Promise<void> {
    await this.root.close();
  }
}

const endpointKey = (d: Delivery): string => `${d.endpointId}|${listPosition(d)}`;
const dueKey = (d: Delivery): string => `${d.nextAttemptAt}|${d.id}`;
