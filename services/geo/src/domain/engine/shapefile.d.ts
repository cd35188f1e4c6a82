// Types for the one `shapefile` call the engine's tests make (the package ships none). An
// ambient module may be declared in several files; the declarations merge into overloads.
declare module 'shapefile' {
  /** Reads a whole shapefile, with the .dbf beside it, into a GeoJSON FeatureCollection. */
  export function read(shp: string): Promise<{
    type: 'FeatureCollection';
    bbox: number[];
    features: { type: 'Feature'; properties: Record<string, unknown>; geometry: { type: string; coordinates: unknown } | null }[];
  }>;
}
