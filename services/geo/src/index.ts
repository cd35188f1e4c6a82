export { readGeoConfig, parseBoundaryFile, type GeoConfig, type BoundaryFile } from './config.js';
export { startGeoService, type GeoService, type GeoDeps } from './service.js';
export { DistrictIndex } from './domain/district-index.js';
export type { RegionRecord } from './domain/region.js';
export { loadUsAtlas } from './store/us-atlas.js';
export { loadGeoJsonFile } from './store/geojson-file.js';
