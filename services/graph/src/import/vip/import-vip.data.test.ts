import { describe, expect, it } from 'vitest';
import { sharedData } from '@civicgraph/kit';
import type { CandidacyDraft, NodeDraft } from '../../domain/drafts.js';
import type { ContestData, RegionData } from '../../model/nodes.js';
import { collect } from '../shared/test-files.js';
import { importVip, type VipSummary } from './index.js';

const V5 = sharedData('vip/sample_feed_v5.xml');
const V6 = sharedData('vip/sample_feed_v6.zip');

async function run(path: string) {
  let summary: VipSummary | undefined;
  const { batches, rejections } = await collect(importVip(path, { onSummary: (s) => (summary = s) }));
  const nodes = new Map<string, NodeDraft>();
  for (const b of batches) for (const n of b.batch.nodes) nodes.set(n.slug, n);
  const data = <T>(slug: string) => (nodes.get(slug) as { data: T } | undefined)?.data;
  const candidacy = (slug: string) => nodes.get(slug) as CandidacyDraft | undefined;
  return { batches, rejections, nodes, summary: summary!, data, candidacy };
}

describe.skipIf(V5 === undefined)('VIP 5.2 sample feed (Virginia 2013, Albemarle County)', () => {
  it('maps every contest, office, district and candidate, and counts what it leaves out', async () => {
    const { summary, rejections } = await run(V5!);
    expect(rejections).toEqual([]);
    expect(summary.version).toBe('5.2');
    expect(summary.elements).toMatchObject({
      Precinct: 32,
      ElectoralDistrict: 9,
      Office: 17,
      CandidateContest: 15,
      Candidate: 28,
      Person: 29,
      Party: 7,
      PollingLocation: 27,
      StreetSegment: 13,
    });
    // 32 Precinct elements are 27 precincts: five are listed as two splits each. Party par0006 means "no party".
    expect(summary.mapped).toEqual({
      Election: 1,
      State: 1,
      Locality: 2,
      ElectoralDistrict: 9,
      Precinct: 27,
      Party: 6,
      Office: 17,
      CandidateContest: 15,
      BallotMeasureContest: 1,
      RetentionContest: 1,
      Candidate: 28,
    });
  });

  it('drafts the election day and the contests in it', async () => {
    const { data } = await run(V5!);
    expect(data('election:va-2013-11-05')).toEqual({
      name: '2013 Virginia General Election',
      date: '2013-11-05',
      type: 'general',
    });
    expect(data<ContestData>('contest:va-governor-2013-general')).toMatchObject({
      office: 'office:va-governor',
      region: 'region:va',
      level: 'state',
      seats: 1,
      type: 'general',
    });
    expect(data<ContestData>('contest:va-sldl-57-member-house-of-delegates-2013-general')).toMatchObject({
      level: 'state-legislative-lower',
      region: 'region:va-sldl-57',
    });
    expect(data<ContestData>('contest:va-referendum-on-virginia-2013-general')).toMatchObject({
      office: '',
      region: 'region:va',
    });
    expect(
      data<ContestData>('contest:va-justice-supreme-court-of-virginia-cleo-e-powell-2013-retention'),
    ).toMatchObject({ type: 'retention', office: 'office:va-justice-supreme-court-of-virginia' });
  });

  it('references standard regions and states the ones only the feed knows', async () => {
    const { nodes } = await run(V5!);
    expect(nodes.get('region:va-sldl-25')).toMatchObject({
      createOnly: true,
      data: { level: 'state-legislative-lower', ocdId: 'ocd-division/country:us/state:va/sldl:25' },
    });
    expect(nodes.get('region:va-albemarle-county')).toMatchObject({
      createOnly: true,
      data: { level: 'county', name: 'Albemarle County' },
    });
    const rio = nodes.get('region:va-rio-district')!;
    expect(rio).toMatchObject({ data: { level: 'school-district', name: 'Rio District' } });
    expect('createOnly' in rio).toBe(false);
  });

  it('puts a precinct WITHIN its county and districts, and a split precinct only within what all its splits share', async () => {
    const { batches } = await run(V5!);
    const within = (slug: string) =>
      batches
        .flatMap((b) => b.batch.edges)
        .filter((e) => e.kind === 'WITHIN' && e.from === slug)
        .map((e) => e.to)
        .sort();
    expect(within('region:va-precinct-0203')).toEqual([
      'region:va',
      'region:va-albemarle-county',
      'region:va-jack-jouett-district',
      'region:va-sldl-57',
    ]);
    // pre91781sp0000 lies in House districts 57 and 58, sp0001 in 57 only.
    expect(within('region:va-precinct-0101')).toEqual([
      'region:va',
      'region:va-albemarle-county',
      'region:va-rio-district',
      'region:va-sldl-57',
    ]);
    expect(batches.find((b) => b.at.startsWith('Precinct pre91781sp0000'))!.at).toBe(
      'Precinct pre91781sp0000 (line 1902) and 1 more split',
    );
  });

  it('states the presidency as the one national office, and the ticket as two candidacies', async () => {
    const { nodes, candidacy } = await run(V5!);
    expect(nodes.get('office:us-president')).toMatchObject({
      data: { region: 'region:us', level: 'national', tier: 'federal' },
    });
    const obama = candidacy('candidacy:va-us-president-2013-general-barack-h-obama')!;
    expect(obama.claims).toEqual({
      name: 'Barack H. Obama',
      person: 'person:vip-51-per10861a',
      contest: 'contest:va-us-president-2013-general',
      party: 'party:democratic',
      ballotAccess: 'ON_BALLOT',
      campaignWebsite: 'http://www.whitehouse.gov',
      campaignEmails: ['president@whitehouse.gov'],
      campaignPhones: ['202-456-1111', '202-456-6213'],
    });
    expect(obama.provenance).toBe('provenance:vip-51-2013-11-05');
    expect(candidacy('candidacy:va-us-president-2013-general-joseph-r-biden')!.claims.person).toBe(
      'person:vip-51-per10861b',
    );
  });

  it('reads party quirks: a write-in party makes WRITE_IN candidates; "Party Preference: None" is no party', async () => {
    const { candidacy, nodes } = await run(V5!);
    expect(
      candidacy('candidacy:va-scottsville-district-member-board-of-supervisors-2013-general-kevin-phillips-bong')!
        .claims,
    ).toMatchObject({ party: 'party:slightly-silly', ballotAccess: 'WRITE_IN' });
    expect(
      candidacy('candidacy:va-sldl-58-member-house-of-delegates-2013-general-robert-b-bell-iii')!.claims.party,
    ).toBeNull();
    expect(nodes.get('party:democratic')).toMatchObject({ data: { name: 'Democratic Party', abbreviation: 'DEM' } });
  });

  it('cites the feed as an official filing by its Source', async () => {
    const { nodes } = await run(V5!);
    expect(nodes.get('provenance:vip-51-2013-11-05')).toMatchObject({
      data: {
        method: 'official-filing',
        publisher: 'State Board of Elections, Commonwealth of Virginia',
        licence: expect.stringMatching(/CC BY 4\.0/),
        url: expect.stringMatching(/vip-specification\/blob\/.*\/sample_feed_v5\.xml$/),
        // The feed's own Source DateTime, not when the file was copied.
        retrievedAt: '2013-10-24T14:25:28.000Z',
      },
    });
  });
});

describe.skipIf(V6 === undefined)('VIP 6.0 sample feed (Maricopa County, 2020, zipped)', () => {
  it('imports the election, the state, the county and all 748 precincts; polling places and hours are only counted', async () => {
    const { summary, rejections, data, nodes } = await run(V6!);
    expect(rejections).toEqual([]);
    expect(summary).toMatchObject({
      version: '6.0',
      file: expect.stringMatching(/sample_feed_v6\.zip\/vipfeed-04013-2020-11-03\.xml$/),
    });
    expect(summary.elements).toMatchObject({ Precinct: 748, PollingLocation: 560, HoursOpen: 386, ExternalFile: 1 });
    expect(summary.mapped).toEqual({ Election: 1, State: 1, Locality: 1, Precinct: 748 });
    expect(data('election:az-2020-11-03')).toMatchObject({ date: '2020-11-03', type: 'general' });
    expect(data<RegionData>('region:az-precinct-0006')).toMatchObject({
      name: 'AGUA FRIA',
      level: 'precinct',
      fips: '0006',
      ocdId: 'ocd-division/country:us/state:az/precinct:0006',
    });
    expect(nodes.get('region:az-maricopa-county')).toMatchObject({ createOnly: true });
  });
});
