import { Environment, Plan, type KeyRecord } from '@civicgraph/protos/civic/auth/v1/auth';
import type { StoredSecret } from '../domain/key-hasher.js';

/** A record as KeyService would build it; only what the store must round-trip matters. */
export function sampleRecord(keyId: string, createdAt = '2026-11-02T10:00:00.000Z'): KeyRecord {
  return {
    keyId,
    keyPrefix: 'cg_test_AbCd…',
    label: `label of ${keyId}`,
    principal: {
      keyId,
      environment: Environment.ENVIRONMENT_TEST,
      plan: Plan.PLAN_BUILD,
      entitlements: { contact: true, geography: true, states: ['ca', 'ny'], tiers: ['county'] },
      pinnedVersion: '2026-11-01',
      rateLimitPerMinute: 600,
    },
    createdAt,
    revokedAt: '',
    rotatedAt: '',
    previousKeyPrefix: '',
    previousKeyExpiresAt: '',
  };
}

/** A sealed secret whose lookup digest is `lookup`; the other fields only need to round-trip. */
export function sampleSecret(lookup: string, expiresAt = ''): StoredSecret {
  return { lookup, salt: '5a'.repeat(16), verifier: 'e1'.repeat(32), expiresAt };
}
