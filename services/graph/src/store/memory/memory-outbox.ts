import type { CivicEvent } from '@civicgraph/kit';
import { cloneJson } from '../clone-json.js';
import type { OutboxEntry } from '../graph-store.js';

/** The outbox held in memory: pending events in commit order, removable by event id. */
export class MemoryOutbox {
  private readonly pending = new Map<string, OutboxEntry>();
  private seq = 0;

  get size(): number {
    return this.pending.size;
  }

  /** Keeps the events given (the caller passes copies). */
  append(events: readonly CivicEvent[]): void {
    for (const event of events) {
      const seq = ++this.seq;
      // A repeated id replaces the pending one and moves to the end, keeping seq order.
      this.pending.delete(event.id);
      this.pending.set(event.id, { seq, event });
    }
  }

  /** Oldest first: a Map iterates in insertion order, which is seq order. */
  list(limit: number): OutboxEntry[] {
    const out: OutboxEntry[] = [];
    for (const entry of this.pending.values()) {
      if (out.length >= limit) break;
      out.push(cloneJson(entry));
    }
    return out;
  }

  ack(ids: readonly string[]): void {
    for (const id of ids) this.pending.delete(id);
  }
}
