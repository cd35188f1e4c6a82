import { sharedData } from '@civicgraph/kit';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DraftBatch, DraftItem } from '../../domain/drafts.js';
import { ImportFileError } from '../shared/errors.js';
import { collect, fixtureDir } from '../shared/test-files.js';
import { fecPersonIndex } from './fec-index.js';
import { importLegislators } from './import-legislators.js';

/** congress-legislators carries no date of its own: the copy in shared/data is from commit dfa9622 (2026-06-15). */
const RETRIEVED = '2026-06-15T00:00:00Z';

type Collected = Awaited<ReturnType<typeof collect<DraftItem>>>;
const personOf = (b: DraftBatch) => b.nodes.find((n) => n.kind === 'person')!;
const holds = (b: DraftBatch) => b.edges.filter((e) => e.kind === 'HOLDS');

describe('importLegislators on the real congress-legislators files', () => {
  const current = sharedData('officeholders/congress-legislators/legislators-current.yaml');
  const executive = sharedData('officeholders/congress-legislators/executive.yaml');

  describe.skipIf(current === undefined)('legislators-current.yaml', () => {
    let result: Collected;
    const byBioguide = (id: string) => result.batches.find((b) => b.at.includes(`(bioguide ${id})`))!.batch;
    beforeAll(async () => {
      result = await collect(importLegislators(current!, { asOf: '2026-07-01', retrievedAt: '2026-06-15T00:00:00Z' }));
    });

    it('drafts every one of the 537 members serving on the day', () => {
      expect(result.rejections).toEqual([]);
      expect(result.batches).toHaveLength(537);
      expect(result.rejections).toEqual([]);
      const offices = new Set(
        result.batches.flatMap((b) => b.batch.nodes.filter((n) => n.kind === 'office').map((n) => n.slug)),
      );
      expect(offices.size).toBe(537);
    });

    it('a Colorado House member: person, office, district reference, party and terms', () => {
      const batch = byBioguide('D000197');
      expect(personOf(batch)).toMatchObject({
        slug: 'person:bioguide-d000197',
        state: 'co',
        tier: '',
        data: { name: 'Diana DeGette', givenName: 'Diana', familyName: 'DeGette', birthday: '1957-07-29', gender: 'F' },
      });
      expect(personOf(batch).data).toMatchObject({
        ids: { bioguide: ['D000197'], fec: ['H6CO01141'], govtrack: ['400101'] },
      });
      expect(batch.nodes).toContainEqual({
        kind: 'office',
        slug: 'office:co-cd-1-us-representative',
        state: 'co',
        tier: 'federal',
        data: {
          name: 'U.S. Representative',
          level: 'congressional-district',
          tier: 'federal',
          region: 'region:co-cd-1',
        },
      });
      expect(batch.nodes).toContainEqual(expect.objectContaining({ slug: 'region:co-cd-1', createOnly: true }));
      expect(batch.nodes).toContainEqual({
        kind: 'party',
        slug: 'party:democratic',
        state: '',
        tier: '',
        data: { name: 'Democratic Party', abbreviation: 'DEM' },
      });
      expect(batch.edges).toContainEqual({
        kind: 'SERVES_REGION',
        from: 'office:co-cd-1-us-representative',
        to: 'region:co-cd-1',
        key: '',
        data: {},
      });
      expect(holds(batch).at(-1)).toEqual({
        kind: 'HOLDS',
        from: 'person:bioguide-d000197',
        to: 'office:co-cd-1-us-representative',
        key: '2025-01-03',
        data: { start: '2025-01-03', end: '2027-01-03', party: 'party:democratic' },
      });
      expect(holds(batch).length).toBeGreaterThan(10);
      expect(batch.edges).toContainEqual(
        expect.objectContaining({
          kind: 'SUPPORTED_BY',
          from: 'person:bioguide-d000197',
          to: 'provenance:congress-legislators-current',
        }),
      );
    });

    it('senators hold their class seat; earlier terms in another seat are left out', () => {
      const cantwell = byBioguide('C000127');
      expect(new Set(holds(cantwell).map((e) => e.to))).toEqual(new Set(['office:wa-us-senator-class-1']));
      expect(holds(cantwell).map((e) => e.key)[0]).toBe('2001-01-03');
      expect(cantwell.nodes).toContainEqual(
        expect.objectContaining({
          slug: 'office:wa-us-senator-class-1',
          data: expect.objectContaining({ level: 'state', region: 'region:wa' }),
        }),
      );
      const sanders = byBioguide('S000033');
      expect(holds(sanders).at(-1)?.data.party).toBe('party:independent');
    });

    it("DC's delegate serves DC's delegate district", () => {
      const dcBatch = result.batches.find((b) =>
        b.batch.nodes.some((n) => n.slug === 'office:dc-cd-delegate-us-representative'),
      )!.batch;
      expect(dcBatch.nodes).toContainEqual(
        expect.objectContaining({ slug: 'region:dc-cd-delegate', createOnly: true }),
      );
    });

    it('a member sworn in later has no current term yet; after the 2026 specials the two appointed senators have none', async () => {
      const early = await collect(importLegislators(current!, { asOf: '2026-06-01', retrievedAt: RETRIEVED }));
      expect(early.rejections.map((r) => r.rejected.reason)).toEqual([
        'no current term: the last term (rep, CA) starts 2026-06-10, after 2026-06-01',
      ]);
      const later = await collect(importLegislators(current!, { asOf: '2026-11-23', retrievedAt: RETRIEVED }));
      expect(later.batches).toHaveLength(535);
      expect(later.rejections.map((r) => r.rejected)).toEqual([
        {
          at: expect.stringMatching(/^legislators-current\.yaml record \d+ \(bioguide H001104\) at line \d+$/),
          reason: 'no current term: the last term (sen, OH) ended 2026-11-03',
        },
        {
          at: expect.stringMatching(/\(bioguide M001244\)/),
          reason: 'no current term: the last term (sen, FL) ended 2026-11-03',
        },
      ]);
    });

    it('indexes FEC candidate ids to legislator persons', async () => {
      const index = await fecPersonIndex(current!);
      expect(index.get('H6CO01141')).toEqual({ person: 'person:bioguide-d000197' });
      // Maria Cantwell: her Senate and earlier House ids, and every Senate term she has served.
      const cantwell = {
        person: 'person:bioguide-c000127',
        senateTerms: [
          ['2001-01-03', '2007-01-03'],
          ['2007-01-04', '2013-01-03'],
          ['2013-01-03', '2019-01-03'],
          ['2019-01-03', '2025-01-03'],
          ['2025-01-03', '2031-01-03'],
        ].map(([start, end]) => ({ state: 'wa', senateClass: 1, start, end })),
      };
      expect(index.get('S8WA00194')).toEqual(cantwell);
      expect(index.get('H2WA01054')).toEqual(cantwell);
    });
  });

  it.skipIf(executive === undefined)('executive.yaml: every term of every president and vice president', async () => {
    const { batches, rejections } = await collect(
      importLegislators(executive!, { asOf: '2026-06-01', retrievedAt: RETRIEVED }),
    );
    expect(rejections).toEqual([]);
    expect(batches).toHaveLength(80);
    const washington = batches.find((b) => b.at.includes('W000178'))!.batch;
    expect(holds(washington).map((e) => [e.to, e.key, e.data.party])).toEqual([
      ['office:us-president', '1789-04-30', null],
      ['office:us-president', '1793-03-04', null],
    ]);
    expect(personOf(washington).state).toBe('');
    const adams = batches.find((b) => b.at.includes('A000039'))!.batch;
    expect(new Set(holds(adams).map((e) => e.to))).toEqual(
      new Set(['office:us-vice-president', 'office:us-president']),
    );
    expect(adams.nodes).toContainEqual(expect.objectContaining({ slug: 'party:federalist' }));
    expect(adams.nodes).toContainEqual(expect.objectContaining({ slug: 'provenance:congress-legislators-executive' }));
    const clinton = batches.find((b) => b.at.includes('(govtrack 412374)'))!.batch;
    expect(personOf(clinton)).toMatchObject({
      slug: 'person:govtrack-412374',
      data: { name: 'William Jefferson Clinton', givenName: 'William', familyName: 'Clinton' },
    });
  });
});

