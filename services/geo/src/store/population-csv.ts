import { existsSync, readFileSync } from 'node:fs';
import { parseCsv } from './csv.js';

/** One state or county row of a Census PEP county file. */
export interface PopulationRow {
  /** Full Census name: `Colorado`, `Denver County`, `Orleans Parish`, `Baltimore city`. */
  readonly name: string;
  readonly population: number;
}

const REQUIRED = ['GEOID', 'SUMLEV', 'CTYNAME', 'POPESTIMATE2023'];

/**
 * Reads a county population CSV (columns GEOID, SUMLEV, CTYNAME, POPESTIMATE2023, as in
 * the Census PEP Vintage 2023 county file re-padded to 2/5-digit GEOIDs) into a map from
 * GEOID (`08` state, `08031` county) to name and July 2023 estimate. Returns undefined when
 * the file does not exist; throws when it exists without the required columns.
 */
export function readPopulationCsv(path: string): Map<string, PopulationRow> | undefined {
  if (!existsSync(path)) return undefined;
  const records = parseCsv(readFileSync(path, 'utf8'));
  const missing = REQUIRED.filter((c) => records.length > 0 && !(c in records[0]!));
  if (missing.length > 0) throw new Error(`${path}: missing column(s) ${missing.join(', ')}`);
  const rows = new Map<string, PopulationRow>();
  for (const r of records) {
    const population = Number(r.POPESTIMATE2023);
    if ((r.SUMLEV === '040' || r.SUMLEV === '050') && Number.isFinite(population) && r.POPESTIMATE2023 !== '') {
      rows.set(r.GEOID!, { name: r.CTYNAME!, population });
    }
  }
  return rows;
}
