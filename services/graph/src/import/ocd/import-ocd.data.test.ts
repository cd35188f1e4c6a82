import { sharedData } from '@civicgraph/kit';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DraftBatch, DraftItem, PlainDraft } from '../../domain/drafts.js';
import { ImportFileError } from '../shared/errors.js';
import { collect, fixtureDir } from '../shared/test-files.js';
import { importOcd } from './import-ocd.js';

const AS_OF = '2026-06-01';
const RETRIEVED = '2026-03-19T00:00:00.000Z';

/** The region a batch states (not the parent it references). */
const regionOf = (b: DraftBatch) =>
  b.nodes.find((n): n is PlainDraft<'region'> => n.kind === 'region' && n.createOnly !== true)!;

describe('importOcd on the real ocd-division-ids files', () => {
  const folder = sharedData('ocd/country-us');

  describe.skipIf(folder === undefined)('the country-us folder', () => {
    let batches: Awaited<ReturnType<typeof collect<DraftItem>>>['batches'] = [];
    let rejections: Awaited<ReturnType<typeof collect<DraftItem>>>['rejections'] = [];
    let regions = new Map<string, { batch: DraftBatch; at: string; region: PlainDraft<'region'> }>();
    const count = (file: string) => batches.filter((b) => b.at.startsWith(`${file} `)).length;

    beforeAll(async () => {
      ({ batches, rejections } = await collect(importOcd(folder!, { asOf: AS_OF, retrievedAt: RETRIEVED })));
      regions = new Map(batches.map((b) => [regionOf(b.batch).slug, { ...b, region: regionOf(b.batch) }]));
    });

    it('drafts one region per current row of every file, counties included', () => {
      expect(count('states.csv')).toBe(52);
      expect(count('us_territories.csv')).toBe(5);
      expect(count('us_congressional_districts.csv')).toBe(441);
      expect(count('us_sldu.csv')).toBe(2003);
      expect(count('us_sldl.csv')).toBe(4993);
      expect(count('us_census_places.csv')).toBe(3178);
      expect(regions.size).toBe(batches.length);
    });

    it('skips expired ids with a reason, and the one id listed twice', () => {
      const expired = rejections.filter((r) => r.rejected.reason.startsWith('expired:'));
      expect(expired).toHaveLength(98);
      expect(rejections).toHaveLength(99);
      expect(rejections.map((r) => r.rejected)).toContainEqual({
        at: expect.stringMatching(/^us_congressional_districts\.csv line \d+$/),
        reason: 'expired: ocd-division/country:us/state:mt/cd:at-large was valid through 2023-01-03',
      });
      expect(rejections.find((r) => !r.rejected.reason.startsWith('expired:'))?.rejected.reason).toMatch(
        /^duplicate of us_sldl\.csv line \d+ \(ocd-division\/country:us\/state:vt\/sldl:chittenden-10 is listed twice\)$/,
      );
    });

    it('names a Colorado district as the geo service does, with the file name, Census FIPS and OCD id', () => {
      const cd1 = regions.get('region:co-cd-1')!;
      expect(cd1.region).toEqual({
        kind: 'region',
        slug: 'region:co-cd-1',
        state: 'co',
        tier: '',
        data: {
          name: "Colorado's 1st congressional district",
          level: 'congressional-district',
          fips: '0801',
          ocdId: 'ocd-division/country:us/state:co/cd:1',
          aliases: [],
          population: null,
        },
      });
      expect(cd1.batch.edges).toContainEqual({
        kind: 'WITHIN',
        from: 'region:co-cd-1',
        to: 'region:co',
        key: '',
        data: {},
      });
      expect(cd1.batch.edges).toContainEqual({
        kind: 'SUPPORTED_BY',
        from: 'region:co-cd-1',
        to: 'provenance:ocd-us-congressional-districts',
        key: '',
        data: {},
      });
      expect(cd1.batch.nodes).toContainEqual(expect.objectContaining({ slug: 'region:co', createOnly: true }));
    });

    it('gives at-large ids with an empty geoid a FIPS, and makes DC and territory seats delegate districts', () => {
      expect(regions.get('region:ak-cd-at-large')?.region.data).toMatchObject({
        fips: '0200',
        ocdId: 'ocd-division/country:us/state:ak/cd:at-large',
      });
      expect(regions.get('region:dc-cd-delegate')?.region.data).toMatchObject({
        fips: '1198',
        ocdId: 'ocd-division/country:us/district:dc/cd:at-large',
      });
      expect(regions.get('region:pr-cd-delegate')?.region.data.fips).toBe('7298');
      expect(regions.has('region:mt-cd-at-large')).toBe(false);
      expect(regions.has('region:mt-cd-2')).toBe(true);
    });

    it('keeps named districts (MA, VT, NH) and DC wards', () => {
      expect(regions.get('region:ma-sldl-1st-barnstable')?.region.data).toMatchObject({
        level: 'state-legislative-lower',
        ocdId: 'ocd-division/country:us/state:ma/sldl:1st_barnstable',
        fips: '',
      });
      expect(regions.get('region:vt-sldl-chittenden-1')?.region.state).toBe('vt');
      expect(regions.get('region:md-sldl-12b')).toBeDefined();
      expect(regions.get('region:dc-sldu-1')?.region.data).toMatchObject({
        name: 'District of Columbia Ward 1',
        ocdId: 'ocd-division/country:us/district:dc/ward:1',
      });
    });

    it('adds the aliases of aliases.csv, citing it', () => {
      const nj = regions.get('region:nj-sldu-1')!;
      expect(nj.region.data.aliases).toEqual(['ocd-division/country:us/state:nj/sldl:1']);
      expect(nj.batch.edges).toContainEqual(
        expect.objectContaining({ kind: 'SUPPORTED_BY', to: 'provenance:ocd-aliases' }),
      );
      expect(regions.get('region:dc')?.region.data.aliases).toEqual(['ocd-division/country:us/state:dc']);
      expect(regions.get('region:co-denver-county')?.region.data).toMatchObject({
        level: 'county',
        fips: '08031',
        aliases: ['ocd-division/country:us/state:co/place:denver'],
      });
      expect(regions.get('region:co-cd-1')?.batch.nodes.some((n) => n.slug === 'provenance:ocd-aliases')).toBe(false);
    });

    it('nests states in the nation and counties in their state', () => {
      expect(regions.get('region:us')?.region.data.level).toBe('national');
      expect(regions.get('region:co')?.batch.edges).toContainEqual(
        expect.objectContaining({ kind: 'WITHIN', to: 'region:us' }),
      );
      expect(regions.get('region:la-orleans-parish')?.batch.edges).toContainEqual(
        expect.objectContaining({ kind: 'WITHIN', to: 'region:la' }),
      );
      expect(regions.get('region:pr-adjuntas-municipio')?.region.state).toBe('pr');
    });

    it('cites one provenance record per file, public and CC0', () => {
      const prov = regions.get('region:co-sldu-7')!.batch.nodes.find((n) => n.kind === 'provenance');
      expect(prov).toEqual({
        kind: 'provenance',
        slug: 'provenance:ocd-us-sldu',
        state: '',
        tier: '',
        data: {
          source: 'OCD division ids: US state legislative districts (upper)',
          url: 'https://github.com/opencivicdata/ocd-division-ids/blob/master/identifiers/country-us/census_autogenerated/us_sldu.csv',
          publisher: 'Open Civic Data (opencivicdata/ocd-division-ids)',
          licence: 'CC0-1.0',
          retrievedAt: RETRIEVED,
          method: 'import',
        },
      });
    });
  });

  it.skipIf(folder === undefined)('imports one file alone, with the aliases beside it', async () => {
    const file = sharedData('ocd/country-us/census_autogenerated/us_sldu.csv')!;
    const { batches } = await collect(importOcd(file, { asOf: AS_OF, retrievedAt: RETRIEVED }));
    expect(batches).toHaveLength(2003);
    expect(batches.map((b) => regionOf(b.batch)).find((r) => r.slug === 'region:nj-sldu-1')?.data.aliases).toEqual([
      'ocd-division/country:us/state:nj/sldl:1',
    ]);
  });

  it.skipIf(folder === undefined)(
    'imports places on request, rejecting a second division with the same slug',
    async () => {
      const file = sharedData('ocd/country-us/census_autogenerated/us_census_places.csv')!;
      const { batches, rejections } = await collect(
        importOcd(file, { asOf: AS_OF, places: true, retrievedAt: RETRIEVED }),
      );
      expect(batches.length).toBeGreaterThan(30_000);
      expect(
        batches.map((b) => regionOf(b.batch)).find((r) => r.slug === 'region:co-boulder-city')?.data,
      ).toMatchObject({ level: 'place', fips: '0807850' });
      expect(
        rejections.every((r) =>
          /already drafted from us_census_places\.csv line \d+ .*two divisions with one name/.test(r.rejected.reason),
        ),
      ).toBe(true);
    },
  );
});

