import { describe, expect, it } from 'vitest';
import { sharedData } from '@civicgraph/kit';
import type { DraftBatch, NodeDraft } from '../../domain/drafts.js';
import type { ContestData, ResultData } from '../../model/nodes.js';
import { collect } from '../shared/test-files.js';
import { importResults, type ResultsImportOptions } from './index.js';

const medsl = (file: string) => sharedData(`results/medsl-2024/${file}`);
const CO = medsl('derived/co24-contest-totals.csv');
const DE = medsl('derived/de24-contest-totals.csv');
const DE_ZIP = medsl('individual_states/de24.zip');
const PRESIDENT = medsl('2024-president-state.csv');
const SENATE = medsl('2024-senate-state.csv');
const SENATE_COUNTY = medsl('2024-senate-county.csv');

async function run(path: string, options: ResultsImportOptions = {}) {
  const notes: { at: string; note: string }[] = [];
  const { batches, rejections } = await collect(
    importResults(path, { ...options, onNote: (at, note) => notes.push({ at, note }) }),
  );
  const nodes = new Map<string, NodeDraft>();
  for (const b of batches) for (const n of b.batch.nodes) nodes.set(n.slug, n);
  const data = <T>(slug: string) => (nodes.get(slug) as { data: T } | undefined)?.data;
  return {
    batches,
    rejections,
    notes,
    nodes,
    contest: (s: string) => data<ContestData>(s),
    result: (s: string) => data<ResultData>(s),
  };
}

const batchOf = (batches: { batch: DraftBatch }[], contest: string) =>
  batches.find((b) => b.batch.nodes.some((n) => n.slug === contest))!.batch;

