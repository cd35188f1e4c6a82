import { describe, expect, it } from 'vitest';
import { InvalidParameterError } from '@civicgraph/kit';
import { Plan, type Entitlements } from '@civicgraph/protos/civic/auth/v1/auth';
import { API_VERSIONS, LATEST_VERSION, resolveEntitlements, resolvePinnedVersion, resolveRateLimit } from './plans.js';
import { USPS_CODES } from './jurisdictions.js';

/** The InvalidParameterError `fn` throws; fails the test if it throws anything else. */
function invalid(fn: () => unknown): InvalidParameterError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidParameterError);
    return err as InvalidParameterError;
  }
  return expect.fail('expected an InvalidParameterError');
}

const ents = (over: Partial<Entitlements>): Entitlements => ({
  contact: false,
  geography: true,
  states: [],
  tiers: [],
  ...over,
});

describe('rate limits', () => {
  it('gives explore 60 and build 600 requests per minute', () => {
    expect(resolveRateLimit(Plan.PLAN_EXPLORE, undefined)).toBe(60);
    expect(resolveRateLimit(Plan.PLAN_BUILD, undefined)).toBe(600);
  });

  it('takes the negotiated enterprise limit within 1..1,000,000', () => {
    expect(resolveRateLimit(Plan.PLAN_ENTERPRISE, 1)).toBe(1);
    expect(resolveRateLimit(Plan.PLAN_ENTERPRISE, 1_000_000)).toBe(1_000_000);
  });

  it.each([
    ['enterprise without a limit', Plan.PLAN_ENTERPRISE, undefined],
    ['enterprise with 0', Plan.PLAN_ENTERPRISE, 0],
    ['enterprise above the maximum', Plan.PLAN_ENTERPRISE, 1_000_001],
    ['enterprise with a fraction', Plan.PLAN_ENTERPRISE, 10.5],
    ['explore with a limit', Plan.PLAN_EXPLORE, 60],
    ['build with a limit', Plan.PLAN_BUILD, 5000],
  ])('rejects %s, naming rate_limit_per_minute', (_, plan, limit) => {
    expect(invalid(() => resolveRateLimit(plan, limit)).field).toBe('rate_limit_per_minute');
  });
});

describe('entitlements', () => {
  it('defaults to contact off, geography on, every state and tier', () => {
    expect(resolveEntitlements(Plan.PLAN_EXPLORE, undefined)).toEqual({
      contact: false,
      geography: true,
      states: [],
      tiers: [],
    });
  });

  it('allows contact on build and enterprise but not on explore, naming entitlements', () => {
    expect(resolveEntitlements(Plan.PLAN_BUILD, ents({ contact: true })).contact).toBe(true);
    expect(resolveEntitlements(Plan.PLAN_ENTERPRISE, ents({ contact: true })).contact).toBe(true);
    expect(invalid(() => resolveEntitlements(Plan.PLAN_EXPLORE, ents({ contact: true }))).field).toBe('entitlements');
  });

  it('lowercases, de-duplicates and sorts states and tiers', () => {
    const got = resolveEntitlements(
      Plan.PLAN_BUILD,
      ents({ states: ['NY', 'ca', 'ny', 'Pr'], tiers: ['State', 'county', 'state'] }),
    );
    expect(got.states).toEqual(['ca', 'ny', 'pr']);
    expect(got.tiers).toEqual(['county', 'state']);
  });

  it('knows the 50 states, DC and the five inhabited territories', () => {
    expect(USPS_CODES.size).toBe(56);
    for (const code of ['dc', 'pr', 'gu', 'vi', 'as', 'mp', 'wy', 'ak']) expect(USPS_CODES.has(code)).toBe(true);
  });

  it.each(['zz', 'um', 'fm', 'california', ''])('rejects the unknown state %j, naming states and the value', (bad) => {
    const err = invalid(() => resolveEntitlements(Plan.PLAN_BUILD, ents({ states: ['ca', bad] })));
    expect(err.field).toBe('states');
    expect(err.message).toContain(JSON.stringify(bad));
  });

  it('rejects an unknown tier, naming tiers and the value', () => {
    const err = invalid(() => resolveEntitlements(Plan.PLAN_BUILD, ents({ tiers: ['county', 'galactic'] })));
    expect(err.field).toBe('tiers');
    expect(err.message).toContain('"galactic"');
  });
});

describe('pinned versions', () => {
  it('pins the latest version when none is given', () => {
    expect(LATEST_VERSION).toBe(API_VERSIONS[API_VERSIONS.length - 1]);
    expect(resolvePinnedVersion('')).toBe(LATEST_VERSION);
  });

  it('pins a known version', () => {
    expect(resolvePinnedVersion('2026-11-01')).toBe('2026-11-01');
  });

  it('rejects an unknown version, naming pinned_version', () => {
    expect(invalid(() => resolvePinnedVersion('2020-01-01')).field).toBe('pinned_version');
  });
});
