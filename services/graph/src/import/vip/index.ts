export { importVip, type VipImportOptions, type VipSummary } from './import-vip.js';
export type { VipProvenanceOverrides } from './provenance.js';
