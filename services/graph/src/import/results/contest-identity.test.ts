import { describe, expect, it } from 'vitest';
import { findState } from '@civicgraph/kit';
import { identifyContest, type ContestKind, type ContestIdentity } from './contest-identity.js';

const co = findState('co')!;
const de = findState('de')!;

function identify(
  state: typeof co,
  office: string,
  district: string,
  options: { kind?: ContestKind; judge?: string; special?: boolean; dataverse?: string } = {},
) {
  return identifyContest({
    key: { state, year: 2024, stage: 'general', office, district, special: options.special ?? false },
    dataverse: options.dataverse ?? 'STATE',
    kind: options.kind ?? 'candidate',
    judge: options.judge ?? null,
  });
}

function found(r: ReturnType<typeof identifyContest>): ContestIdentity {
  if ('problem' in r) throw new Error(r.problem);
  return r;
}

describe('federal seats use the shared seat rules', () => {
  it("a state's presidential contest is held in the state for the national office", () => {
    const id = found(identify(co, 'US PRESIDENT', 'STATEWIDE'));
    expect(id).toMatchObject({
      contestKey: 'us-president',
      tier: 'federal',
      name: 'President of the United States, Colorado',
    });
    expect(id.region.draft.slug).toBe('region:co');
    expect(id.office?.slug).toBe('office:us-president');
    expect(id.regions.map((r) => r.slug)).toEqual(['region:co', 'region:us']);
    expect(id.regions.every((r) => r.createOnly === true)).toBe(true);
  });

  it('US House district 004 is region:co-cd-4; AT-LARGE is the at-large district', () => {
    expect(found(identify(co, 'US HOUSE', '004'))).toMatchObject({
      contestKey: 'us-representative',
      office: { slug: 'office:co-cd-4-us-representative' },
    });
    expect(found(identify(de, 'US HOUSE', 'AT-LARGE')).region.draft.slug).toBe('region:de-cd-at-large');
  });

  it('a regular Senate contest fills the class up that year; a special one the seat known for it, else it is refused', () => {
    expect(found(identify(de, 'US SENATE', '')).office?.slug).toBe('office:de-us-senator-class-1');
    expect(found(identify(findState('ne')!, 'US SENATE', '', { special: true }))).toMatchObject({
      office: { slug: 'office:ne-us-senator-class-2' },
      contestKey: 'us-senator-class-2',
      name: 'U.S. Senator (Class 2), Nebraska, special election',
    });
    expect(identify(de, 'US SENATE', '', { special: true })).toEqual({
      problem: expect.stringMatching(/special US SENATE.*which seat \(class\).*no Delaware special of 2024/),
    });
  });
});

