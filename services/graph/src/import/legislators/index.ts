export { importLegislators, type LegislatorsImportOptions } from './import-legislators.js';
export { fecPersonIndex } from './fec-index.js';
export { legislatorPersonSlug, type TermsChoice } from './record-batch.js';
