import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { servicesRequired } from './bus/require-service.js';

/** The public data folder, `shared/data`, a sibling of the repository. */
export const SHARED_DATA_DIR = fileURLToPath(new URL('../../../../shared/data/', import.meta.url));

/**
 * A file under shared/data for tests and benchmarks. Missing: undefined with a loud
 * warning (the tests needing it skip), unless CIVIC_REQUIRE_SERVICES=1 (CI), where a
 * missing data file is an error rather than a quiet skip.
 */
export function sharedData(relative: string): string | undefined {
  const path = `${SHARED_DATA_DIR}${relative}`;
  if (existsSync(path)) return path;
  if (servicesRequired()) throw new Error(`shared data file missing: ${path}`);
  console.warn(`⚠️  shared data missing, skipping the tests that need it: ${path}`);
  return undefined;
}
