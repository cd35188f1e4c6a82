export {
  defaultGeoConfig,
  geoSettings,
  readGeoConfig,
  parseBoundaryFile,
  type GeoConfig,
  type BoundaryFile,
} from './config.js';
export { startGeoService, type GeoService, type GeoDeps } from './service.js';
export { DistrictIndex, DEFAULT_H3_RESOLUTION } from './domain/district-index.js';
export { scaleFromName, precisionOf, type RegionRecord } from './domain/region.js';
export { loadUsAtlas } from './store/us-atlas.js';
export { loadGeoJsonFile } from './store/geojson-file.js';
export { readBoundaryFile, type BoundaryFileContents } from './store/readers/read-boundary-file.js';
export { LmdbBoundaryStore } from './store/lmdb-boundary-store.js';
export type { BoundaryStore, LayerChange, LayerKey, StoredLayer } from './store/boundary-store.js';
export type { RejectCode, RejectedFeature, SkippedFeature } from './store/features.js';
export { importBoundaryFiles } from './import/import-boundary-files.js';
export {
  importBoundaries,
  ImportRefusedError,
  layerName,
  type BoundaryImport,
  type ImportSummary,
  type ImportProgress,
  type FileReport,
} from './import/import-boundaries.js';
export type { Validity } from './domain/region.js';
export type { GeocoderSelection } from './geocode/index.js';
export { loadBoundaries, type BoundarySet } from './boundaries.js';
export { onDate, type DatedRegion } from './domain/validity.js';