describe('state and local offices', () => {
  it('legislative districts lose their zero padding', () => {
    expect(found(identify(co, 'STATE SENATE', '002'))).toMatchObject({
      office: { slug: 'office:co-sldu-2-state-senator' },
      tier: 'state',
    });
    expect(found(identify(co, 'STATE HOUSE', '015')).region.draft.slug).toBe('region:co-sldl-15');
  });

  it('statewide offices drop the state name from their key', () => {
    expect(found(identify(de, 'LIEUTENANT GOVERNOR', '')).office?.slug).toBe('office:de-lieutenant-governor');
    expect(
      found(
        identify(co, 'COLORADO SUPREME COURT JUSTICE RETENTION', 'STATEWIDE', {
          kind: 'retention',
          judge: 'BOATRIGHT',
        }),
      ),
    ).toMatchObject({
      contestKey: 'supreme-court-justice-boatright',
      tier: 'judicial',
      office: { slug: 'office:co-supreme-court-justice' },
    });
  });

  it('a county court retention is one question per judge, in the county', () => {
    const id = found(
      identify(co, 'ADAMS COUNTY COURT JUDGE RETENTION', '', {
        kind: 'retention',
        judge: 'DINNEL',
        dataverse: 'LOCAL',
      }),
    );
    expect(id).toMatchObject({
      contestKey: 'county-court-judge-dinnel',
      tier: 'judicial',
      name: 'Retention of County Court Judge Dinnel, Adams County',
    });
    expect(id.region.draft).toMatchObject({
      slug: 'region:co-adams-county',
      createOnly: true,
      data: { level: 'county', ocdId: 'ocd-division/country:us/state:co/county:adams' },
    });
  });

  it("Colorado's regents and board of education sit for congressional districts; the at-large regent for the state", () => {
    expect(found(identify(co, 'REGENT OF THE UNIVERSITY OF COLORADO', '003')).office?.slug).toBe(
      'office:co-cd-3-regent-of-the-university-of-colorado',
    );
    expect(found(identify(co, 'STATE BOARD OF EDUCATION', '008')).region.draft.slug).toBe('region:co-cd-8');
    expect(found(identify(co, 'REGENT OF THE UNIVERSITY OF COLORADO', 'AT LARGE')).office?.slug).toBe(
      'office:co-regent-of-the-university-of-colorado-at-large',
    );
  });

  it("MEDSL's NEWCASTLE is New Castle County; Wilmington offices belong to the place", () => {
    expect(found(identify(de, 'NEWCASTLE COUNTY EXECUTIVE', '', { dataverse: 'LOCAL' })).office?.slug).toBe(
      'office:de-new-castle-county-executive',
    );
    const mayor = found(identify(de, 'WILMINGTON MAYOR', '', { dataverse: 'LOCAL' }));
    expect(mayor).toMatchObject({
      tier: 'municipal',
      name: 'Mayor, Wilmington',
      office: { slug: 'office:de-wilmington-city-mayor' },
    });
  });

  it('holds judicial, special, county-council and city-council districts in regions of their own levels', () => {
    const da = found(identify(co, 'DISTRICT ATTORNEY', '10TH JUDICIAL DISTRICT', { dataverse: 'LOCAL' }));
    expect(da).toMatchObject({
      tier: 'judicial',
      office: { slug: 'office:co-judicial-district-10-district-attorney' },
      name: 'District Attorney, Colorado 10th Judicial District',
    });
    expect(da.region.draft).toMatchObject({
      slug: 'region:co-judicial-district-10',
      data: { level: 'judicial-district', ocdId: 'ocd-division/country:us/state:co/judicial_district:10' },
    });
    const rtd = found(identify(co, 'REGIONAL TRANSPORTATION DISTRICT DIRECTOR', 'A', { dataverse: 'LOCAL' }));
    expect(rtd).toMatchObject({
      tier: 'special',
      name: 'Regional Transportation District Director, Regional Transportation District, District A',
    });
    expect(rtd.region.draft).toMatchObject({
      slug: 'region:co-regional-transportation-district-a',
      data: { level: 'special-district' },
    });
    const levy = found(identify(de, 'KENT COUNTY LEVY COURT', '001', { dataverse: 'LOCAL' }));
    expect(levy.region.draft).toMatchObject({
      slug: 'region:de-kent-county-council-district-1',
      data: {
        level: 'county-commission-district',
        ocdId: 'ocd-division/country:us/state:de/county:kent/council_district:1',
      },
    });
    expect(levy.within).toEqual([
      {
        kind: 'WITHIN',
        from: 'region:de-kent-county-council-district-1',
        to: 'region:de-kent-county',
        key: '',
        data: {},
      },
    ]);
    const ward = found(identify(de, 'WILMINGTON CITY COUNCIL', '004', { dataverse: 'LOCAL' }));
    expect(ward.region.draft).toMatchObject({
      slug: 'region:de-wilmington-council-district-4',
      data: { level: 'ward', ocdId: 'ocd-division/country:us/state:de/place:wilmington/council_district:4' },
    });
    expect(ward.within.map((e) => `${e.from} in ${e.to}`)).toEqual([
      'region:de-wilmington-council-district-4 in region:de-wilmington-city',
      'region:de-wilmington-city in region:de-new-castle-county',
    ]);
    expect(ward.regions.map((r) => r.slug).sort()).toEqual([
      'region:de-new-castle-county',
      'region:de-wilmington-city',
      'region:de-wilmington-council-district-4',
    ]);
  });

  it('refuses a district no rule names rather than pinning it to a larger region', () => {
    expect(identify(co, 'DISTRICT ATTORNEY', 'NORTHERN', { dataverse: 'LOCAL' })).toEqual({
      problem: expect.stringMatching(/district "NORTHERN": no rule names the region/),
    });
    expect(identify(co, 'DOG CATCHER', '', { dataverse: 'LOCAL' })).toEqual({
      problem: expect.stringMatching(/names no county or place/),
    });
  });

  it('a statewide ballot question fills no office', () => {
    expect(found(identify(co, 'AMENDMENT 79 (CONSTITUTIONAL)', 'STATEWIDE', { kind: 'measure' }))).toMatchObject({
      office: null,
      contestKey: 'amendment-79-constitutional',
      name: 'Amendment 79 (Constitutional), Colorado',
    });
  });
});
