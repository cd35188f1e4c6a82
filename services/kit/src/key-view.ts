import { Environment, Plan, type KeyRecord } from '@civicgraph/protos/civic/auth/v1/auth';

/** Plan words as the CLI, the admin API and errors spell them. */
export const PLAN_WORDS: Readonly<Record<string, Plan>> = {
  explore: Plan.PLAN_EXPLORE,
  build: Plan.PLAN_BUILD,
  enterprise: Plan.PLAN_ENTERPRISE,
};
/** Environment words, as in `cg_<env>_`. */
export const ENVIRONMENT_WORDS: Readonly<Record<string, Environment>> = {
  test: Environment.ENVIRONMENT_TEST,
  live: Environment.ENVIRONMENT_LIVE,
};

function wordOf<T>(table: Readonly<Record<string, T>>, value: T | undefined): string | null {
  return Object.keys(table).find((k) => table[k] === value) ?? null;
}

/**
 * A key record as the CLI and the admin API show it (snake_case, like the REST layer).
 * Never the secret: only its display prefix. A previous secret appears only while its
 * grace period lasts.
 */
export function keyRecordView(r: KeyRecord, now = new Date().toISOString()) {
  const p = r.principal;
  const previousLive = (r.previousKeyExpiresAt ?? '') > now;
  return {
    id: r.keyId,
    object: 'api_key' as const,
    key_prefix: r.keyPrefix,
    label: r.label,
    environment: wordOf(ENVIRONMENT_WORDS, p?.environment),
    plan: wordOf(PLAN_WORDS, p?.plan),
    entitlements: {
      contact: p?.entitlements?.contact ?? false,
      geography: p?.entitlements?.geography ?? false,
      states: p?.entitlements?.states ?? [],
      tiers: p?.entitlements?.tiers ?? [],
    },
    rate_limit_per_minute: p?.rateLimitPerMinute ?? null,
    pinned_version: p?.pinnedVersion ?? null,
    created_at: r.createdAt,
    revoked_at: r.revokedAt === '' ? null : r.revokedAt,
    rotated_at: (r.rotatedAt ?? '') === '' ? null : r.rotatedAt,
    previous_key: previousLive ? { key_prefix: r.previousKeyPrefix, expires_at: r.previousKeyExpiresAt } : null,
  };
}

export type KeyRecordView = ReturnType<typeof keyRecordView>;
