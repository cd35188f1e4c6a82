import { describe, expect, test } from 'vitest';
import type { ProvenanceData } from '../model/nodes.js';
import { mergeClaims, resolveCandidacy, snakeField, validateStatements } from './claims.js';

const asOf = new Date('2026-06-01T00:00:00Z');
const prov = (source: string): ProvenanceData => ({
  source,
  url: '',
  publisher: source,
  licence: '',
  retrievedAt: asOf.toISOString(),
  method: 'import',
});
const lookup = (slug: string): ProvenanceData | undefined => prov(slug);

describe('mergeClaims', () => {
  test('replaces the claim of the same provenance, keeps the others, and sorts by provenance', () => {
    const held = {
      party: [
        { value: 'party:dem', provenance: 'provenance:vip' },
        { value: 'party:dem', provenance: 'provenance:fec' },
      ],
    };
    const merged = mergeClaims(held, { party: 'party:rep', name: 'Jane' }, 'provenance:fec');
    expect(merged).toEqual({
      party: [
        { value: 'party:rep', provenance: 'provenance:fec' },
        { value: 'party:dem', provenance: 'provenance:vip' },
      ],
      name: [{ value: 'Jane', provenance: 'provenance:fec' }],
    });
    expect(held.party).toHaveLength(2);
  });

  test('a field the source does not mention keeps its claims', () => {
    const held = { name: [{ value: 'Jane', provenance: 'provenance:a' }] };
    expect(mergeClaims(held, { party: null }, 'provenance:b').name).toEqual(held.name);
  });
});

describe('validateStatements', () => {
  test.each([
    [{ name: '' }, 'name'],
    [{ person: 'jane' }, 'person'],
    [{ contest: 'person:jane' }, 'contest'],
    [{ isIncumbent: 'yes' }, 'is_incumbent'],
    [{ ballotAccess: 'ON BALLOT' }, 'ballot_access'],
    [{ campaignPhones: [5551234] }, 'campaign_phones'],
    [{ campaignTeam: [{ name: 'A', nested: { x: 1 } }] }, 'campaign_team'],
  ])('%j is refused naming %s', (statements, field) => {
    expect(() => validateStatements('candidacy:x', statements)).toThrow(expect.objectContaining({ field }));
  });

  test('well-formed statements pass, nulls included where a field allows them', () => {
    expect(() =>
      validateStatements('candidacy:x', {
        name: 'Jane',
        person: 'person:jane',
        contest: 'contest:co-cd-1-2026',
        party: null,
        filingStatus: null,
        campaignEmails: ['a@x.org'],
        campaignTeam: [{ name: 'Ann', role: 'manager', phone: null }],
      }),
    ).not.toThrow();
  });
});

describe('resolveCandidacy', () => {
  test('a field whose claims all abstain holds null at 0 and does not drag the candidacy down', () => {
    const claims = {
      name: [{ value: 'Jane', provenance: 'a' }],
      person: [{ value: 'person:jane', provenance: 'a' }],
      contest: [{ value: 'contest:c', provenance: 'a' }],
      filingStatus: [{ value: null, provenance: 'a' }],
    };
    const data = resolveCandidacy('candidacy:x', claims, [], lookup, asOf);
    expect(data.fields.filingStatus).toEqual({ value: null, confidence: 0, claims: claims.filingStatus });
    expect(data.confidence).toBe(0.8);
  });

  test('without a name no candidacy can be resolved', () => {
    expect(() =>
      resolveCandidacy('candidacy:x', { person: [{ value: 'person:jane', provenance: 'a' }] }, [], lookup, asOf),
    ).toThrow(expect.objectContaining({ field: 'name' }));
  });
});

test('snakeField turns a field name into its REST spelling', () => {
  expect(snakeField('campaignEmails')).toBe('campaign_emails');
  expect(snakeField('name')).toBe('name');
});
