import { afterAll, describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import type { CandidacyDraft } from '../../domain/drafts.js';
import type { ContestData } from '../../model/nodes.js';
import { ImportFileError } from '../shared/index.js';
import { collect, fixtureDir } from '../shared/test-files.js';
import { importVip } from './index.js';

const fx = fixtureDir();
afterAll(() => fx.cleanup());

const en = (s: string) => `<Text language="en">${s}</Text>`;

/** A small VIP 5 feed: one state, one House district, one office and contest, two candidates. */
function feed(
  parts: {
    election?: string;
    extra?: string;
    candidates?: string;
    district?: string;
    office?: string;
    contest?: string;
    declaration?: string;
  } = {},
): string {
  return `${parts.declaration ?? '<?xml version="1.0"?>'}
<VipObject schemaVersion="5.2">
  <Source id="src1"><Name>Colorado Secretary of State</Name><VipId>08</VipId><DateTime>2026-06-01T00:00:00</DateTime></Source>
  ${parts.election ?? `<Election id="e1"><Date>2026-11-03</Date><ElectionType>${en('General')}</ElectionType><StateId>st08</StateId></Election>`}
  <State id="st08"><Name>Colorado</Name></State>
  ${parts.district ?? '<ElectoralDistrict id="ed1"><Name>District 1</Name><Number>1</Number><Type>congressional</Type></ElectoralDistrict>'}
  ${parts.office ?? `<Office id="o1"><ElectoralDistrictId>ed1</ElectoralDistrictId><Name>${en('U.S. Representative')}</Name></Office>`}
  <Party id="p1"><Abbreviation>DEM</Abbreviation><Name>${en('Democratic')}</Name></Party>
  ${parts.contest ?? '<CandidateContest id="cc1"><BallotSelectionIds>cs1</BallotSelectionIds><ElectoralDistrictId>ed1</ElectoralDistrictId><Name>U.S. House District 1</Name><OfficeIds>o1</OfficeIds></CandidateContest>'}
  <CandidateSelection id="cs1"><CandidateIds>c1 c2</CandidateIds></CandidateSelection>
  ${
    parts.candidates ??
    `<Candidate id="c1"><BallotName>${en('Diana DeGette')}</BallotName><PartyId>p1</PartyId><PersonId>per1</PersonId></Candidate>
  <Candidate id="c2"><BallotName>${en('Jo Doe')}</BallotName><PersonId>per2</PersonId></Candidate>`
  }
  <Person id="per1"><FirstName>Diana</FirstName><LastName>DeGette</LastName></Person>
  <Person id="per2"><FirstName>Jo</FirstName><LastName>Doe</LastName></Person>
  ${parts.extra ?? ''}
</VipObject>
`;
}

async function failure(path: string): Promise<ImportFileError> {
  const err = await collect(importVip(path)).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ImportFileError);
  return err as ImportFileError;
}

const rejectionsOf = async (xml: string, name = 'feed.xml') =>
  (await collect(importVip(fx.write(name, xml)))).rejections.map((r) => r.rejected);
const candidacies = async (xml: string) =>
  (await collect(importVip(fx.write('feed.xml', xml)))).batches
    .flatMap((b) => b.batch.nodes)
    .filter((n): n is CandidacyDraft => n.kind === 'candidacy');

describe('a well-formed small feed', () => {
  it('maps the federal seat through the shared rules and the candidates through their Persons', async () => {
    const { batches, rejections } = await collect(importVip(fx.write('ok.xml', feed())));
    expect(rejections).toEqual([]);
    const slugs = batches.flatMap((b) => b.batch.nodes.map((n) => n.slug));
    expect(slugs).toContain('office:co-cd-1-us-representative');
    expect(slugs).toContain('contest:co-cd-1-us-representative-2026-general');
    expect(slugs).toContain('candidacy:co-cd-1-us-representative-2026-general-diana-degette');
    expect(slugs).toContain('person:vip-08-per1');
  });
});

