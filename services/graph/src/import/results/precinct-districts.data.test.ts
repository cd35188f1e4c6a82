import { sharedData } from '@civicgraph/kit';
import { afterEach, describe, expect, it } from 'vitest';
import { ImportFileError } from '../shared/errors.js';
import { collect, fixtureDir } from '../shared/test-files.js';
import { importPrecinctDistricts } from './precinct-districts.js';

/** Test files carry no date of their own. */
const WHEN = { provenance: { retrievedAt: '2026-01-01' } };

const DENVER = sharedData('results/medsl-2024/derived/co24-denver-precinct.csv');
const DE_ZIP = sharedData('results/medsl-2024/individual_states/de24.zip');

const relations = (
  batch: { edges: { kind: string; from: string; to: string; data: Record<string, unknown> }[] },
  kind: string,
) => batch.edges.filter((e) => e.kind === kind).map((e) => e.to);

describe.skipIf(DENVER === undefined)('precinct districts of Denver (all 301 precincts)', () => {
  it('places Denver County within the 2nd Judicial District and partly in transit director districts A, D and E', async () => {
    const { batches, rejections } = await collect(importPrecinctDistricts(DENVER!));
    expect(rejections).toEqual([]);
    expect(batches.map((b) => b.at)).toEqual(['Denver County (301 precincts)']);
    const denver = batches[0]!.batch;
    expect(relations(denver, 'WITHIN')).toEqual(['region:co-judicial-district-2']);
    expect(relations(denver, 'OVERLAPS')).toEqual(
      expect.arrayContaining([
        'region:co-cd-1',
        'region:co-cd-6',
        'region:co-regional-transportation-district-a',
        'region:co-regional-transportation-district-d',
        'region:co-regional-transportation-district-e',
      ]),
    );
    expect(relations(denver, 'OVERLAPS').filter((r) => r.includes('transportation'))).toHaveLength(3);
    const jd = denver.edges.find((e) => e.kind === 'WITHIN')!;
    expect(jd).toMatchObject({
      from: 'region:co-denver-county',
      data: { election: '2024-11-05', precincts: 301, of: 301 },
    });
    expect(denver.nodes.find((n) => n.slug === 'region:co-judicial-district-2')).toMatchObject({
      createOnly: true,
      data: { level: 'judicial-district' },
    });
  });
});

describe.skipIf(DE_ZIP === undefined)('precinct districts of Delaware (de24.zip)', () => {
  it('relates each county to its council districts and state legislative districts, and Wilmington to New Castle', async () => {
    const { batches } = await collect(importPrecinctDistricts(DE_ZIP!));
    const county = (slug: string) =>
      batches.find((b) => b.batch.nodes.some((n) => n.slug === slug && b.batch.edges.some((e) => e.from === slug)))!
        .batch;
    const kent = county('region:de-kent-county');
    // Kent's Levy Court districts up in 2024: 1, 3 and 5.
    expect(
      relations(kent, 'OVERLAPS')
        .filter((r) => r.includes('council-district'))
        .sort(),
    ).toEqual([1, 3, 5].map((n) => `region:de-kent-county-council-district-${n}`));
    expect(relations(kent, 'OVERLAPS').some((r) => r.startsWith('region:de-sldl-'))).toBe(true);
    expect([...relations(kent, 'OVERLAPS'), ...relations(kent, 'WITHIN')].some((r) => r.includes('wilmington'))).toBe(
      false,
    );
    const newCastle = county('region:de-new-castle-county');
    expect(relations(newCastle, 'OVERLAPS')).toContain('region:de-wilmington-city');
    expect(newCastle.edges).toContainEqual(
      expect.objectContaining({ kind: 'WITHIN', from: 'region:de-wilmington-city', to: 'region:de-new-castle-county' }),
    );
  });
});

describe('precinct districts on bad input', () => {
  const fx = fixtureDir();
  afterEach(() => fx.cleanup());

  it('refuses a file without precinct and county columns, naming the column', async () => {
    const path = fx.write(
      'totals.csv',
      'year,stage,state_po,office,district,candidate,votes\n2024,GEN,CO,US HOUSE,001,X,1\n',
    );
    const err = await collect(importPrecinctDistricts(path, WHEN)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportFileError);
    expect((err as Error).message).toMatch(/lacks column precinct/);
  });

  it('rejects a row naming no county, and one whose district no rule names, with the line', async () => {
    const head =
      'precinct,county_name,year,stage,date,state_po,office,district,special,candidate,party_detailed,party_simplified,writein,votes,mode,dataverse';
    const path = fx.write(
      'p.csv',
      [
        head,
        '1,DENVER,2024,GEN,2024-11-05,CO,US HOUSE,001,FALSE,A,DEMOCRAT,DEMOCRAT,FALSE,3,TOTAL,HOUSE',
        '2,,2024,GEN,2024-11-05,CO,US HOUSE,001,FALSE,A,DEMOCRAT,DEMOCRAT,FALSE,3,TOTAL,HOUSE',
        '3,DENVER,2024,GEN,2024-11-05,CO,DISTRICT ATTORNEY,NORTHERN,FALSE,B,DEMOCRAT,DEMOCRAT,FALSE,3,TOTAL,LOCAL',
        '',
      ].join('\n'),
    );
    const { batches, rejections } = await collect(importPrecinctDistricts(path, WHEN));
    expect(rejections.map((r) => r.rejected)).toEqual([
      { at: 'line 3', reason: 'county_name and precinct are required' },
      { at: 'line 4', reason: expect.stringMatching(/district "NORTHERN": no rule names the region/) },
    ]);
    expect(batches).toHaveLength(1);
  });
});
