import type { Level } from '@civicgraph/protos/civic/geo/v1/geo';
import type { RegionRecord } from '../domain/region.js';

/**
 * A layer is what one import replaces as a whole: one level, optionally one state, from
 * one date. Re-importing a layer replaces its versions: new ones are created, changed ones
 * updated, missing ones deleted — and an identical re-import changes nothing.
 */
export interface LayerKey {
  level: Level;
  /** Lowercase USPS code, or '' for a layer spanning states. */
  state: string;
  /** The layer's `valid_from`, or '' when it is undated. */
  validFrom: string;
}

/** What a layer replacement changed, by version key (`slug` or `slug@valid_from`). */
export interface LayerChange {
  created: string[];
  updated: string[];
  deleted: string[];
  unchanged: number;
}

/** The BoundaryStore port: imported boundary versions, durable, shared by processes. */
export interface BoundaryStore {
  /** Every stored region version. */
  list(): RegionRecord[];
  /** Replaces one layer atomically; bumps the generation only when something changed. */
  replaceLayer(layer: LayerKey, regions: readonly RegionRecord[]): LayerChange;
  /** Increases on every committed change, whichever process made it. */
  generation(): number;
  close(): Promise<void>;
}

export function layerId(l: LayerKey): string {
  return `${l.level}|${l.state}|${l.validFrom}`;
}