describe.skipIf(CO === undefined)('Colorado 2024 contest totals (derived from MEDSL co24)', () => {
  it('matches the official canvass for President: Harris 1,728,159, Trump 1,377,441', async () => {
    const { result, contest } = await run(CO!);
    const harris = result('result:co-us-president-2024-general-kamala-d-harris')!;
    const trump = result('result:co-us-president-2024-general-donald-j-trump')!;
    expect(harris).toMatchObject({
      votes: 1_728_159,
      contest: 'contest:co-us-president-2024-general',
      party: 'party:democratic',
      certified: true,
      winner: true,
    });
    expect(trump).toMatchObject({ votes: 1_377_441, party: 'party:republican', winner: false });
    expect(harris.share).toBeCloseTo(1_728_159 / harris.totalVotes!, 12);
    expect(harris.share! + trump.share!).toBeLessThan(1);
    expect(contest('contest:co-us-president-2024-general')).toMatchObject({
      date: '2024-11-05',
      year: 2024,
      type: 'general',
      level: 'state',
      region: 'region:co',
      office: 'office:us-president',
      seats: 1,
    });
  });

  it('reads the 11/5/24 dates as 2024-11-05 and drafts one Colorado election day', async () => {
    const { nodes } = await run(CO!);
    const elections = [...nodes.values()].filter((n) => n.kind === 'election');
    expect(elections.map((e) => [e.slug, (e as { data: { date: string } }).data.date])).toEqual([
      ['election:co-2024-11-05', '2024-11-05'],
    ]);
  });

  it('imports all 260 contests, judicial and transit districts included', async () => {
    const { batches, rejections, contest } = await run(CO!);
    expect(rejections).toEqual([]);
    expect(batches).toHaveLength(260);
    expect(contest('contest:co-judicial-district-2-district-attorney-2024-general')).toMatchObject({
      region: 'region:co-judicial-district-2',
      level: 'judicial-district',
    });
    expect(
      contest('contest:co-regional-transportation-district-a-regional-transportation-district-director-2024-general'),
    ).toMatchObject({ level: 'special-district' });
  });

  it('reads the CD-4 special=TRUE mis-flag as the regular general election, with a note, and invents no special contest', async () => {
    const { contest, nodes, notes } = await run(CO!);
    expect(contest('contest:co-cd-4-us-representative-2024-general')).toMatchObject({
      type: 'general',
      special: false,
    });
    expect([...nodes.keys()].filter((s) => s.startsWith('contest:') && s.endsWith('-special'))).toEqual([]);
    expect(notes).toEqual([
      { at: expect.stringMatching(/^CO US HOUSE 004 /), note: expect.stringMatching(/special=TRUE ignored/) },
    ]);
  });

  it('splits a retention group into one YES/NO question per judge', async () => {
    const { result, contest } = await run(CO!);
    expect(contest('contest:co-adams-county-county-court-judge-dinnel-2024-retention')).toMatchObject({
      type: 'retention',
      region: 'region:co-adams-county',
      office: 'office:co-adams-county-county-court-judge',
    });
    expect(result('result:co-adams-county-county-court-judge-dinnel-2024-retention-yes')).toMatchObject({
      votes: 120_629,
      candidacy: '',
      winner: true,
    });
    expect(result('result:co-adams-county-county-court-judge-dinnel-2024-retention-no')).toMatchObject({
      votes: 59_832,
      winner: false,
    });
  });

  it("settles ballot questions by Colorado's thresholds: Amendment 79 passed (62 %), Amendment 80 failed", async () => {
    const { result, contest } = await run(CO!);
    expect(contest('contest:co-amendment-79-constitutional-2024-general')).toMatchObject({
      office: '',
      region: 'region:co',
    });
    expect(result('result:co-amendment-79-constitutional-2024-general-yes')).toMatchObject({
      votes: 1_921_593,
      winner: true,
      party: '',
    });
    expect(result('result:co-amendment-80-constitutional-2024-general-yes')).toMatchObject({
      votes: 1_507_236,
      winner: false,
    });
    expect(result('result:co-amendment-80-constitutional-2024-general-no')!.winner).toBe(true);
  });

  it('cites the state canvass as an official filing, and links every node it states to it', async () => {
    const { nodes, batches } = await run(CO!);
    expect(nodes.get('provenance:medsl-co24-contest-totals')).toMatchObject({
      data: {
        method: 'official-filing',
        url: expect.stringContaining('individual_states/co24.zip'),
        publisher: expect.stringContaining('Colorado'),
      },
    });
    const batch = batchOf(batches, 'contest:co-cd-4-us-representative-2024-general');
    const supported = batch.edges.filter((e) => e.kind === 'SUPPORTED_BY').map((e) => e.from);
    const stated = batch.nodes.filter((n) => n.kind !== 'provenance' && !('createOnly' in n && n.createOnly));
    expect(supported.sort()).toEqual(stated.map((n) => n.slug).sort());
  });

  it('ties each contest to its region, office and election, with every edge ending inside the batch', async () => {
    const { batches } = await run(CO!);
    const batch = batchOf(batches, 'contest:co-sldu-2-state-senator-2024-general');
    expect(
      batch.edges
        .filter((e) => e.from === 'contest:co-sldu-2-state-senator-2024-general')
        .map((e) => `${e.kind} ${e.to}`)
        .sort(),
    ).toEqual([
      'FOR_OFFICE office:co-sldu-2-state-senator',
      'IN_ELECTION election:co-2024-11-05',
      'IN_REGION region:co-sldu-2',
      'SUPPORTED_BY provenance:medsl-co24-contest-totals',
    ]);
    for (const { batch: b } of batches) {
      const inBatch = new Set(b.nodes.map((n) => n.slug));
      for (const e of b.edges) expect([e.from, e.to].filter((s) => !inBatch.has(s))).toEqual([]);
    }
  });

  it("drafts each certified candidate's candidacy, on the ballot, and links its result to it", async () => {
    const { batches, result, nodes } = await run(CO!);
    const boebert = 'candidacy:co-cd-4-us-representative-2024-general-lauren-boebert';
    expect(result('result:co-cd-4-us-representative-2024-general-lauren-boebert')!.candidacy).toBe(boebert);
    expect(nodes.get(boebert)).toMatchObject({
      kind: 'candidacy',
      claims: {
        name: 'Lauren Boebert',
        person: 'person:co-cd-4-lauren-boebert',
        contest: 'contest:co-cd-4-us-representative-2024-general',
        party: 'party:republican',
        filingStatus: 'QUALIFIED',
        ballotAccess: 'ON_BALLOT',
      },
    });
    const links = batches.flatMap((b) => b.batch.edges.filter((e) => e.kind === 'RESULT_FOR' && e.to === boebert));
    expect(links).toHaveLength(1);
    // A ballot question has choices, not candidacies.
    expect([...nodes.keys()].filter((s) => s.startsWith('candidacy:co-amendment-79'))).toEqual([]);
  });

  it('matches a certified candidate to the person another source ties to the office', async () => {
    const office = 'office:co-cd-4-us-representative';
    const { nodes, batches } = await run(CO!, {
      officePeople: (o) => (o === office ? [{ slug: 'person:bioguide-b000825', name: 'Lauren Boebert' }] : []),
    });
    expect(nodes.get('candidacy:co-cd-4-us-representative-2024-general-lauren-boebert')).toMatchObject({
      claims: { person: 'person:bioguide-b000825' },
    });
    expect(nodes.has('person:co-cd-4-lauren-boebert')).toBe(false);
    const edge = batches
      .flatMap((b) => b.batch.edges)
      .find((e) => e.kind === 'OF_PERSON' && e.to === 'person:bioguide-b000825');
    expect(edge?.data).toEqual({ rule: 'name+office', confidence: 0.95 });
  });

  it('yields the same drafts on a second read (stable slugs, no row order or time in them)', async () => {
    const a = await run(CO!, { provenance: { retrievedAt: '2026-01-01T00:00:00Z' } });
    const b = await run(CO!, { provenance: { retrievedAt: '2026-01-01T00:00:00Z' } });
    expect(b.batches).toEqual(a.batches);
  });
});

