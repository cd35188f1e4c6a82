import { afterEach, describe, expect, it } from 'vitest';
import { InvalidParameterError } from '@civicgraph/kit';
import { ImportFileError } from '../shared/errors.js';
import { collect, fixtureDir } from '../shared/test-files.js';
import { importOpenStatesPeople } from './import-openstates.js';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** A person file: a state senator of district 7 unless other roles are given. */
const person = (
  n: number,
  roles = "- type: upper\n  district: '7'\n  start_date: '2025-01-08'\n  jurisdiction: ocd-jurisdiction/country:us/state:co/government\n",
) =>
  `id: ocd-person/${uuid(n)}\nname: Person ${n}\nparty:\n- name: Republican\nemail: p${n}@example.org\nroles:\n${roles}`;
const role = (type: string, jurisdiction: string, extra = '') =>
  `- type: ${type}\n  jurisdiction: ${jurisdiction}\n  end_date: '2027-01-12'\n${extra}`;
const STATE = 'ocd-jurisdiction/country:us/state:co/government';
const PLACES = 'id,name,census_geoid\nocd-division/country:us/state:co/place:denver,Denver city,place-0820000\n';

describe('importOpenStatesPeople on bad input', () => {
  const fx = fixtureDir();
  afterEach(() => fx.cleanup());
  const run = (path = `${fx.dir}/co`, places?: string) =>
    collect(importOpenStatesPeople(path, { retrievedAt: '2026-08-05', ...(places === undefined ? {} : { places }) }));
  const reasons = async (path?: string, places?: string) =>
    (await run(path, places)).rejections.map((r) => [r.rejected.at, r.rejected.reason]);

  it('refuses to read anything without --retrieved-at, or with one that is not a date, naming the flag', () => {
    const missing = (() => {
      try {
        importOpenStatesPeople('/no/such/folder');
      } catch (e) {
        return e;
      }
    })();
    expect(missing).toBeInstanceOf(InvalidParameterError);
    expect(missing).toMatchObject({
      field: 'retrieved_at',
      message: expect.stringContaining('--retrieved-at YYYY-MM-DD'),
    });
    expect(() => importOpenStatesPeople('/no/such/folder', { retrievedAt: 'last tuesday' })).toThrow(
      /--retrieved-at must be a date .* got "last tuesday"/,
    );
  });

  it('a malformed YAML file, or one that is not UTF-8, is a rejection naming the file and line; the others are drafted', async () => {
    fx.write('co/legislature/A.yml', person(1));
    fx.write('co/legislature/B.yml', `${person(2)}  district: [unclosed\n`);
    fx.write(
      'co/legislature/C.yml',
      Buffer.concat([
        Buffer.from(person(3).replace('Person 3', 'Mu')),
        Buffer.from('name2: Mu'),
        Buffer.from([0xf1]),
        Buffer.from('oz\n'),
      ]),
    );
    fx.write('co/legislature/D.yml', '- id: ocd-person/x\n');
    const { batches, rejections } = await run();
    expect(batches.map((b) => b.at)).toEqual([`co/legislature/A.yml (ocd-person/${uuid(1)})`]);
    expect(rejections.map((r) => r.rejected)).toEqual([
      {
        at: expect.stringMatching(/^co\/legislature\/B\.yml line \d+$/),
        reason: expect.stringMatching(/^malformed YAML: /),
      },
      { at: 'co/legislature/C.yml line 11', reason: expect.stringMatching(/^byte 0xF1 is not UTF-8/) },
      { at: 'co/legislature/D.yml line 1', reason: 'not a person record: the YAML top level is not a mapping' },
    ]);
  });

  it('a role of an unknown type is refused on its own, naming the role; the person keeps the roles that map', async () => {
    fx.write('co/executive/T.yml', person(1, `${role('treasurer', STATE)}${role('governor', STATE)}`));
    const { batches, rejections } = await run();
    expect(batches[0]!.batch.edges.filter((e) => e.kind === 'HOLDS').map((e) => e.to)).toEqual(['office:co-governor']);
    expect(rejections.map((r) => r.rejected)).toEqual([
      {
        at: 'co/executive/T.yml role 1',
        reason: expect.stringMatching(
          /^role type "treasurer" is not one this importer maps \(upper, lower, legislature, governor, lt_governor, /,
        ),
      },
    ]);
  });

  it('two roles in one office with the same start are refused rather than merged into one term', async () => {
    fx.write(
      'co/executive/R.yml',
      person(1, `${role('governor', STATE)}${role('governor', STATE, "  district: '1'\n")}`),
    );
    const { batches, rejections } = await run();
    expect(batches[0]!.batch.edges.filter((e) => e.kind === 'HOLDS')).toHaveLength(1);
    expect(rejections.map((r) => r.rejected)).toEqual([
      {
        at: 'co/executive/R.yml role 2',
        reason:
          'a second governor role in office:co-governor with the same start_date (none): the terms cannot be told apart',
      },
    ]);
  });

  it('a jurisdiction that maps to no region is refused with the reason, never guessed', async () => {
    fx.write(
      'co/municipalities/M.yml',
      person(
        1,
        [
          role('mayor', 'ocd-jurisdiction/country:us/state:co/place:denver/government'),
          role('mayor', 'ocd-jurisdiction/country:us/state:co/place:atlantis/government'),
          role('mayor', 'ocd-jurisdiction/country:us/state:co/county:adams/government'),
          role('governor', 'ocd-jurisdiction/country:us/state:co/place:denver/government'),
          role('governor', 'ocd-jurisdiction/country:us/state:zz/government'),
          role('upper', STATE),
          role('upper', STATE, '  district: ZZZ\n'),
        ].join(''),
      ),
    );
    const places = fx.write('us_census_places.csv', PLACES);
    const { batches, rejections } = await run(undefined, places);
    expect(batches[0]!.batch.edges.filter((e) => e.kind === 'HOLDS').map((e) => e.to)).toEqual([
      'office:co-denver-city-mayor',
    ]);
    expect(rejections.map((r) => [r.rejected.at.replace('co/municipalities/M.yml ', ''), r.rejected.reason])).toEqual([
      [
        'role 2',
        'ocd-division/country:us/state:co/place:atlantis is not a Census place in census_autogenerated/us_census_places.csv',
      ],
      [
        'role 3',
        'a mayor of ocd-division/country:us/state:co/county:adams: only Census places (…/place:<name>) have mayors here',
      ],
      [
        'role 4',
        "a governor role in ocd-jurisdiction/country:us/state:co/place:denver/government: expected the state government's jurisdiction",
      ],
      [
        'role 5',
        'jurisdiction "ocd-jurisdiction/country:us/state:zz/government" is not a US government\'s ocd-jurisdiction id',
      ],
      ['role 6', 'upper: no district'],
      ['role 7', 'district "ZZZ" names no upper-house district'],
    ]);
  });

  it('refuses records without an ocd-person id, name or roles, bad dates, and a person listed twice', async () => {
    fx.write('co/legislature/A.yml', person(1));
    fx.write('co/legislature/B.yml', person(1).replace('Person 1', 'Again'));
    fx.write('co/legislature/C.yml', 'id: 42\nname: X\nroles: []\n');
    fx.write('co/legislature/D.yml', `id: ocd-person/${uuid(4)}\nroles:\n${role('governor', STATE)}`);
    fx.write('co/legislature/E.yml', `id: ocd-person/${uuid(5)}\nname: E\n`);
    fx.write('co/legislature/F.yml', person(6, role('governor', STATE, '  start_date: 1/8/2019\n')));
    fx.write(
      'co/legislature/G.yml',
      person(
        7,
        "- type: governor\n  start_date: '2027-01-01'\n  end_date: '2019-01-01'\n  jurisdiction: ocd-jurisdiction/country:us/state:co/government\n",
      ),
    );
    expect(await reasons()).toEqual([
      ['co/legislature/B.yml', `ocd-person/${uuid(1)} is also in co/legislature/A.yml`],
      ['co/legislature/C.yml', 'id 42 is not an ocd-person/<uuid> id'],
      ['co/legislature/D.yml', 'no name'],
      ['co/legislature/E.yml', 'no roles'],
      ['co/legislature/F.yml role 1', 'governor: start_date "1/8/2019" is not a YYYY-MM-DD date'],
      ['co/legislature/G.yml role 1', 'governor: end_date 2019-01-01 is before start_date 2027-01-01'],
    ]);
  });

  it('ends with an error naming the path when it holds no Open States state folder, or the places table cannot be read', async () => {
    await expect(run(`${fx.dir}/missing`)).rejects.toThrow(/missing: no such folder/);
    fx.write('notes/readme.txt', 'x');
    await expect(run(fx.dir)).rejects.toThrow(ImportFileError);
    await expect(run(fx.dir)).rejects.toThrow(/no Open States state folder here/);
    fx.write('colorado/legislature/A.yml', person(1));
    await expect(run(fx.dir)).rejects.toThrow(/folder "colorado" holds Open States people but is not named by a state/);
    fx.write('co/legislature/A.yml', person(1));
    await expect(run(`${fx.dir}/co`, `${fx.dir}/nowhere.csv`)).rejects.toThrow(/nowhere\.csv: cannot read the file/);
    await expect(run(`${fx.dir}/co`, fx.write('places.csv', 'id,name\nx,y\n'))).rejects.toThrow(
      /the header lacks column census_geoid/,
    );
  });
});
