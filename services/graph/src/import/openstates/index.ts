export { importOpenStatesPeople, type OpenStatesImportOptions } from './import-openstates.js';
export { openStatesPersonSlug } from './person-batch.js';