describe.skipIf(DE === undefined || DE_ZIP === undefined)(
  'Delaware 2024: contest totals and the raw precinct zip',
  () => {
    it('reads the ISO dates and imports all 87 contests, council districts included', async () => {
      const { batches, rejections, contest } = await run(DE!);
      expect(rejections).toEqual([]);
      expect(batches).toHaveLength(87);
      expect(contest('contest:de-wilmington-council-district-4-city-council-2024-general')).toMatchObject({
        region: 'region:de-wilmington-council-district-4',
        level: 'ward',
      });
      expect(contest('contest:de-cd-at-large-us-representative-2024-general')).toMatchObject({
        date: '2024-11-05',
        region: 'region:de-cd-at-large',
      });
      expect(contest('contest:de-wilmington-city-city-council-at-large-2024-general')).toMatchObject({
        region: 'region:de-wilmington-city',
        level: 'place',
      });
    });

    it('sums only the TOTAL rows of the precinct zip, giving exactly the contest totals', async () => {
      const totals = await run(DE!);
      const zip = await run(DE_ZIP!);
      expect(zip.notes).toEqual([]);
      const votes = (r: typeof totals) =>
        [...r.nodes.values()]
          .filter((n) => n.kind === 'result')
          .map((n) => [n.slug, (n as { data: ResultData }).data.votes])
          .sort();
      expect(votes(zip)).toEqual(votes(totals));
      expect(zip.result('result:de-cd-at-large-us-representative-2024-general-sarah-mcbride')!.votes).toBeGreaterThan(
        0,
      );
    });

    it('sums the per-mode rows instead when asked, never both: the same totals', async () => {
      const total = await run(DE_ZIP!, { modes: 'total' });
      const parts = await run(DE_ZIP!, { modes: 'parts' });
      const harris = 'result:de-us-president-2024-general-kamala-d-harris';
      expect(parts.result(harris)!.votes).toBe(total.result(harris)!.votes);
      expect(total.result(harris)!.votes).toBe(289_758);
    });
  },
);

