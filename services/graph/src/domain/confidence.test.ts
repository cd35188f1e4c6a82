import { InvalidParameterError } from '@civicgraph/kit';
import { describe, expect, test } from 'vitest';
import type { Claim, FieldValue, ProvenanceData, ProvenanceMethod } from '../model/nodes.js';
import {
  BASE_RELIABILITY,
  HALF_LIFE_DAYS,
  candidacyConfidence,
  noisyOr,
  reliability,
  resolveField,
  type ProvenanceLookup,
} from './confidence.js';

const asOf = new Date('2026-06-01T00:00:00Z');
const daysBefore = (days: number): string => new Date(asOf.getTime() - days * 86_400_000).toISOString();

function prov(
  source: string,
  method: ProvenanceMethod = 'import',
  retrievedAt = asOf.toISOString(),
  publisher = `${source} publisher`,
): ProvenanceData {
  return { source, url: `https://example.org/${source}`, publisher, licence: 'CC0-1.0', retrievedAt, method };
}

/** A lookup over `provenance:<name>` slugs. */
function lookup(records: Record<string, ProvenanceData>): ProvenanceLookup {
  return (slug) => records[slug.replace(/^provenance:/, '')];
}
const claim = (value: FieldValue, name: string): Claim => ({ value, provenance: `provenance:${name}` });

describe('reliability', () => {
  test('a fresh reading is worth its method’s base', () => {
    expect(reliability(prov('fec', 'official-filing'), asOf)).toBeCloseTo(BASE_RELIABILITY['official-filing']);
  });

  test('synthetic values come out low', () => {
    expect(reliability(prov('demo', 'synthetic'), asOf)).toBeLessThanOrEqual(0.3);
  });

  test('a reading one half-life old is worth half, and two half-lives a quarter', () => {
    const base = BASE_RELIABILITY.import;
    expect(reliability(prov('a', 'import', daysBefore(HALF_LIFE_DAYS)), asOf)).toBeCloseTo(base / 2, 6);
    expect(reliability(prov('a', 'import', daysBefore(2 * HALF_LIFE_DAYS)), asOf)).toBeCloseTo(base / 4, 6);
  });

  test('a reading dated in the future counts as fresh, never above its base', () => {
    expect(reliability(prov('a', 'import', daysBefore(-30)), asOf)).toBe(BASE_RELIABILITY.import);
  });

  test('an unreadable retrievedAt is an error naming the field and the provenance', () => {
    const bad = () => reliability(prov('a', 'import', '11/5/24 noon'), asOf, 'provenance:a');
    expect(bad).toThrow(InvalidParameterError);
    expect(bad).toThrow(/provenance:a.*11\/5\/24/);
  });

  test('an unknown method is an error, not NaN', () => {
    const p = { ...prov('a'), method: 'rumour' as ProvenanceMethod };
    expect(() => reliability(p, asOf)).toThrow(/unknown method "rumour"/);
  });
});

