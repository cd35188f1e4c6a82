import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { Environment, Plan, type Entitlements, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';

/** A principal as the auth service would issue it, on Enterprise unless told (exports). */
export function exportPrincipal(
  entitlements: Partial<Entitlements> = {},
  overrides: Partial<Principal> = {},
): Principal {
  return {
    keyId: 'key_export_test',
    environment: Environment.ENVIRONMENT_TEST,
    plan: Plan.PLAN_ENTERPRISE,
    pinnedVersion: '',
    rateLimitPerMinute: 6_000,
    entitlements: { contact: true, geography: true, states: [], tiers: [], ...entitlements },
    ...overrides,
  };
}

/** The rows of a gzip NDJSON export file. */
export function ndjsonRows<T = Record<string, unknown>>(gz: Uint8Array): T[] {
  return gunzipSync(gz)
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as T);
}

export async function ndjsonFile<T = Record<string, unknown>>(path: string): Promise<T[]> {
  return ndjsonRows<T>(await readFile(path));
}
