import type { ChangeSet } from '../graph-store.js';
import type { GraphIndex } from './graph-index.js';

/**
 * Applies a checked, prepared change set (store/change-set.ts `prepareChangeSet`: nodes
 * at their new rev, copies the index may freeze) in the order change-set.ts fixes.
 */
export function applyToIndex(index: GraphIndex, changes: ChangeSet): void {
  for (const { node } of changes.put) index.putNode(node);
  for (const { slug } of changes.remove) index.removeNode(slug);
  for (const ref of changes.unlink) index.unlink(ref);
  for (const edge of changes.link) index.link(edge);
}
