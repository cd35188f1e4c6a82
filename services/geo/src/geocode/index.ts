import { CensusGeocoder, type CensusGeocoderOptions } from './census-geocoder.js';
import { EmbeddedGeocoder } from './embedded-geocoder.js';
import type { Geocoder } from './geocoder.js';
import { LayeredGeocoder } from './layered-geocoder.js';

export * from './geocoder.js';
export { parseAddress, readForm, type ParsedAddress } from './parse-address.js';
export { EmbeddedGeocoder, type EmbeddedGeocoderOptions } from './embedded-geocoder.js';
export { CensusGeocoder, CENSUS_GEOCODER_URL, type CensusGeocoderOptions } from './census-geocoder.js';
export { LayeredGeocoder } from './layered-geocoder.js';
export { areaShares, discCells, MIN_SAMPLE_CELLS, type AreaShare, type RegionLookup } from './area-shares.js';
export {
  ZipRegistry,
  zipcodesRegistry,
  ZIP_RADIUS_MIN,
  ZIP_RADIUS_MAX,
  CITY_RADIUS_MIN,
  CITY_OUTLIER_METERS,
  type ZipRow,
  type PlaceArea,
} from './zip-registry.js';

/** Which geocoder a deployment uses, as its config names it. */
export type GeocoderKind = 'embedded' | 'census';

/** The geocoder selection read from config. */
export interface GeocoderSelection {
  kind: GeocoderKind;
  /** Options of the Census adapter when `kind` is `census`. */
  census?: CensusGeocoderOptions;
}

/**
 * The geocoder for a selection: `embedded` needs no network; `census` keeps the embedded
 * forms local and sends street addresses to the public Census Geocoder.
 */
export function createGeocoder(selection: GeocoderSelection): Geocoder {
  const embedded = new EmbeddedGeocoder();
  if (selection.kind === 'embedded') return embedded;
  return new LayeredGeocoder(embedded, new CensusGeocoder(selection.census));
}
