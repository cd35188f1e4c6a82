// Minimal types for the one `shapefile` function the readers use (the package ships none).
declare module 'shapefile' {
  /** A feature as `shapefile` produces it: geometry null for a null shape record. */
  export interface ShapefileFeature {
    type: 'Feature';
    properties: Record<string, unknown>;
    geometry: { type: string; coordinates: unknown } | null;
  }
  /** Options for reading the .dbf. */
  export interface ShapefileOptions {
    /** The .dbf text encoding (a WHATWG label); windows-1252 when absent. */
    encoding?: string;
  }
  /** Reads a whole shapefile (.shp and optional .dbf, as bytes or file paths) into a FeatureCollection. */
  export function read(
    shp: string | Uint8Array | ArrayBuffer,
    dbf?: string | Uint8Array | ArrayBuffer,
    options?: ShapefileOptions,
  ): Promise<{ type: 'FeatureCollection'; features: ShapefileFeature[]; bbox: number[] }>;
}
