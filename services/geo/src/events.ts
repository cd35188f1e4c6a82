import { EVENT_KINDS, makeEvent, type EventBus } from '@civicgraph/kit';
import type { BoundaryDiff } from './boundaries.js';

/** Slugs per event: keeps each message far below NATS's 1 MB payload limit. */
const SLUGS_PER_EVENT = 500;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Publishes what a (re)load changed. The first load of a process reports every region as
 * `updated` (other processes may hold answers from an earlier data set); later loads
 * report exactly the created, updated and deleted slugs, and nothing when nothing changed.
 */
export async function publishBoundaryChanges(
  bus: EventBus,
  env: string,
  diff: BoundaryDiff,
  version: string,
  first: boolean,
): Promise<number> {
  const groups = first
    ? { updated: [...diff.created, ...diff.updated, ...diff.deleted], created: [], deleted: [] }
    : diff;
  let published = 0;
  for (const verb of EVENT_KINDS.region) {
    for (const slugs of chunks(groups[verb], SLUGS_PER_EVENT)) {
      await bus.publish(makeEvent({ env, kind: 'region', verb, slugs, version }));
      published += 1;
    }
  }
  return published;
}
