export { readResultsConfig, resultsSettings, type ResultsConfig } from './config.js';
export { startResultsService, type ResultsService, type ResultsDeps } from './service.js';
export { contestResults } from './contest-results.js';