describe.skipIf(PRESIDENT === undefined || SENATE === undefined || SENATE_COUNTY === undefined)(
  'the national MEDSL files',
  () => {
    it('president by state: 51 contests, the general election day from the year, unofficial states not certified', async () => {
      const { batches, rejections, result, contest } = await run(PRESIDENT!);
      expect(batches).toHaveLength(51);
      expect(rejections).toEqual([]);
      expect(contest('contest:dc-us-president-2024-general')).toMatchObject({
        date: '2024-11-05',
        region: 'region:dc',
      });
      expect(result('result:co-us-president-2024-general-kamala-d-harris')).toMatchObject({
        choice: 'HARRIS, KAMALA D.',
        votes: 1_728_159,
      });
      expect(result('result:az-us-president-2024-general-donald-j-trump')).toMatchObject({
        certified: false,
        winner: true,
      });
      expect(result('result:al-us-president-2024-general-write-in')).toMatchObject({
        votes: 8738,
        candidacy: '',
        winner: false,
      });
    });

    it('a joint ticket is one candidacy named as printed, and its person is the presidential candidate, not the pair', async () => {
      const sonski = { slug: 'person:fec-p40013724', name: 'Peter Sonski' };
      const { nodes } = await run(PRESIDENT!, {
        officePeople: (o) => (o === 'office:us-president' ? [sonski] : []),
      });
      // Kentucky prints the running mate first; the FEC's presidential registrant says who ran for president.
      expect(nodes.get('candidacy:ky-us-president-2024-general-lauren-onak-peter-sonski')).toMatchObject({
        claims: { name: 'Lauren Onak / Peter Sonski', person: sonski.slug, ballotAccess: 'WRITE_IN' },
      });
      expect(nodes.get('candidacy:tx-us-president-2024-general-peter-sonski-lauren-onak')).toMatchObject({
        claims: { name: 'Peter Sonski/Lauren Onak', person: sonski.slug },
      });
      // No source knows Cherunda Fox's running mate: the first name is the candidate.
      expect(nodes.get('candidacy:tx-us-president-2024-general-cherunda-fox-harlan-mcvay')).toMatchObject({
        claims: { name: 'Cherunda Fox/Harlan McVay', person: 'person:us-cherunda-fox' },
      });
      expect(nodes.get('person:us-cherunda-fox')).toMatchObject({
        data: { name: 'Cherunda Fox', givenName: 'Cherunda', familyName: 'Fox' },
      });
      // Ohio joins the pair with AND, Indiana with &.
      expect(nodes.get('candidacy:oh-us-president-2024-general-cherunda-fox-and-harlan-mcvay')).toMatchObject({
        claims: { name: 'Cherunda Fox and Harlan McVay', person: 'person:us-cherunda-fox' },
      });
      expect(nodes.get('candidacy:in-us-president-2024-general-claudia-de-la-cruz-karina-garcia')).toMatchObject({
        claims: { person: 'person:us-claudia-de-la-cruz' },
      });
      // No person is a pair the returns joined; pairs a state wrote without a joiner
      // (Missouri's `PETER SONSKI LAUREN ONAK`) stay as the state printed them.
      const persons = [...nodes.keys()].filter((k) => k.startsWith('person:'));
      expect(persons.filter((k) => /mcvay|cornel-west-melina|and-karina|lauren-onak-peter/.test(k))).toEqual([]);
    });

    it("senate by state: 33 class-1 contests; the county file's 32 add up to the state totals, with the Nebraska special beside them", async () => {
      const state = await run(SENATE!);
      expect(state.batches).toHaveLength(33);
      expect(state.contest('contest:az-us-senator-class-1-2024-general')).toMatchObject({
        office: 'office:az-us-senator-class-1',
      });
      const county = await run(SENATE_COUNTY!);
      expect(county.batches).toHaveLength(33);
      expect(county.rejections).toEqual([]);
      const gallego = 'result:az-us-senator-class-1-2024-general-ruben-gallego';
      expect(county.result(gallego)!.votes).toBe(state.result(gallego)!.votes);
      expect(state.nodes.has('contest:ne-us-senator-class-2-2024-special')).toBe(false);
    });

    it("the county file's specials alone: Nebraska's class 2 seat, Ricketts 585,103 against Love 349,902", async () => {
      const { batches, rejections, contest, result } = await run(SENATE_COUNTY!, {
        specialsOnly: true,
        exceptStates: ['co', 'de'],
      });
      expect(rejections).toEqual([]);
      expect(batches).toHaveLength(1);
      expect(contest('contest:ne-us-senator-class-2-2024-special')).toMatchObject({
        name: 'U.S. Senator (Class 2), Nebraska, special election',
        type: 'special',
        special: true,
        date: '2024-11-05',
        office: 'office:ne-us-senator-class-2',
        region: 'region:ne',
      });
      expect(result('result:ne-us-senator-class-2-2024-special-pete-ricketts')).toMatchObject({
        votes: 585_103,
        winner: true,
      });
      expect(result('result:ne-us-senator-class-2-2024-special-preston-love-jr')).toMatchObject({
        votes: 349_902,
        winner: false,
      });
    });

    it('leaves out the states asked (their own fuller returns are imported apart)', async () => {
      const { batches, nodes } = await run(PRESIDENT!, { exceptStates: ['CO', 'de'] });
      expect(batches).toHaveLength(49);
      expect([...nodes.keys()].filter((s) => /^(contest|candidacy|result):(co|de)-/.test(s))).toEqual([]);
      expect(nodes.has('contest:ny-us-president-2024-general')).toBe(true);
    });

    it('sums a fusion candidate (one name on two party lines) into one result under the larger line', async () => {
      const { result } = await run(SENATE!);
      expect(result('result:ct-us-senator-class-1-2024-general-christopher-s-murphy')).toMatchObject({
        votes: 953_646 + 47_049,
        party: 'party:democratic',
      });
    });
  },
);
