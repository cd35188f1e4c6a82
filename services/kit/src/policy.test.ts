import { describe, expect, it } from 'vitest';
import { Environment, Plan, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { EntitlementRequiredError } from './errors.js';
import { assertGeography, enabledEntitlements, stateVisible, visibleByState } from './policy.js';

function principal(ents: Partial<NonNullable<Principal['entitlements']>> = {}): Principal {
  return {
    keyId: 'key_x',
    environment: Environment.ENVIRONMENT_TEST,
    plan: Plan.PLAN_BUILD,
    pinnedVersion: '2026-11-01',
    rateLimitPerMinute: 600,
    entitlements: { contact: false, geography: true, states: [], tiers: [], ...ents },
  };
}

describe('policy', () => {
  it('lists enabled entitlements in a stable order', () => {
    expect(enabledEntitlements(principal())).toEqual(['geography', 'jurisdictions']);
    expect(enabledEntitlements(principal({ contact: true }))).toEqual(['contact', 'geography', 'jurisdictions']);
    expect(enabledEntitlements(principal({ geography: false }))).toEqual(['jurisdictions']);
  });

  it('refuses point lookups without geography, naming the entitlement', () => {
    expect(() => assertGeography(principal())).not.toThrow();
    const err = (() => {
      try {
        assertGeography(principal({ geography: false }));
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(EntitlementRequiredError);
    expect((err as EntitlementRequiredError).field).toBe('geography');
  });

  it('hides nodes outside a key’s states, keeping national ones', () => {
    const scoped = principal({ states: ['co', 'de'] });
    expect(stateVisible(scoped, 'co')).toBe(true);
    expect(stateVisible(scoped, 'tx')).toBe(false);
    expect(stateVisible(scoped, '')).toBe(true);
    expect(stateVisible(principal(), 'tx')).toBe(true);
    expect(visibleByState(scoped, [{ state: 'co' }, { state: 'tx' }, { state: 'de' }])).toEqual([{ state: 'co' }, { state: 'de' }]);
  });
});