describe('importOcd on bad input', () => {
  const fx = fixtureDir();
  afterEach(() => fx.cleanup());

  const districts = (body: string) =>
    fx.write('census_autogenerated/us_congressional_districts.csv', `id,name,census_geoid,validThrough\n${body}`);

  it('rejects bad rows with the line and the reason, and goes on', async () => {
    const path = districts(
      [
        'ocd-division/country:us/state:co/cd:1,Colorado 1,cd-0801,',
        'ocd-division/country:us/state:xx/cd:1,Nowhere 1,,',
        'ocd-division/country:us/state:co/cd:one,Colorado One,,',
        'ocd-division/country:us/state:co/cd:2,Colorado 2',
        'ocd-division/country:us/state:co/cd:3,Colorado 3,cd-0803,2020-01-03',
        'ocd-division/country:us/state:co/cd:4,Colorado 4,,11/5/24x',
        'ocd-division/country:us/state:co/cd:5,,,',
        'ocd-division/country:us/state:co/cd:6,Colorado 6,cd-0806,2030-01-03',
      ].join('\n'),
    );
    const { batches, rejections } = await collect(importOcd(path, { asOf: AS_OF, retrievedAt: RETRIEVED }));
    expect(batches.map((b) => regionOf(b.batch).slug)).toEqual(['region:co-cd-1', 'region:co-cd-6']);
    expect(rejections.map((r) => r.rejected)).toEqual([
      {
        at: 'us_congressional_districts.csv line 3',
        reason: '"ocd-division/country:us/state:xx/cd:1" is not a US OCD division id of a known state, DC or territory',
      },
      { at: 'us_congressional_districts.csv line 4', reason: 'cd:one is not a district number or at-large' },
      { at: 'us_congressional_districts.csv line 5', reason: '2 fields, expected 4' },
      {
        at: 'us_congressional_districts.csv line 6',
        reason: 'expired: ocd-division/country:us/state:co/cd:3 was valid through 2020-01-03',
      },
      { at: 'us_congressional_districts.csv line 7', reason: 'validThrough "11/5/24x" is not a date' },
      { at: 'us_congressional_districts.csv line 8', reason: 'ocd-division/country:us/state:co/cd:5 has no name' },
    ]);
  });

  it('reads validThrough written as 11/5/24', async () => {
    const path = districts('ocd-division/country:us/state:co/cd:3,Colorado 3,cd-0803,11/5/24\n');
    const { rejections } = await collect(importOcd(path, { asOf: AS_OF, retrievedAt: RETRIEVED }));
    expect(rejections[0]?.rejected.reason).toBe(
      'expired: ocd-division/country:us/state:co/cd:3 was valid through 2024-11-05',
    );
  });

  it('ends a truncated file (inside a quoted name) with an error naming file and line', async () => {
    const path = districts(
      'ocd-division/country:us/state:co/cd:1,Colorado 1,cd-0801,\nocd-division/country:us/state:co/cd:2,"Colorado\n',
    );
    const items = importOcd(path, { asOf: AS_OF, retrievedAt: RETRIEVED });
    const first = await items.next();
    expect(first.value).toMatchObject({ at: 'us_congressional_districts.csv line 2' });
    await expect(items.next()).rejects.toThrow(
      /us_congressional_districts\.csv line 3: the file ends inside a quoted field/,
    );
  });

  it('refuses a Latin-1 file, a header without its columns, an unknown file and aliases.csv alone', async () => {
    const latin = fx.write(
      'states.csv',
      Buffer.concat([
        Buffer.from('ocd-division/country:us/state:co,Colorado\nocd-division/country:us/state:nm,Nuevo M'),
        Buffer.from([0xe9]),
        Buffer.from('xico\n'),
      ]),
    );
    await expect(collect(importOcd(latin, { retrievedAt: RETRIEVED }))).rejects.toThrow(
      /states\.csv line 2: byte 0xE9 is not UTF-8/,
    );
    await expect(
      collect(importOcd(fx.write('census_autogenerated/us_sldu.csv', 'id,label\nx,y\n'), { retrievedAt: RETRIEVED })),
    ).rejects.toThrow(/us_sldu\.csv line 1: the header lacks columns name, validThrough/);
    await expect(collect(importOcd(fx.write('counties.csv', 'id,name\n'), { retrievedAt: RETRIEVED }))).rejects.toThrow(
      ImportFileError,
    );
    await expect(
      collect(importOcd(fx.write('aliases.csv', 'id,sameAs\n'), { retrievedAt: RETRIEVED })),
    ).rejects.toThrow(/aliases\.csv only adds ids/);
    await expect(
      collect(importOcd(`${fx.dir}/empty-folder-that-is-not-there`, { retrievedAt: RETRIEVED })),
    ).rejects.toThrow(/no such file or folder/);
  });

  it('rejects a bad aliases row and still applies the good ones', async () => {
    fx.write(
      'aliases.csv',
      'id,sameAs,sameAsNote\nnot-an-id,ocd-division/country:us/state:co,x\nocd-division/country:us/state:co/place:x,ocd-division/country:us/state:co/cd:1,y\n',
    );
    const { batches, rejections } = await collect(
      importOcd(districts('ocd-division/country:us/state:co/cd:1,Colorado 1,cd-0801,\n'), {
        asOf: AS_OF,
        retrievedAt: RETRIEVED,
      }),
    );
    expect(rejections.map((r) => r.rejected)).toEqual([
      { at: 'aliases.csv line 2', reason: 'id "not-an-id" is not a US OCD division id' },
    ]);
    expect(regionOf(batches[0]!.batch).data.aliases).toEqual(['ocd-division/country:us/state:co/place:x']);
  });

  it('takes the folder above country-us too, importing what it finds there', async () => {
    fx.write(
      'ocd/country-us/states.csv',
      'ocd-division/country:us,United States\nocd-division/country:us/state:co,Colorado\n',
    );
    const { batches } = await collect(importOcd(`${fx.dir}/ocd`, { asOf: AS_OF, retrievedAt: RETRIEVED }));
    expect(batches.map((b) => [b.at, regionOf(b.batch).slug])).toEqual([
      ['states.csv line 1', 'region:us'],
      ['states.csv line 2', 'region:co'],
    ]);
  });

  it('is deterministic: a second run drafts the same items', async () => {
    const path = districts(
      'ocd-division/country:us/state:co/cd:1,Colorado 1,cd-0801,\nocd-division/country:us/state:ak/cd:at-large,Alaska,,\n',
    );
    const once = await collect(importOcd(path, { asOf: AS_OF, retrievedAt: RETRIEVED }));
    expect(await collect(importOcd(path, { asOf: AS_OF, retrievedAt: RETRIEVED }))).toEqual(once);
  });
});
