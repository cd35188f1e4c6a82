const APOSTROPHES = /['\u2019\u02bc]/g;

/**
 * The key form of a name inside a slug: lowercase ASCII, diacritics stripped, apostrophes
 * dropped, every other run of non-alphanumerics one hyphen, trimmed.
 * `Doña Ana County` → `dona-ana-county`, `Prince George's County` → `prince-georges-county`.
 */
export function slugKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(APOSTROPHES, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * The key form of a name inside an Open Civic Data division id, following the
 * ocd-division-ids conventions as the published US ids apply them: lowercase, letters kept
 * with their diacritics, periods dropped, apostrophes → `~`, spaces → `_`, hyphens kept.
 * `Doña Ana` → `doña_ana`, `Prince George's` → `prince_george~s`, `St. Clair` → `st_clair`.
 */
export function ocdKey(name: string): string {
  return name
    .normalize('NFC')
    .toLowerCase()
    .replace(/\./g, '')
    .replace(APOSTROPHES, '~')
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[^\p{L}\p{N}_~-]/gu, '~');
}
