import { sharedData } from '@civicgraph/kit';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CandidacyDraft, DraftBatch, DraftItem } from '../../domain/drafts.js';
import { fecPersonIndex } from '../legislators/fec-index.js';
import { ImportFileError } from '../shared/errors.js';
import { collect, fixtureDir } from '../shared/test-files.js';
import { importFecCandidates } from './import-fec.js';
import { WEBALL_COLUMNS, type WeballColumn } from './layout.js';

type Collected = Awaited<ReturnType<typeof collect<DraftItem>>>;
const candidacyOf = (b: DraftBatch) => b.nodes.find((n): n is CandidacyDraft => n.kind === 'candidacy')!;
const node = (b: DraftBatch, slug: string) => b.nodes.find((n) => n.slug === slug);
const reasons = (r: Collected['rejections']) => r.map((x) => x.rejected.reason);

describe('importFecCandidates on the real FEC files', () => {
  const weball26 = sharedData('candidates/fec/weball26.txt');
  const weball24 = sharedData('candidates/fec/weball24.txt');
  const legislators = sharedData('officeholders/congress-legislators/legislators-current.yaml');

  describe.skipIf(weball26 === undefined)('weball26.txt', () => {
    let result: Collected;
    const byId = (id: string) =>
      result.batches.find((b) => b.batch.nodes.some((n) => n.kind === 'person' && n.data.ids.fec?.includes(id)))?.batch;
    beforeAll(async () => {
      result = await collect(importFecCandidates(weball26!, { retrievedAt: '2026-03-24T00:00:00Z' }));
    });

    it('accounts for every one of the 3,582 rows: a batch or a rejection with a reason', () => {
      expect(result.batches.length + result.rejections.length).toBe(3582);
      expect(result.batches).toHaveLength(3292);
      expect(result.rejections).toHaveLength(290);
      expect(
        result.rejections.every((r) => /^weball26\.txt line \d+$/.test(r.rejected.at) && r.rejected.reason.length > 10),
      ).toBe(true);
    });

    it("dates its provenance by the file's own latest coverage end, not by when the copy was made", async () => {
      const { batches } = await collect(importFecCandidates(weball26!));
      const provenance = batches[0]!.batch.nodes.find((n) => n.kind === 'provenance');
      // Reports through March 2026 (a few filings claim coverage to late 2026: typing errors, left out).
      expect(provenance).toMatchObject({ data: { retrievedAt: '2026-03-10T00:00:00.000Z' } });
    });

    it('a Colorado House member: person, party, office, the undated 2026 primary, and a DECLARED incumbent candidacy', () => {
      const batch = byId('H6CO01141')!;
      expect(node(batch, 'person:fec-h6co01141')).toEqual({
        kind: 'person',
        slug: 'person:fec-h6co01141',
        state: 'co',
        tier: '',
        data: {
          name: 'Diana L Degette',
          givenName: 'Diana L',
          familyName: 'Degette',
          ids: { fec: ['H6CO01141'] },
          birthday: null,
          gender: null,
          asOf: '2026-03-24T00:00:00.000Z',
        },
      });
      expect(node(batch, 'contest:co-cd-1-us-representative-2026-primary')).toEqual({
        kind: 'contest',
        slug: 'contest:co-cd-1-us-representative-2026-primary',
        state: 'co',
        tier: 'federal',
        data: {
          name: 'U.S. Representative, Colorado District 1, 2026 primary',
          type: 'primary',
          date: '',
          year: 2026,
          level: 'congressional-district',
          region: 'region:co-cd-1',
          office: 'office:co-cd-1-us-representative',
          seats: 1,
          special: false,
        },
      });
      expect(candidacyOf(batch)).toEqual({
        kind: 'candidacy',
        slug: 'candidacy:co-cd-1-us-representative-2026-primary-diana-l-degette',
        state: 'co',
        tier: 'federal',
        claims: {
          name: 'Diana L Degette',
          person: 'person:fec-h6co01141',
          contest: 'contest:co-cd-1-us-representative-2026-primary',
          filingStatus: 'DECLARED',
          party: 'party:democratic',
          isIncumbent: true,
        },
        provenance: 'provenance:fec-weball26',
      });
      expect(node(batch, 'region:co-cd-1')).toMatchObject({ createOnly: true });
      // The primary has no day (the FEC does not know Colorado's); a registration makes no ballot-access claim.
      expect(candidacyOf(batch).claims).not.toHaveProperty('ballotAccess');
      // The seat is elected this cycle: its general contest, a reference without candidacies, on election day.
      expect(node(batch, 'contest:co-cd-1-us-representative-2026-general')).toMatchObject({
        createOnly: true,
        data: { type: 'general', date: '2026-11-03' },
      });
      expect(node(batch, 'election:co-2026-11-03')).toMatchObject({
        createOnly: true,
        state: 'co',
        data: { date: '2026-11-03', type: 'general' },
      });
      expect(batch.nodes.filter((n) => n.kind === 'candidacy').map((n) => n.slug)).toEqual([
        'candidacy:co-cd-1-us-representative-2026-primary-diana-l-degette',
      ]);
      expect(node(batch, 'provenance:fec-weball26')).toMatchObject({
        data: {
          method: 'official-filing',
          publisher: 'Federal Election Commission',
          retrievedAt: '2026-03-24T00:00:00.000Z',
        },
      });
      expect(batch.edges.map((e) => `${e.kind} ${e.to}`)).toEqual(
        expect.arrayContaining([
          'IN_REGION region:co-cd-1',
          'FOR_OFFICE office:co-cd-1-us-representative',
          'FOR_CONTEST contest:co-cd-1-us-representative-2026-primary',
          'OF_PERSON person:fec-h6co01141',
          'OF_PARTY party:democratic',
          'SERVES_REGION region:co-cd-1',
          'SUPPORTED_BY provenance:fec-weball26',
        ]),
      );
    });

    it('challengers are not incumbents; Senate rows run for the class up in 2026 in their state', () => {
      expect(candidacyOf(byId('H6CO01273')!).claims).toMatchObject({ isIncumbent: false, party: 'party:democratic' });
      const senate = byId('S0CO00575')!;
      expect(candidacyOf(senate).claims.contest).toBe('contest:co-us-senator-class-2-2026-primary');
      expect(node(senate, 'office:co-us-senator-class-2')).toMatchObject({
        state: 'co',
        data: { level: 'state', region: 'region:co' },
      });
      expect(node(senate, 'region:co')).toMatchObject({ createOnly: true, data: { level: 'state' } });
    });

    it("Ohio's and Florida's 2026 Senate races are the class 3 specials", () => {
      const husted = byId('S6OH00304')!;
      expect(node(husted, 'contest:oh-us-senator-class-3-2026-primary')).toMatchObject({
        data: {
          type: 'primary',
          special: true,
          date: '',
          name: 'U.S. Senator (Class 3), Ohio, 2026 special election primary',
        },
      });
      expect(candidacyOf(byId('S6FL00640')!).claims.contest).toBe('contest:fl-us-senator-class-3-2026-primary');
    });

    it("DC's and the territories' members (district 00, or 01 in the Northern Marianas) are delegates", () => {
      const mp = result.batches.filter((b) =>
        b.batch.nodes.some((n) => n.slug === 'contest:mp-cd-delegate-us-representative-2026-primary'),
      );
      expect(mp.length).toBeGreaterThanOrEqual(3);
      expect(result.batches.some((b) => node(b.batch, 'office:dc-cd-delegate-us-representative') !== undefined)).toBe(
        true,
      );
    });

    it('rejects what it cannot place, saying why', () => {
      const why = reasons(result.rejections);
      expect(why.filter((r) => / runs for President, and 2026 has no presidential election$/.test(r))).toHaveLength(92);
      expect(why.filter((r) => /^CAND_PTY_AFFILIATION "[A-Z]+" is not an FEC party code$/.test(r))).toHaveLength(5);
      expect(why).toContain('CAND_OFFICE_DISTRICT "00" (at large): Montana has 2 districts in 2026');
      expect(why).toContain('CAND_OFFICE_DISTRICT "53": California has 52 districts in 2026');
      expect(why).toContain('CAND_OFFICE_DISTRICT is empty');
      expect(
        why.filter((r) => r.startsWith('California has no class 2 Senate seat, the class elected in 2026')),
      ).toHaveLength(20);
      expect(why.filter((r) => /one name twice in one contest, under two CAND_IDs/.test(r)).length).toBeGreaterThan(40);
    });

    it.skipIf(legislators === undefined)("a sitting member's candidacy points at the legislator's person", async () => {
      const known = await fecPersonIndex(legislators!);
      const { batches } = await collect(importFecCandidates(weball26!, { known }));
      const batch = batches.find((b) =>
        b.batch.nodes.some((n) => n.kind === 'candidacy' && n.slug.endsWith('-diana-l-degette')),
      )!.batch;
      expect(candidacyOf(batch).claims.person).toBe('person:bioguide-d000197');
      expect(node(batch, 'person:bioguide-d000197')).toMatchObject({ createOnly: true });
      expect(batch.edges).toContainEqual(expect.objectContaining({ kind: 'OF_PERSON', to: 'person:bioguide-d000197' }));
      expect(batch.edges.some((e) => e.kind === 'SUPPORTED_BY' && e.from === 'person:bioguide-d000197')).toBe(false);
    });

    it.skipIf(legislators === undefined)(
      'a sitting senator whose seat is not up this cycle is no candidate in it',
      async () => {
        const known = await fecPersonIndex(legislators!);
        const { batches, rejections } = await collect(importFecCandidates(weball26!, { known }));
        // Michael Bennet holds Colorado's class 3 seat until 2029; 2026 elects class 2 (Hickenlooper's).
        expect(
          batches.some((b) => b.batch.nodes.some((n) => n.kind === 'candidacy' && /-michael-f-bennet$/.test(n.slug))),
        ).toBe(false);
        expect(reasons(rejections)).toContainEqual(
          expect.stringMatching(
            /^CAND_ID S\w+ is the sitting senator for CO's class 3 seat, whose term runs to 2029-01-03: the seat is not elected in 2026/,
          ),
        );
        const hickenlooper = batches.find((b) =>
          b.batch.nodes.some((n) => n.kind === 'candidacy' && /-john-w-hickenlooper$/.test(n.slug)),
        );
        expect(hickenlooper === undefined ? undefined : candidacyOf(hickenlooper.batch).claims).toMatchObject({
          contest: 'contest:co-us-senator-class-2-2026-primary',
          isIncumbent: true,
        });
      },
    );
  });

  it.skipIf(weball24 === undefined)(
    'weball24.txt: a presidential registration declares for the 2024 nomination, nationally',
    async () => {
      const { batches, rejections } = await collect(importFecCandidates(weball24!));
      expect(batches.length + rejections.length).toBe(3860);
      const harris = batches.find((b) => b.batch.nodes.some((n) => n.slug === 'person:fec-p00009423'))!.batch;
      expect(candidacyOf(harris)).toMatchObject({
        slug: 'candidacy:us-president-2024-primary-kamala-harris',
        state: '',
        tier: 'federal',
        claims: { party: 'party:democratic', filingStatus: 'DECLARED' },
      });
      expect(node(harris, 'contest:us-president-2024-primary')).toMatchObject({
        state: '',
        data: { level: 'national', region: 'region:us', date: '', type: 'primary' },
      });
      // No presidential general contest: each state's presidential contest is the state's own (its certified results).
      expect(
        batches.some((b) =>
          b.batch.nodes.some((n) => n.kind === 'contest' && /us-president-2024-general$/.test(n.slug)),
        ),
      ).toBe(false);
      expect(node(harris, 'provenance:fec-weball24')).toBeDefined();
    },
  );

  it.skipIf(weball24 === undefined || legislators === undefined)(
    'weball24.txt: a senator first elected in 2024 is a 2024 candidate: the term won that day does not make the seat "not up"',
    async () => {
      const known = await fecPersonIndex(legislators!);
      const { batches } = await collect(importFecCandidates(weball24!, { known }));
      // Tim Sheehy (S4MT00183) serves Montana's class 1 seat from 2025; in 2024 he held none.
      const sheehy = batches.find((b) =>
        b.batch.nodes.some((n) => n.slug === 'candidacy:mt-us-senator-class-1-2024-primary-tim-sheehy'),
      );
      expect(candidacyOf(sheehy!.batch).claims).toMatchObject({
        contest: 'contest:mt-us-senator-class-1-2024-primary',
      });
    },
  );

  it.skipIf(weball24 === undefined || legislators === undefined)(
    "weball24.txt: Nebraska elected two Senate seats: each sitting senator's registration is for their own seat, and no one else's is filed under either",
    async () => {
      const known = await fecPersonIndex(legislators!);
      const { batches, rejections } = await collect(importFecCandidates(weball24!, { known }));
      const ricketts = batches.find((b) =>
        b.batch.nodes.some((n) => n.kind === 'candidacy' && /-pete-ricketts$/.test(n.slug)),
      );
      expect(candidacyOf(ricketts!.batch).claims).toMatchObject({
        contest: 'contest:ne-us-senator-class-2-2024-primary',
      });
      expect(node(ricketts!.batch, 'contest:ne-us-senator-class-2-2024-special')).toMatchObject({
        data: { name: 'U.S. Senator (Class 2), Nebraska, special election', type: 'special', date: '2024-11-05' },
      });
      // Deb Fischer held the class 1 seat on election day and was re-elected to it.
      const fischer = batches.find((b) =>
        b.batch.nodes.some((n) => n.kind === 'candidacy' && /^candidacy:ne-.*-fischer$/.test(n.slug)),
      );
      expect(candidacyOf(fischer!.batch).claims).toMatchObject({
        contest: 'contest:ne-us-senator-class-1-2024-primary',
        isIncumbent: true,
      });
      const nebraska = batches.filter((b) =>
        b.batch.nodes.some((n) => n.kind === 'candidacy' && n.slug.startsWith('candidacy:ne-us-senator-')),
      );
      expect(nebraska).toHaveLength(2);
      const twoSeats = reasons(rejections).filter((r) => /Nebraska elects two Senate seats in 2024/.test(r));
      // Love, Nelson, Sasse, Weaver, Osborn, Eddy: no seat held on election day says which they sought.
      expect(twoSeats).toHaveLength(6);
    },
  );
});

