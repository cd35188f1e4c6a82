export { importFecCandidates, type FecImportOptions } from './import-fec.js';
export { KNOWN_SENATE_SPECIALS } from './senate.js';
export { fecName, type PersonName } from './names.js';