describe('bad references are rejections naming the element and the id', () => {
  it('a PartyId naming no Party (an unknown party) rejects that candidate only', async () => {
    const xml = feed({
      candidates: `<Candidate id="c1"><BallotName>${en('Diana DeGette')}</BallotName><PartyId>p9</PartyId><PersonId>per1</PersonId></Candidate><Candidate id="c2"><BallotName>${en('Jo Doe')}</BallotName><PersonId>per2</PersonId></Candidate>`,
    });
    expect(await rejectionsOf(xml)).toEqual([
      {
        at: expect.stringMatching(/^Candidate c1 \(line \d+\)$/),
        reason: expect.stringMatching(/PartyId "p9" names no element in the feed \(unknown party\)/),
      },
    ]);
    expect((await candidacies(xml)).map((c) => c.claims.name)).toEqual(['Jo Doe']);
  });

  it('a reference to the wrong kind of element says what it names', async () => {
    const xml = feed({
      candidates: `<Candidate id="c1"><BallotName>${en('Diana DeGette')}</BallotName><PartyId>o1</PartyId></Candidate><Candidate id="c2"><BallotName>${en('Jo')}</BallotName></Candidate>`,
    });
    expect((await rejectionsOf(xml))[0]!.reason).toMatch(/PartyId "o1" names a Office, not a Party/);
  });

  it('a contest whose ElectoralDistrictId dangles is rejected, and so are offices on a missing district', async () => {
    const xml = feed({
      office: `<Office id="o1"><ElectoralDistrictId>ed404</ElectoralDistrictId><Name>${en('Mayor')}</Name></Office>`,
    });
    const rejections = await rejectionsOf(xml);
    expect(rejections.map((r) => r.reason)).toEqual([
      expect.stringMatching(/^Office o1 \(line \d+\): ElectoralDistrictId "ed404" names no element in the feed$/),
      expect.stringMatching(/^CandidateContest cc1 .*: its Office o1 is not imported \(.*ed404/),
    ]);
  });

  it('a second element reusing an id is rejected, naming the first', async () => {
    const xml = feed({ extra: '<Party id="p1"><Name><Text language="en">Whig</Text></Name></Party>' });
    expect(await rejectionsOf(xml)).toEqual([
      {
        at: expect.stringMatching(/^Party p1 \(line \d+\)$/),
        reason: expect.stringMatching(/id "p1" is already used by Party p1 \(line \d+\)/),
      },
    ]);
  });

  it('a district type with no region level is refused, and its contests with it', async () => {
    const xml = feed({
      district: '<ElectoralDistrict id="ed1"><Name>Ward 3</Name><Type>ward</Type></ElectoralDistrict>',
    });
    const reasons = (await rejectionsOf(xml)).map((r) => r.reason);
    expect(reasons[0]).toMatch(/districts of Type "ward" have no region level/);
    expect(reasons.some((r) => /CandidateContest cc1/.test(r) || /no region/.test(r))).toBe(true);
  });

  it('an Election without a usable date rejects the contests, saying why', async () => {
    const xml = feed({ election: `<Election id="e1"><Date>11/3/26</Date><StateId>st08</StateId></Election>` });
    const rejections = await rejectionsOf(xml);
    expect(rejections[0]).toEqual({
      at: 'Election',
      reason: expect.stringMatching(/Date "11\/3\/26" is not a YYYY-MM-DD date/),
    });
    expect(rejections.some((r) => /^CandidateContest cc1/.test(r.at) && /election cannot be used/.test(r.reason))).toBe(
      true,
    );
  });
});

describe('statuses and terms', () => {
  it('maps PreElectionStatus and PostElectionStatus onto filing status and ballot access', async () => {
    const xml = feed({
      candidates: `<Candidate id="c1"><BallotName>${en('A One')}</BallotName><PreElectionStatus>qualified</PreElectionStatus><IsIncumbent>true</IsIncumbent></Candidate>
        <Candidate id="c2"><BallotName>${en('B Two')}</BallotName><PreElectionStatus>withdrawn</PreElectionStatus></Candidate>`,
      extra: `<CandidateSelection id="cs2"><CandidateIds>c3</CandidateIds></CandidateSelection><Candidate id="c3"><BallotName>${en('C Three')}</BallotName><PreElectionStatus>write-in</PreElectionStatus></Candidate>`,
      contest:
        '<CandidateContest id="cc1"><BallotSelectionIds>cs1 cs2</BallotSelectionIds><ElectoralDistrictId>ed1</ElectoralDistrictId><OfficeIds>o1</OfficeIds></CandidateContest>',
    });
    const byName = Object.fromEntries((await candidacies(xml)).map((c) => [c.claims.name, c.claims]));
    expect(byName['A One']).toMatchObject({ filingStatus: 'QUALIFIED', ballotAccess: 'ON_BALLOT', isIncumbent: true });
    expect(byName['B Two']).toMatchObject({ filingStatus: 'WITHDRAWN' });
    expect(byName['B Two']).not.toHaveProperty('ballotAccess');
    expect(byName['C Three']).toMatchObject({ ballotAccess: 'WRITE_IN' });
    expect(byName['C Three']).not.toHaveProperty('filingStatus');
  });

  it('a contest for an unexpired term is a special election', async () => {
    const xml = feed({
      district: '<ElectoralDistrict id="ed1"><Name>Denver</Name><Type>county</Type></ElectoralDistrict>',
      office: `<Office id="o1"><ElectoralDistrictId>ed1</ElectoralDistrictId><Name>${en('County Clerk')}</Name><Term><Type>unexpired-term</Type></Term></Office>`,
    });
    const contests = (await collect(importVip(fx.write('special.xml', xml)))).batches
      .flatMap((b) => b.batch.nodes)
      .filter((n) => n.kind === 'contest');
    expect(contests[0]).toMatchObject({ slug: 'contest:co-denver-county-county-clerk-2026-special', tier: 'county' });
    expect((contests[0] as { data: ContestData }).data).toMatchObject({
      special: true,
      type: 'special',
      region: 'region:co-denver-county',
    });
  });
});

describe('files that cannot be read end in an ImportFileError naming the file and line', () => {
  it('malformed XML', async () => {
    const err = await failure(fx.write('bad.xml', feed().replace('</Office>', '</Offise>')));
    expect(err.message).toMatch(/bad\.xml line \d+: malformed XML: Expected closing tag 'Office'/);
    expect(err.line).toBeGreaterThan(1);
  });

  it('a truncated feed', async () => {
    const xml = feed();
    const err = await failure(fx.write('cut.xml', xml.slice(0, xml.indexOf('<CandidateSelection'))));
    expect(err.message).toMatch(
      /cut\.xml line \d+: malformed XML: the document ends with <VipObject> still open: the file looks truncated/,
    );
  });

  it('Latin-1 bytes in a feed that does not declare Latin-1; read fine when it does', async () => {
    const latin = (decl: string) => Buffer.from(feed({ declaration: decl }).replace('Jo Doe', 'José Doe'), 'latin1');
    const err = await failure(fx.write('latin1.xml', latin('<?xml version="1.0"?>')));
    expect(err.message).toMatch(/latin1\.xml line \d+: byte 0xE9 is not UTF-8/);
    const names = (
      await collect(importVip(fx.write('declared.xml', latin('<?xml version="1.0" encoding="ISO-8859-1"?>'))))
    ).batches
      .flatMap((b) => b.batch.nodes)
      .filter((n): n is CandidacyDraft => n.kind === 'candidacy')
      .map((c) => c.claims.name);
    expect(names).toContain('José Doe');
  });

  it('not a VIP feed, an empty file, a zip without a feed', async () => {
    expect((await failure(fx.write('other.xml', '<?xml version="1.0"?><rss><channel/></rss>'))).message).toMatch(
      /root element is <rss>, not <VipObject>/,
    );
    expect((await failure(fx.write('empty.xml', ''))).message).toMatch(/empty/);
    expect(
      (await failure(fx.write('nofeed.zip', zipSync({ '__MACOSX/._x.xml': strToU8('junk'), 'a.txt': strToU8('x') }))))
        .message,
    ).toMatch(/holds no \.xml file; it holds a\.txt/);
  });

  it('reads a zipped feed, ignoring __MACOSX junk beside it', async () => {
    const path = fx.write(
      'feed.zip',
      zipSync({
        'vipfeed-08-2026-11-03.xml': strToU8(feed()),
        '__MACOSX/._vipfeed-08-2026-11-03.xml': strToU8('junk'),
      }),
    );
    const { batches, rejections } = await collect(importVip(path));
    expect(rejections).toEqual([]);
    expect(batches.length).toBeGreaterThan(5);
  });
});
