import type { Level } from '@civicgraph/protos/civic/geo/v1/geo';
import type { RegionRecord } from '../domain/region.js';

/**
 * A layer is one map as an import replaces it: one level, one state, from one date, at one
 * precision. Re-importing a layer replaces its versions: new ones are created, changed ones
 * updated, missing ones deleted — and an identical re-import changes nothing. A map of the
 * same day at another precision is another layer: both are kept, and the finer serves
 * (domain/timeline.ts), whichever was imported last.
 */
export interface LayerKey {
  level: Level;
  /** Lowercase USPS code; '' only for the national level. */
  state: string;
  /** The layer's `valid_from`, or '' when it is undated. */
  validFrom: string;
  /** Scale denominator of a generalised (cartographic) map; 0 for a full-resolution one. */
  scale: number;
}

/** A layer as stored: its key and its versions (which share one validity). */
export interface StoredLayer {
  key: LayerKey;
  regions: RegionRecord[];
}

/** One layer's new contents. */
export interface LayerReplacement {
  key: LayerKey;
  regions: readonly RegionRecord[];
}

/** What replacing one layer changes, by version key (`slug` or `slug@valid_from`). */
export interface LayerChange {
  key: LayerKey;
  created: string[];
  updated: string[];
  deleted: string[];
  unchanged: number;
  /** Versions the layer held before. */
  before: number;
}

/**
 * Sees every change of a replacement before it commits; throwing refuses the whole
 * replacement and nothing is written.
 */
export type ChangeCheck = (changes: readonly LayerChange[]) => void;

/** The BoundaryStore port: imported boundary versions, durable, shared by processes. */
export interface BoundaryStore {
  /** Every stored layer with its versions. */
  layers(): StoredLayer[];
  /** Every stored version. */
  list(): RegionRecord[];
  /**
   * Replaces the given layers in one transaction (layers not named are untouched); bumps
   * the generation only when something changed.
   */
  replaceLayers(replacements: readonly LayerReplacement[], check?: ChangeCheck): LayerChange[];
  /** Increases on every committed change, whichever process made it. */
  generation(): number;
  /** Fixed for the store's life: with the generation, names its contents exactly. */
  id(): string;
  close(): Promise<void>;
}

/** `level|state|valid_from`, and `|scale` for a generalised map (full-resolution layers keep the ids they had before layers had a scale). */
export function layerId(l: LayerKey): string {
  const id = `${l.level}|${l.state}|${l.validFrom}`;
  return l.scale === 0 ? id : `${id}|${l.scale}`;
}

export function parseLayerId(id: string): LayerKey {
  const [level, state, validFrom, scale] = id.split('|');
  return { level: Number(level) as Level, state: state ?? '', validFrom: validFrom ?? '', scale: Number(scale ?? 0) };
}