describe('importLegislators on bad input', () => {
  const fx = fixtureDir();
  afterEach(() => fx.cleanup());

  const member = (id: string, term: string) =>
    `- id:\n    bioguide: ${id}\n    fec:\n    - H0CO00000\n  name:\n    first: Ann\n    last: Lee\n  bio:\n    birthday: '1960-01-02'\n    gender: F\n  terms:\n${term}`;
  const rep = (fields: string) =>
    `  - type: rep\n    start: '2025-01-03'\n    end: '2027-01-03'\n    party: Democrat\n${fields}`;

  it('rejects unusable records with where and why, and drafts the rest', async () => {
    const yaml = [
      member('A000001', rep('    state: CO\n    district: 1\n')),
      member('A000002', rep('    state: XX\n    district: 1\n')),
      member('A000003', rep('    state: CO\n    district: at-large\n')),
      member('A000004', "  - type: rep\n    start: 1/3/25\n    end: '2027-01-03'\n    state: CO\n    district: 2\n"),
      member('A000005', rep('    state: CO\n    district: 1\n').replace("end: '2027-01-03'", "end: '2025-01-03'")),
      member('A000001', rep('    state: CO\n    district: 1\n')),
      member('bogus', rep('    state: CO\n    district: 1\n')),
      '- id:\n    bioguide: A000008\n  name:\n    first: No\n    last: Terms\n',
      member('A000009', "  - type: sen\n    start: '2025-01-03'\n    end: '2031-01-03'\n    state: DC\n    class: 2\n"),
      member('A000010', "  - type: sen\n    start: '2025-01-03'\n    end: '2031-01-03'\n    state: CO\n    class: 4\n"),
    ].join('');
    const { batches, rejections } = await collect(
      importLegislators(fx.write('legislators-current.yaml', yaml), { asOf: '2026-06-01', retrievedAt: RETRIEVED }),
    );
    expect(batches.map((b) => b.at)).toEqual(['legislators-current.yaml record 1 (bioguide A000001) at line 1']);
    expect(rejections.map((r) => [r.rejected.at.replace(/ at line \d+$/, ''), r.rejected.reason])).toEqual([
      ['legislators-current.yaml record 2 (bioguide A000002)', 'term 1: state "XX" is not a state'],
      [
        'legislators-current.yaml record 3 (bioguide A000003)',
        'term 1: district null is not a congressional district number',
      ],
      ['legislators-current.yaml record 4', 'term 1: start "1/3/25" is not a YYYY-MM-DD date'],
      [
        'legislators-current.yaml record 5 (bioguide A000005)',
        'no current term: the last term (rep, CO) ended 2025-01-03',
      ],
      ['legislators-current.yaml record 6 (bioguide A000001)', 'bioguide A000001 is listed twice (first: record 1)'],
      ['legislators-current.yaml record 7', 'id.bioguide "bogus" is not a bioguide id (A000360)'],
      ['legislators-current.yaml record 8', 'no terms'],
      ['legislators-current.yaml record 9 (bioguide A000009)', 'term 1: District of Columbia has no senators'],
      ['legislators-current.yaml record 10 (bioguide A000010)', 'term 1: class 4 is not a Senate class (1, 2, 3)'],
    ]);
  });

  it('a file cut off inside a record rejects that record and keeps the ones before it', async () => {
    const whole =
      member('A000001', rep('    state: CO\n    district: 1\n')) +
      member('A000002', rep('    state: CO\n    district: 2\n'));
    const cut = whole.slice(0, whole.lastIndexOf('  terms:'));
    const { batches, rejections } = await collect(
      importLegislators(fx.write('legislators-current.yaml', cut), { asOf: '2026-06-01', retrievedAt: RETRIEVED }),
    );
    expect(batches).toHaveLength(1);
    expect(rejections.map((r) => r.rejected.reason)).toEqual(['no terms']);
  });

  it('ends malformed YAML with an error naming the file and line', async () => {
    const bad = `${member('A000001', rep('    state: CO\n    district: 1\n'))}- id:\n    bioguide: A000002\n   name: [unclosed\n`;
    const error = await collect(
      importLegislators(fx.write('legislators-current.yaml', bad), { retrievedAt: RETRIEVED }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as ImportFileError).line).toBeGreaterThanOrEqual(14);
    expect((error as Error).message).toMatch(/^legislators-current\.yaml line \d+: malformed YAML: /);
  });

  it('refuses a file that is not a list of records, Latin-1 bytes and duplicate keys', async () => {
    await expect(collect(importLegislators(fx.write('a.yaml', 'id: 1\n'), { retrievedAt: RETRIEVED }))).rejects.toThrow(
      /a\.yaml line 1: the YAML top level is not a list of records/,
    );
    // The file says nothing of when it was published, and its modification time is not the source's date.
    await expect(collect(importLegislators(fx.write('d.yaml', '[]\n')))).rejects.toMatchObject({
      field: 'retrieved_at',
      message: expect.stringMatching(/d\.yaml carries no date of its own: give --retrieved-at/),
    });
    await expect(
      collect(
        importLegislators(
          fx.write(
            'b.yaml',
            Buffer.concat([Buffer.from('- name:\n    last: Mu'), Buffer.from([0xf1]), Buffer.from('oz\n')]),
          ),
          { retrievedAt: RETRIEVED },
        ),
      ),
    ).rejects.toThrow(/b\.yaml line 2: byte 0xF1 is not UTF-8/);
    await expect(
      collect(
        importLegislators(fx.write('c.yaml', '- id:\n    bioguide: A000001\n    bioguide: A000002\n'), {
          retrievedAt: RETRIEVED,
        }),
      ),
    ).rejects.toThrow(/c\.yaml line \d+: malformed YAML: Map keys must be unique/);
  });
});
