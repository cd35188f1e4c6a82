/** A feature as a parser produced it: geometry not yet checked, repaired or reprojected. */
export interface RawFeature {
  id?: string | number;
  properties: Record<string, unknown> | null;
  geometry: unknown;
}
