export { importOcd, type OcdImportOptions } from './import-ocd.js';
export { parseOcdId, type OcdId } from './ocd-id.js';
