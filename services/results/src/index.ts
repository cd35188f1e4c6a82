export { defaultResultsConfig, readResultsConfig, resultsSettings, type ResultsConfig } from './config.js';
export { startResultsService, type ResultsService, type ResultsDeps } from './service.js';
export { contestResults } from './contest-results.js';
export { LmdbResultsStore } from './store/lmdb-results-store.js';
export type { ResultsStore } from './store/results-store.js';