describe('resolveField', () => {
  const records = lookup({
    fec: prov('FEC', 'import'),
    vip: prov('VIP', 'import'),
    fecAgain: prov('FEC', 'import', daysBefore(1)),
    old: prov('FEC', 'import', daysBefore(2 * HALF_LIFE_DAYS)),
    filing: prov('Secretary of State', 'official-filing'),
    demo: prov('demo', 'synthetic'),
  });

  test('one source: the value it states, at its reliability', () => {
    expect(resolveField([claim('party:dem', 'fec')], records, asOf)).toEqual({ value: 'party:dem', confidence: 0.8 });
  });

  test('two independent sources agreeing are surer than one', () => {
    const one = resolveField([claim('party:dem', 'fec')], records, asOf)!;
    const two = resolveField([claim('party:dem', 'fec'), claim('party:dem', 'vip')], records, asOf)!;
    expect(two.value).toBe('party:dem');
    expect(two.confidence).toBeCloseTo(noisyOr([0.8, 0.8]), 4);
    expect(two.confidence).toBeGreaterThan(one.confidence);
  });

  test('two independent sources disagreeing on party are less sure than one alone', () => {
    const one = resolveField([claim('party:dem', 'fec')], records, asOf)!;
    const split = resolveField([claim('party:dem', 'fec'), claim('party:rep', 'vip')], records, asOf)!;
    expect(split.confidence).toBeLessThan(one.confidence);
    expect(split.confidence).toBeCloseTo(0.8 * (1 - 0.8), 4);
  });

  test('the more reliable side of a disagreement holds the value', () => {
    const r = resolveField([claim('party:rep', 'vip'), claim('party:dem', 'filing')], records, asOf)!;
    expect(r.value).toBe('party:dem');
    expect(r.confidence).toBeCloseTo(0.95 * (1 - 0.8), 4);
  });

  test('an old record decays: it scores lower than the same record read today', () => {
    const fresh = resolveField([claim('Jane Doe', 'fec')], records, asOf)!;
    const stale = resolveField([claim('Jane Doe', 'old')], records, asOf)!;
    expect(stale.confidence).toBeCloseTo(fresh.confidence / 4, 4);
  });

  test('two records from the same source do not count as agreement twice', () => {
    const once = resolveField([claim('party:dem', 'fec')], records, asOf)!;
    const twice = resolveField([claim('party:dem', 'fec'), claim('party:dem', 'fecAgain')], records, asOf)!;
    expect(twice.confidence).toBe(once.confidence);
  });

  test('a source’s latest record is its word: an older record of the same source neither agrees nor dissents', () => {
    const r = resolveField([claim('party:rep', 'fecAgain'), claim('party:dem', 'fec')], records, asOf)!;
    expect(r).toEqual({ value: 'party:dem', confidence: 0.8 });
  });

  test('lists are compared as sets: the same emails in another order agree', () => {
    const r = resolveField(
      [claim(['a@x.org', 'b@x.org'], 'fec'), claim(['b@x.org', 'a@x.org', 'a@x.org'], 'vip')],
      records,
      asOf,
    )!;
    expect(r.confidence).toBeCloseTo(noisyOr([0.8, 0.8]), 4);
  });

  test('records are compared whatever the order of their keys', () => {
    const r = resolveField(
      [claim([{ role: 'manager', name: 'Ann' }], 'fec'), claim([{ name: 'Ann', role: 'manager' }], 'vip')],
      records,
      asOf,
    )!;
    expect(r.confidence).toBeCloseTo(noisyOr([0.8, 0.8]), 4);
  });

  test('null claims abstain when null means unknown, and vote when it is a value', () => {
    const claims = [claim('FILED', 'fec'), claim(null, 'vip')];
    expect(resolveField(claims, records, asOf, { nullIsUnknown: true })).toEqual({ value: 'FILED', confidence: 0.8 });
    expect(resolveField(claims, records, asOf)!.confidence).toBeCloseTo(0.16, 4);
    expect(resolveField([claim(null, 'vip')], records, asOf, { nullIsUnknown: true })).toBeUndefined();
  });

  test('no claims, no resolution', () => {
    expect(resolveField([], records, asOf)).toBeUndefined();
  });

  test('a claim citing an unknown provenance is an error naming it', () => {
    expect(() => resolveField([claim('x', 'nowhere')], records, asOf)).toThrow(/provenance:nowhere/);
  });

  test('the answer does not depend on the order of the claims', () => {
    const claims = [
      claim('party:dem', 'fec'),
      claim('party:rep', 'vip'),
      claim('party:grn', 'demo'),
      claim('party:dem', 'filing'),
    ];
    const forward = resolveField(claims, records, asOf);
    expect(resolveField([...claims].reverse(), records, asOf)).toEqual(forward);
    expect(resolveField([claims[2]!, claims[0]!, claims[3]!, claims[1]!], records, asOf)).toEqual(forward);
  });

  test('an exact tie is broken the same way every time', () => {
    const a = resolveField([claim('party:dem', 'fec'), claim('party:rep', 'vip')], records, asOf);
    const b = resolveField([claim('party:rep', 'vip'), claim('party:dem', 'fec')], records, asOf);
    expect(a).toEqual(b);
  });

  test('confidence stays within 0..1 whatever the mix of sources', () => {
    const names = ['fec', 'vip', 'old', 'filing', 'demo'];
    const values = ['a', 'b', 'c'];
    for (let i = 0; i < 200; i++) {
      const claims = names.filter((_, j) => (i >> j) & 1).map((n, j) => claim(values[(i + j) % 3]!, n));
      const r = resolveField(claims, records, asOf);
      if (claims.length === 0) continue;
      expect(r!.confidence).toBeGreaterThanOrEqual(0);
      expect(r!.confidence).toBeLessThanOrEqual(1);
    }
  });
});

describe('candidacyConfidence', () => {
  test('is the weighted mean of the fields that resolved, heavier on name, contest and party', () => {
    // name 3, contest 3, party 3, campaignWebsite 1
    expect(candidacyConfidence({ name: 1, contest: 1, party: 1, campaignWebsite: 0 })).toBeCloseTo(0.9, 4);
    expect(candidacyConfidence({ name: 0, campaignWebsite: 1 })).toBeCloseTo(0.25, 4);
  });

  test('fields without a resolution are ignored', () => {
    expect(candidacyConfidence({ name: 0.8, party: undefined })).toBe(0.8);
  });

  test('no fields gives 0', () => {
    expect(candidacyConfidence({})).toBe(0);
  });
});
