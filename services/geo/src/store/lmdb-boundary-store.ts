import { createHash, randomUUID } from 'node:crypto';
import { open, type Database, type RootDatabase } from 'lmdb';
import { storedScale, type RegionRecord } from '../domain/region.js';
import { versionKey } from '../domain/validity.js';
import {
  layerId,
  parseLayerId,
  type BoundaryStore,
  type ChangeCheck,
  type LayerChange,
  type LayerReplacement,
  type StoredLayer,
} from './boundary-store.js';
import { Level } from '../domain/region.js';

interface StoredVersion {
  /** Of the region without its `source`: a re-import of the same map from another file changes nothing. */
  fingerprint: string;
  region: RegionRecord;
}

/**
 * BoundaryStore on LMDB in `${CIVIC_DATA_DIR}/geo`, shared by the geo service and the
 * `civicgraph import` command. Versions are stored under `<layer id>#<version key>`, so
 * two layers never overwrite each other's versions. A replacement's layers, their indexes
 * and the generation counter change in one transaction, so a refused, failed or
 * interrupted import leaves the previous boundaries whole.
 */
export class LmdbBoundaryStore implements BoundaryStore {
  private constructor(
    private readonly root: RootDatabase,
    private readonly versions: Database<StoredVersion, string>,
    private readonly layerIndex: Database<string[], string>,
    private readonly meta: Database<number, string>,
    /** Random, fixed when the store is created: tells this store from another that reached the same generation. */
    private readonly storeId: string,
  ) {}

  static open(path: string): LmdbBoundaryStore {
    // Commits are flushed before they return: an import the CLI reported must survive a crash.
    const root = open({ path, overlappingSync: false });
    const meta = root.openDB<number, string>('meta', { encoding: 'json' });
    const ids = root.openDB<string, string>('identity', { encoding: 'json' });
    let storeId = ids.get('id');
    if (storeId === undefined) {
      const fresh = randomUUID();
      ids.transactionSync(() => {
        if (ids.get('id') === undefined) ids.putSync('id', fresh);
      });
      storeId = ids.get('id')!;
    }
    const store = new LmdbBoundaryStore(
      root,
      root.openDB<StoredVersion, string>('versions', { encoding: 'json' }),
      root.openDB<string[], string>('layers', { encoding: 'json' }),
      meta,
      storeId,
    );
    store.splitStatelessLayers();
    store.keyLayersByScale();
    return store;
  }

  layers(): StoredLayer[] {
    // Another process may have committed since this handle's snapshot was taken.
    this.root.resetReadTxn();
    const out: StoredLayer[] = [];
    for (const { key: id, value: keys } of this.layerIndex.getRange()) {
      const regions = keys
        .map((k) => this.versions.get(`${id}#${k}`)?.region)
        .filter((r): r is RegionRecord => r !== undefined);
      out.push({ key: parseLayerId(id), regions });
    }
    return out;
  }

  list(): RegionRecord[] {
    return this.layers().flatMap((l) => l.regions);
  }

  generation(): number {
    this.root.resetReadTxn();
    return this.meta.get('generation') ?? 0;
  }

  id(): string {
    return this.storeId;
  }

  replaceLayers(replacements: readonly LayerReplacement[], check: ChangeCheck = () => {}): LayerChange[] {
    return this.root.transactionSync(() => {
      const changes = replacements.map((r) => this.replaceOne(r));
      // Throwing here aborts the transaction: nothing above is written.
      check(changes);
      if (changes.some((c) => c.created.length + c.updated.length + c.deleted.length > 0)) this.bumpGeneration();
      return changes;
    });
  }

  async close(): Promise<void> {
    await this.root.close();
  }

