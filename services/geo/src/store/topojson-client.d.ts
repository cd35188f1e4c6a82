// Minimal types for the one topojson-client function the geo store uses (the package ships
// none, and @types/topojson-client is not a dependency).
declare module 'topojson-client' {
  /** A GeoJSON feature as topojson-client produces it: geometry null for an empty object. */
  export interface TopoFeature {
    type: 'Feature';
    id?: string | number;
    properties: Record<string, unknown> | null;
    geometry: { type: string; coordinates?: unknown } | null;
  }
  /** Converts a TopoJSON GeometryCollection object to a GeoJSON FeatureCollection. */
  export function feature(topology: unknown, object: unknown): { type: 'FeatureCollection'; features: TopoFeature[] };
}
