import { createHash } from 'node:crypto';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { RegionRecord } from '../domain/region.js';
import { versionKey } from '../domain/validity.js';
import { layerId, type BoundaryStore, type LayerChange, type LayerKey } from './boundary-store.js';

interface StoredVersion {
  fingerprint: string;
  region: RegionRecord;
}

/**
 * BoundaryStore on LMDB in `${CIVIC_DATA_DIR}/geo`, shared by the geo service and the
 * `civicgraph import` command. Versions are stored under `<layer id>#<version key>`, so
 * two layers never overwrite each other's versions. A layer's versions, its index and the generation counter
 * change in one transaction, so a failed or interrupted import leaves the previous
 * boundaries whole.
 */
export class LmdbBoundaryStore implements BoundaryStore {
  private constructor(
    private readonly root: RootDatabase,
    private readonly versions: Database<StoredVersion, string>,
    private readonly layers: Database<string[], string>,
    private readonly meta: Database<number, string>,
  ) {}

  static open(path: string): LmdbBoundaryStore {
    // Commits are flushed before they return: an import the CLI reported must survive a crash.
    const root = open({ path, overlappingSync: false });
    return new LmdbBoundaryStore(
      root,
      root.openDB<StoredVersion, string>('versions', { encoding: 'json' }),
      root.openDB<string[], string>('layers', { encoding: 'json' }),
      root.openDB<number, string>('meta', { encoding: 'json' }),
    );
  }

  list(): RegionRecord[] {
    this.root.resetReadTxn();
    return [...this.versions.getRange()].map((e) => e.value.region);
  }

  generation(): number {
    // Another process may have committed since this handle's snapshot was taken.
    this.root.resetReadTxn();
    return this.meta.get('generation') ?? 0;
  }

  replaceLayer(layer: LayerKey, regions: readonly RegionRecord[]): LayerChange {
    const id = layerId(layer);
    const incoming = new Map(regions.map((r) => [versionKey(r), { fingerprint: fingerprint(r), region: r }]));
    return this.root.transactionSync(() => {
      const change: LayerChange = { created: [], updated: [], deleted: [], unchanged: 0 };
      for (const key of this.layers.get(id) ?? []) {
        if (!incoming.has(key)) {
          change.deleted.push(key);
          this.versions.removeSync(`${id}#${key}`);
        }
      }
      for (const [key, next] of incoming) {
        const old = this.versions.get(`${id}#${key}`);
        if (old?.fingerprint === next.fingerprint) change.unchanged += 1;
        else {
          (old === undefined ? change.created : change.updated).push(key);
          this.versions.putSync(`${id}#${key}`, next);
        }
      }
      if (change.created.length + change.updated.length + change.deleted.length > 0) {
        this.layers.putSync(id, [...incoming.keys()].sort());
        this.meta.putSync('generation', (this.meta.get('generation') ?? 0) + 1);
      }
      return change;
    });
  }

  async close(): Promise<void> {
    await this.root.close();
  }
}

function fingerprint(r: RegionRecord): string {
  return createHash('sha256').update(JSON.stringify(r)).digest('base64url');
}
