import { describe, expect, it } from 'vitest';
import { Environment, Plan, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { EntitlementRequiredError } from './errors.js';
import {
  assertContact,
  assertGeography,
  contactVisible,
  enabledEntitlements,
  fieldVisible,
  hasEntitlement,
  nodeVisible,
  queryBudget,
  policyFingerprint,
  stateVisible,
  storeScope,
  tierVisible,
  visibleByState,
} from './policy.js';

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
  it('answers entitlement by entitlement, jurisdictions always held', () => {
    const p = principal({ contact: true, geography: false });
    expect([hasEntitlement(p, 'contact'), hasEntitlement(p, 'geography'), hasEntitlement(p, 'jurisdictions')]).toEqual([
      true,
      false,
      true,
    ]);
  });

  it('budgets queries by plan, an unknown plan as Explore', () => {
    expect(queryBudget({ ...principal(), plan: Plan.PLAN_EXPLORE })).toEqual({
      maxDepth: 8,
      maxCost: 1_000,
      maxResponseBytes: 2 * 2 ** 20,
    });
    expect(queryBudget(principal())).toEqual({ maxDepth: 12, maxCost: 10_000, maxResponseBytes: 16 * 2 ** 20 });
    expect(queryBudget({ ...principal(), plan: Plan.PLAN_ENTERPRISE })).toEqual({
      maxDepth: 16,
      maxCost: 50_000,
      maxResponseBytes: 64 * 2 ** 20,
    });
    expect(queryBudget({ ...principal(), plan: Plan.PLAN_UNSPECIFIED })).toEqual({
      maxDepth: 8,
      maxCost: 1_000,
      maxResponseBytes: 2 * 2 ** 20,
    });
  });

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
    expect(visibleByState(scoped, [{ state: 'co' }, { state: 'tx' }, { state: 'de' }])).toEqual([
      { state: 'co' },
      { state: 'de' },
    ]);
  });

  it('hides nodes outside a key’s tiers, keeping untiered ones; a node needs both state and tier in scope', () => {
    const federal = principal({ tiers: ['federal'], states: ['co'] });
    expect(tierVisible(federal, 'federal')).toBe(true);
    expect(tierVisible(federal, 'county')).toBe(false);
    expect(tierVisible(federal, '')).toBe(true);
    expect(tierVisible(principal(), 'county')).toBe(true);
    expect(nodeVisible(federal, { state: 'co', tier: 'federal' })).toBe(true);
    expect(nodeVisible(federal, { state: 'tx', tier: 'federal' })).toBe(false);
    expect(nodeVisible(federal, { state: 'co', tier: 'state' })).toBe(false);
  });

  it('gives stores the scope to filter on, national and untiered nodes included', () => {
    expect(storeScope(principal())).toEqual({ states: undefined, tiers: undefined });
    expect(storeScope(principal({ states: ['co'], tiers: ['federal'] }))).toEqual({
      states: ['co', ''],
      tiers: ['federal', ''],
    });
  });

  it('shows contact fields only with contact, and refuses a query naming one otherwise', () => {
    expect(contactVisible(principal())).toBe(false);
    expect(contactVisible(principal({ contact: true }))).toBe(true);
    expect(() => assertContact(principal({ contact: true }), 'campaignEmails')).not.toThrow();
    expect(() => assertContact(principal(), 'campaignEmails')).toThrow(EntitlementRequiredError);
    try {
      assertContact(principal(), 'campaignEmails');
    } catch (e) {
      expect((e as EntitlementRequiredError).field).toBe('campaignEmails');
    }
  });

  it('says field by field which candidacy and officeholder fields exist for a key', () => {
    for (const f of [
      'campaignEmails',
      'campaignPhones',
      'campaignTeam',
      'contactOffices',
      'contactEmails',
      'contactLinks',
    ]) {
      expect(fieldVisible(principal(), f)).toBe(false);
      expect(fieldVisible(principal({ contact: true }), f)).toBe(true);
    }
    for (const f of ['filingStatus', 'campaignWebsite', 'party', 'start', 'end', 'name', 'ids'])
      expect(fieldVisible(principal(), f)).toBe(true);
  });

  it('fingerprints everything the policy reads, and nothing else', () => {
    const base = principal({ states: ['co', 'de'], tiers: ['state'] });
    expect(policyFingerprint({ ...base, keyId: 'key_other', rateLimitPerMinute: 60 })).toBe(policyFingerprint(base));
    expect(policyFingerprint(principal({ states: ['de', 'co'], tiers: ['state'] }))).toBe(policyFingerprint(base));
    const variants = [
      principal({ states: ['co', 'de'], tiers: ['state'], contact: true }),
      principal({ states: ['co', 'de'], tiers: ['state'], geography: false }),
      principal({ states: ['co'], tiers: ['state'] }),
      principal({ states: ['co', 'de'], tiers: [] }),
      { ...base, environment: Environment.ENVIRONMENT_LIVE },
      { ...base, plan: Plan.PLAN_EXPLORE },
    ];
    for (const v of variants) expect(policyFingerprint(v)).not.toBe(policyFingerprint(base));
  });
});