describe('importFecCandidates on bad input', () => {
  const fx = fixtureDir();
  afterEach(() => fx.cleanup());

  const GOOD: Partial<Record<WeballColumn, string>> = {
    CAND_ID: 'H6CO01141',
    CAND_NAME: 'DEGETTE, DIANA L',
    CAND_ICI: 'I',
    PTY_CD: '1',
    CAND_PTY_AFFILIATION: 'DEM',
    CAND_OFFICE_ST: 'CO',
    CAND_OFFICE_DISTRICT: '01',
    CVG_END_DT: '12/31/2025',
  };
  const row = (over: Partial<Record<WeballColumn, string>> = {}) =>
    WEBALL_COLUMNS.map((c) => ({ ...GOOD, ...over })[c] ?? '0').join('|');
  const weball = (...lines: (string | Buffer)[]) =>
    fx.write('weball26.txt', Buffer.concat(lines.map((l) => (typeof l === 'string' ? Buffer.from(`${l}\n`) : l))));

  it('rejects each bad row with the column and value, and drafts the good ones', async () => {
    const path = weball(
      row(),
      row({ CAND_ID: 'X6CO01141' }),
      row({ CAND_ID: 'H6XX00001', CAND_OFFICE_ST: 'XX' }),
      row({ CAND_ID: 'H6CO09001', CAND_OFFICE_DISTRICT: '09' }),
      row({ CAND_ID: 'H6CO00001', CAND_OFFICE_DISTRICT: '00' }),
      row({ CAND_ID: 'H6CO0A001', CAND_OFFICE_DISTRICT: 'AB' }),
      row({ CAND_ID: 'H6CO02001', CAND_OFFICE_DISTRICT: '02', CAND_PTY_AFFILIATION: 'XYZ' }),
      row({ CAND_ID: 'H6CO03001', CAND_OFFICE_DISTRICT: '03', CAND_ICI: 'Q' }),
      row({ CAND_ID: 'S6DC00001', CAND_OFFICE_ST: 'DC', CAND_OFFICE_DISTRICT: '00' }),
      row({ CAND_ID: 'H6CO04001', CAND_OFFICE_DISTRICT: '04', CVG_END_DT: '13/45/2025' }),
      row({ CAND_ID: 'H6CO05001', CAND_OFFICE_DISTRICT: '05', CAND_NAME: '' }),
    );
    const { batches, rejections } = await collect(importFecCandidates(path));
    expect(batches.map((b) => b.at)).toEqual(['weball26.txt line 1']);
    expect(rejections.map((r) => r.rejected)).toEqual([
      {
        at: 'weball26.txt line 2',
        reason: 'CAND_ID "X6CO01141" is not an FEC candidate id (H8CO02160, S0CO00211, P80000268)',
      },
      { at: 'weball26.txt line 3', reason: 'CAND_OFFICE_ST "XX" is not a state' },
      { at: 'weball26.txt line 4', reason: 'CAND_OFFICE_DISTRICT "09": Colorado has 8 districts in 2026' },
      { at: 'weball26.txt line 5', reason: 'CAND_OFFICE_DISTRICT "00" (at large): Colorado has 8 districts in 2026' },
      {
        at: 'weball26.txt line 6',
        reason: 'CAND_ID "H6CO0A001" is not an FEC candidate id (H8CO02160, S0CO00211, P80000268)',
      },
      { at: 'weball26.txt line 7', reason: 'CAND_PTY_AFFILIATION "XYZ" is not an FEC party code' },
      { at: 'weball26.txt line 8', reason: 'CAND_ICI "Q" is not I, C or O' },
      { at: 'weball26.txt line 9', reason: 'CAND_OFFICE_ST "DC": District of Columbia elects no senators' },
      { at: 'weball26.txt line 10', reason: 'CVG_END_DT "13/45/2025" is not a date' },
      { at: 'weball26.txt line 11', reason: 'CAND_NAME is empty' },
    ]);
  });

  it('rejects a district that is not a number', async () => {
    const { rejections } = await collect(importFecCandidates(weball(row({ CAND_OFFICE_DISTRICT: 'AB' }))));
    expect(reasons(rejections)).toEqual(['CAND_OFFICE_DISTRICT "AB" is not a district number']);
  });

  it('rejects a truncated line, in the middle or where the file was cut off', async () => {
    const full = row({ CAND_ID: 'H6CO02001', CAND_OFFICE_DISTRICT: '02' });
    const path = weball(row(), full.split('|').slice(0, 17).join('|'), Buffer.from(full.slice(0, 40)));
    const { batches, rejections } = await collect(importFecCandidates(path));
    expect(batches).toHaveLength(1);
    expect(rejections.map((r) => r.rejected)).toEqual([
      { at: 'weball26.txt line 2', reason: '17 fields, expected 30' },
      {
        at: 'weball26.txt line 3',
        reason: `${full.slice(0, 40).split('|').length} fields, expected 30: the file ends inside this row (truncated?)`,
      },
    ]);
  });

  it('ends a Latin-1 file with an error at the line, and reads it when told it is Latin-1', async () => {
    const name = Buffer.concat([Buffer.from('MU'), Buffer.from([0xd1]), Buffer.from('OZ, ANA')]);
    const [before, after] = row({ CAND_ID: 'H6CO02001', CAND_OFFICE_DISTRICT: '02', CAND_NAME: '@' }).split('@') as [
      string,
      string,
    ];
    const path = weball(row(), Buffer.concat([Buffer.from(before), name, Buffer.from(`${after}\n`)]));
    const error = await collect(importFecCandidates(path)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as Error).message).toBe(
      'weball26.txt line 2: byte 0xD1 is not UTF-8 (a Latin-1 file? convert it to UTF-8 or import it as latin1)',
    );
    const { batches } = await collect(importFecCandidates(path, { encoding: 'latin1' }));
    expect(candidacyOf(batches[1]!.batch)).toMatchObject({
      slug: 'candidacy:co-cd-2-us-representative-2026-primary-ana-munoz',
      claims: { name: 'Ana Muñoz' },
    });
  });

  it('rejects a second row for a CAND_ID, saying whether it repeats the first', async () => {
    const path = weball(row(), row(), row({ CAND_NAME: 'DEGETTE, DIANA' }));
    const { batches, rejections } = await collect(importFecCandidates(path));
    expect(batches).toHaveLength(1);
    expect(reasons(rejections)).toEqual([
      'CAND_ID H6CO01141 is listed twice (first at line 1, the same row): this row is ignored',
      'CAND_ID H6CO01141 is listed twice (first at line 1, with other values): this row is ignored',
    ]);
  });

  it('reads a coverage date written 11/5/24', async () => {
    const { batches, rejections } = await collect(importFecCandidates(weball(row({ CVG_END_DT: '11/5/24' }))));
    expect(rejections).toEqual([]);
    expect(batches).toHaveLength(1);
  });

  it('claims a null party for "no party", no party for "unknown", and no incumbency when CAND_ICI is empty', async () => {
    const path = weball(
      row({ CAND_PTY_AFFILIATION: 'NNE' }),
      row({ CAND_ID: 'H6CO02001', CAND_OFFICE_DISTRICT: '02', CAND_PTY_AFFILIATION: 'UNK', CAND_ICI: '' }),
    );
    const { batches } = await collect(importFecCandidates(path));
    const [none, unknown] = batches.map((b) => b.batch);
    expect(candidacyOf(none!).claims).toMatchObject({ party: null, isIncumbent: true });
    expect(none!.edges.some((e) => e.kind === 'OF_PARTY')).toBe(false);
    expect(candidacyOf(unknown!).claims).not.toHaveProperty('party');
    expect(candidacyOf(unknown!).claims).not.toHaveProperty('isIncumbent');
  });

  it('takes the cycle from the name or an option, and refuses to guess', async () => {
    const other = fx.write('candidates.txt', `${row()}\n`);
    await expect(collect(importFecCandidates(other))).rejects.toThrow(
      /candidates\.txt: cannot tell the cycle from the file name/,
    );
    await expect(collect(importFecCandidates(other, { cycle: 2025 }))).rejects.toThrow(
      /cycle 2025 is not an even election year/,
    );
    const { batches } = await collect(importFecCandidates(other, { cycle: 2024 }));
    expect(candidacyOf(batches[0]!.batch).claims.contest).toBe('contest:co-cd-1-us-representative-2024-primary');
  });

  it('a Senate row of a state with no seat up is rejected unless a special is named', async () => {
    const path = weball(row({ CAND_ID: 'S6CA00001', CAND_OFFICE_ST: 'CA', CAND_OFFICE_DISTRICT: '00' }));
    const plain = await collect(importFecCandidates(path));
    expect(reasons(plain.rejections)[0]).toMatch(
      /^California has no class 2 Senate seat, the class elected in 2026: .* senateSpecials \{"ca": <class>\}\)$/,
    );
    const special = await collect(importFecCandidates(path, { senateSpecials: { ca: 3 } }));
    expect(candidacyOf(special.batches[0]!.batch).claims.contest).toBe('contest:ca-us-senator-class-3-2026-primary');
  });

  it('drafts the same items on a second run (idempotent input to the writer)', async () => {
    const path = weball(row(), row({ CAND_ID: 'S6CO00001', CAND_OFFICE_DISTRICT: '00', CAND_ICI: 'C' }));
    expect(await collect(importFecCandidates(path, { retrievedAt: '2026-01-01' }))).toEqual(
      await collect(importFecCandidates(path, { retrievedAt: '2026-01-01' })),
    );
  });
});
