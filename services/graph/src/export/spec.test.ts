import { describe, expect, it } from 'vitest';
import { Environment, Plan, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { InvalidParameterError, OutOfScopeError } from '@civicgraph/kit';
import { NODE_KINDS } from '../model/kinds.js';
import { exportSpecOf } from './spec.js';

const principal = (states: string[] = []): Principal => ({
  keyId: 'key_t',
  environment: Environment.ENVIRONMENT_TEST,
  plan: Plan.PLAN_ENTERPRISE,
  pinnedVersion: '',
  rateLimitPerMinute: 0,
  entitlements: { contact: false, geography: true, states, tiers: [] },
});
const req = (r: Partial<{ kinds: string[]; states: string[]; formats: string[]; skipEdges: boolean }> = {}) => ({
  kinds: [],
  states: [],
  formats: [],
  skipEdges: false,
  idempotencyKey: '',
  ...r,
});

describe('exportSpecOf', () => {
  it('reads empty lists as everything, and sorts and de-duplicates the rest', () => {
    expect(exportSpecOf(req(), principal())).toEqual({
      kinds: [...NODE_KINDS],
      states: [],
      formats: ['ndjson', 'csv', 'parquet'],
      edges: true,
    });
    expect(
      exportSpecOf(req({ kinds: ['party', 'contest', 'party'], formats: ['csv'], skipEdges: true }), principal()),
    ).toMatchObject({ kinds: ['contest', 'party'], formats: ['csv'], edges: false });
  });

  it.each([
    [{ kinds: ['candidate'] }, 'kinds'],
    [{ formats: ['xlsx'] }, 'formats'],
    [{ states: ['CO'] }, 'states'],
  ])('refuses %j naming the field', (r, field) => {
    const err = (() => {
      try {
        exportSpecOf(req(r), principal());
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(InvalidParameterError);
    expect((err as InvalidParameterError).field).toBe(field);
  });

  it("refuses a state outside the key's scope as out_of_scope", () => {
    expect(() => exportSpecOf(req({ states: ['ca'] }), principal(['co']))).toThrow(OutOfScopeError);
    expect(exportSpecOf(req({ states: ['co'] }), principal(['co'])).states).toEqual(['co']);
  });
});