  /** Inside a transaction: one layer's versions and index, and what changed. */
  private replaceOne({ key, regions }: LayerReplacement): LayerChange {
    const id = layerId(key);
    const incoming = new Map(regions.map((r) => [versionKey(r), { fingerprint: fingerprint(r), region: r }]));
    const held = this.layerIndex.get(id) ?? [];
    const change: LayerChange = { key, created: [], updated: [], deleted: [], unchanged: 0, before: held.length };
    for (const k of held) {
      if (incoming.has(k)) continue;
      change.deleted.push(k);
      this.versions.removeSync(`${id}#${k}`);
    }
    for (const [k, next] of incoming) {
      const old = this.versions.get(`${id}#${k}`);
      if (old?.fingerprint === next.fingerprint) change.unchanged += 1;
      else {
        (old === undefined ? change.created : change.updated).push(k);
        this.versions.putSync(`${id}#${k}`, next);
      }
    }
    if (incoming.size === 0) this.layerIndex.removeSync(id);
    else if (change.created.length + change.deleted.length > 0)
      this.layerIndex.putSync(id, [...incoming.keys()].sort());
    return change;
  }

  /**
   * Stores written before layers had a scale kept a generalised map under its day's one id,
   * where a finer map of the same day would replace it (or it the finer): each moves to
   * its scale's own layer (a layer of that scale already stored keeps its versions).
   */
  private keyLayersByScale(): void {
    const moves = [...this.layerIndex.getRange()]
      .map(({ key: id, value: keys }) => {
        const regions = keys.map((k) => this.versions.get(`${id}#${k}`)?.region);
        return { id, keys, regions, scale: misfiled(id, regions) };
      })
      .filter((m) => m.scale > 0);
    if (moves.length === 0) return;
    this.root.transactionSync(() => {
      for (const { id, keys, regions, scale } of moves) {
        for (const k of keys) this.versions.removeSync(`${id}#${k}`);
        this.layerIndex.removeSync(id);
        const key = { ...parseLayerId(id), scale };
        const kept = regions.filter((r): r is RegionRecord => r !== undefined);
        if (this.layerIndex.get(layerId(key)) === undefined) this.replaceOne({ key, regions: kept });
      }
      this.bumpGeneration();
    });
  }

  private bumpGeneration(): void {
    this.meta.putSync('generation', (this.meta.get('generation') ?? 0) + 1);
  }

  /**
   * Stores written before layers were per state kept a multi-state file as one layer with
   * no state: each is split into one layer per state (a layer of that state already
   * stored, dated the same day, keeps its versions).
   */
  private splitStatelessLayers(): void {
    const stateless = [...this.layerIndex.getRange()].filter(({ key }) => {
      const k = parseLayerId(key);
      return k.state === '' && k.level !== Level.LEVEL_NATIONAL;
    });
    if (stateless.length === 0) return;
    this.root.transactionSync(() => {
      for (const { key: id, value: keys } of stateless) {
        const byState = new Map<string, RegionRecord[]>();
        for (const k of keys) {
          const region = this.versions.get(`${id}#${k}`)?.region;
          this.versions.removeSync(`${id}#${k}`);
          if (region !== undefined) byState.set(region.state, [...(byState.get(region.state) ?? []), region]);
        }
        this.layerIndex.removeSync(id);
        const { level, validFrom, scale } = parseLayerId(id);
        for (const [state, regions] of byState) {
          if (this.layerIndex.get(layerId({ level, state, validFrom, scale })) === undefined)
            this.replaceOne({ key: { level, state, validFrom, scale }, regions });
        }
      }
      this.bumpGeneration();
    });
  }
}

/** A full-resolution layer id's versions, when they are those of a generalised map stored before layers had a scale. */
function misfiled(id: string, versions: readonly (RegionRecord | undefined)[]): number {
  if (parseLayerId(id).scale !== 0) return 0;
  const first = versions.find((r) => r !== undefined);
  return first === undefined ? 0 : storedScale(first);
}

/** Of the region without where it came from, but with a generalised map's scale (it decides which map serves). */
function fingerprint(r: RegionRecord): string {
  const { source, ...rest } = r;
  const scale = source?.scale ?? 0;
  return createHash('sha256')
    .update(JSON.stringify(scale === 0 ? rest : { ...rest, scale }))
    .digest('base64url');
}
