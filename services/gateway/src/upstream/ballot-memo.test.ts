import { describe, expect, it } from 'vitest';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { BallotRequest, BallotResponse } from '@civicgraph/protos/civic/graph/v1/graph';
import { BallotMemo } from './ballot-memo.js';

const principal = (states: string[] = []): Principal => ({
  keyId: 'k',
  environment: 1,
  plan: 2,
  pinnedVersion: '',
  rateLimitPerMinute: 600,
  entitlements: { contact: false, geography: true, states, tiers: [] },
});
const request = (regions: string[], date = '2028-11-07'): BallotRequest => ({
  regions,
  regionLevels: regions.map((r) => (r === 'region:co' ? 'state' : 'county')),
  date,
  minConfidence: 0,
});
const empty: BallotResponse = { contests: [], unresolved: [] };

function counting() {
  let calls = 0;
  return { compute: () => (calls++, Promise.resolve(empty)), calls: () => calls };
}

describe('BallotMemo', () => {
  it('answers the same districts once, whatever the order they are named in', async () => {
    const memo = new BallotMemo();
    const c = counting();
    await memo.answer(principal(), request(['region:co', 'region:co-denver']), c.compute);
    await memo.answer(principal(), request(['region:co-denver', 'region:co']), c.compute);
    expect(c.calls()).toBe(1);
  });

  it('keeps another date, another policy and another set of districts apart', async () => {
    const memo = new BallotMemo();
    const c = counting();
    await memo.answer(principal(), request(['region:co']), c.compute);
    await memo.answer(principal(), request(['region:co'], '2026-11-03'), c.compute);
    await memo.answer(principal(['CO']), request(['region:co']), c.compute);
    await memo.answer(principal(), request(['region:co', 'region:co-denver']), c.compute);
    expect(c.calls()).toBe(4);
  });

  it('shares one computation between callers asking at once', async () => {
    const memo = new BallotMemo();
    let release!: (r: BallotResponse) => void;
    let calls = 0;
    const compute = () => (calls++, new Promise<BallotResponse>((r) => (release = r)));
    const a = memo.answer(principal(), request(['region:co']), compute);
    const b = memo.answer(principal(), request(['region:co']), compute);
    release(empty);
    expect(await a).toBe(await b);
    expect(calls).toBe(1);
  });

  it('forgets everything when the data changes, and never keeps a failure', async () => {
    const memo = new BallotMemo();
    const c = counting();
    await memo.answer(principal(), request(['region:co']), c.compute);
    memo.clear();
    await memo.answer(principal(), request(['region:co']), c.compute);
    expect(c.calls()).toBe(2);
    await expect(
      memo.answer(principal(), request(['region:de']), () => Promise.reject(new Error('store down'))),
    ).rejects.toThrow('store down');
    await Promise.resolve();
    expect(await memo.answer(principal(), request(['region:de']), c.compute)).toBe(empty);
  });
});
