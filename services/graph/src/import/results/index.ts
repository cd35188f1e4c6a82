export { importResults, type ResultsImportOptions } from './import-results.js';
export type { ModeChoice } from './tally.js';
export type { ProvenanceOverrides } from './provenance.js';
export { importPrecinctDistricts, type PrecinctDistrictsOptions } from './precinct-districts.js';
