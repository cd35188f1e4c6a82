import { afterAll, describe, expect, it } from 'vitest';
import { zipSync, strToU8 } from 'fflate';
import type { ResultData } from '../../model/nodes.js';
import { ImportFileError } from '../shared/index.js';
import { collect, fixtureDir } from '../shared/test-files.js';
import { importResults } from './index.js';

/** Test files carry no date of their own. */
const WHEN = { provenance: { retrievedAt: '2026-01-01' } };

const fx = fixtureDir();
afterAll(() => fx.cleanup());

const HEADER =
  'year,stage,date,state,state_po,state_fips,office,district,special,magnitude,dataverse,candidate,party_detailed,party_simplified,writein,votes';
const row = (
  over: Partial<
    Record<
      'date' | 'office' | 'district' | 'special' | 'candidate' | 'party' | 'simplified' | 'votes' | 'state' | 'mode',
      string
    >
  > = {},
) =>
  [
    '2024',
    'GEN',
    over.date ?? '11/5/24',
    'COLORADO',
    over.state ?? 'CO',
    '08',
    over.office ?? 'US HOUSE',
    over.district ?? '001',
    over.special ?? 'FALSE',
    '1',
    'HOUSE',
    over.candidate ?? 'DIANA DEGETTE',
    over.party ?? 'DEMOCRAT',
    over.simplified ?? over.party ?? 'DEMOCRAT',
    'FALSE',
    over.votes ?? '100',
  ].join(',');

const csv = (...rows: string[]) => `${HEADER}\n${rows.join('\n')}\n`;

async function failure(path: string): Promise<ImportFileError> {
  const err = await collect(importResults(path, WHEN)).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ImportFileError);
  return err as ImportFileError;
}

async function results(path: string) {
  const { batches, rejections } = await collect(importResults(path, WHEN));
  const data = new Map(
    batches
      .flatMap((b) => b.batch.nodes)
      .filter((n) => n.kind === 'result')
      .map((n) => [n.slug, (n as { data: ResultData }).data]),
  );
  return { batches, rejections: rejections.map((r) => r.rejected), data };
}

describe('bad rows spoil their own contest, never the file', () => {
  it('an unparseable date rejects its contest, naming the line and the value; other contests import', async () => {
    const path = fx.write(
      'bad-date.csv',
      csv(
        row(),
        row({ candidate: 'VALDAMAR ARCHULETA', party: 'REPUBLICAN', date: '13/45/24' }),
        row({ district: '002', candidate: 'JOE NEGUSE' }),
      ),
    );
    const { batches, rejections } = await results(path);
    expect(batches.map((b) => b.at)).toEqual(['CO US HOUSE 002 (line 4)']);
    expect(rejections).toEqual([
      {
        at: 'CO US HOUSE 001 (lines 2–3, 2 rows)',
        reason: expect.stringContaining('line 3: date "13/45/24" is not a date'),
      },
    ]);
  });

  it('a date in another year than the row says is refused too', async () => {
    const { rejections } = await results(fx.write('wrong-year.csv', csv(row({ date: '11/5/23' }))));
    expect(rejections[0]!.reason).toMatch(/date "11\/5\/23" is not in the row's year 2024/);
  });

  it('an unknown party code rejects the contest, naming the value', async () => {
    const { rejections } = await results(fx.write('party.csv', csv(row({ simplified: 'WHIG' }))));
    expect(rejections).toEqual([
      {
        at: expect.stringMatching(/^CO US HOUSE 001/),
        reason: expect.stringMatching(/line 2: party_simplified "WHIG" is not one of .*\(unknown party\)/),
      },
    ]);
  });

  it('a row of the wrong width is rejected by line; an unknown state is rejected by line', async () => {
    const path = fx.write('width.csv', csv(row(), '2024,GEN,11/5/24,COLORADO', row({ state: 'XX', district: '003' })));
    const { batches, rejections } = await results(path);
    expect(batches).toHaveLength(1);
    expect(rejections).toEqual([
      { at: 'line 3', reason: 'the row has 4 fields, expected 16' },
      { at: 'line 4', reason: 'state_po "XX" is not a state\'s postal code' },
    ]);
  });

  it('votes that are not a whole number reject the contest', async () => {
    const { rejections } = await results(fx.write('votes.csv', csv(row({ votes: '"1,234"' }))));
    expect(rejections[0]!.reason).toMatch(/line 2: votes "1,234" is not a whole number of votes/);
  });

  it('a candidate listed twice in one contest (fusion lines) is one result with the votes summed', async () => {
    const { data } = await results(
      fx.write(
        'dup.csv',
        csv(
          row({ votes: '100' }),
          row({ votes: '20', party: 'WORKING FAMILIES', simplified: 'OTHER' }),
          row({ candidate: 'VALDAMAR ARCHULETA', party: 'REPUBLICAN', votes: '90' }),
        ),
      ),
    );
    expect(data.get('result:co-cd-1-us-representative-2024-general-diana-degette')).toMatchObject({
      votes: 120,
      party: 'party:democratic',
      share: 120 / 210,
      winner: true,
    });
  });
});

describe('dates and duplicates', () => {
  it('reads a M/D/YY date (11/5/24) as 2024-11-05', async () => {
    const { batches } = await results(fx.write('us-date.csv', csv(row({ date: '11/5/24' }))));
    const contest = batches[0]!.batch.nodes.find((n) => n.kind === 'contest') as { data: { date: string } };
    expect(contest.data.date).toBe('2024-11-05');
    expect(batches[0]!.batch.nodes.map((n) => n.slug)).toContain('election:co-2024-11-05');
  });

  it('a row repeated field for field rejects its contest rather than counting its votes twice', async () => {
    const { batches, rejections } = await results(
      fx.write('repeat.csv', csv(row(), row({ candidate: 'VALDAMAR ARCHULETA', party: 'REPUBLICAN' }), row())),
    );
    expect(batches).toEqual([]);
    expect(rejections).toEqual([
      {
        at: expect.stringMatching(/^CO US HOUSE 001/),
        reason: expect.stringMatching(/line 4: repeats line 2 field for field/),
      },
    ]);
  });
});

describe('the special flag', () => {
  it('a lone November House special is the regular election (the CO CD-4 mis-flag); a Senate special beside its regular contest is refused', async () => {
    const path = fx.write(
      'special.csv',
      csv(
        row({ special: 'TRUE' }),
        row({ office: 'US SENATE', district: 'STATEWIDE', candidate: 'DEB FISCHER', party: 'REPUBLICAN' }),
        row({
          office: 'US SENATE',
          district: 'STATEWIDE',
          special: 'TRUE',
          candidate: 'PETE RICKETTS',
          party: 'REPUBLICAN',
        }),
      ),
    );
    const notes: string[] = [];
    const { batches, rejections } = await collect(importResults(path, { ...WHEN, onNote: (_, n) => notes.push(n) }));
    expect(batches.flatMap((b) => b.batch.nodes.filter((n) => n.kind === 'contest').map((n) => n.slug))).toEqual([
      'contest:co-cd-1-us-representative-2024-general',
      'contest:co-us-senator-class-1-2024-general',
    ]);
    expect(notes).toEqual([expect.stringMatching(/special=TRUE ignored/)]);
    expect(rejections.map((r) => r.rejected.reason)).toEqual([expect.stringMatching(/special US SENATE election/)]);
  });

  it('specialsOnly reads the special elections alone, and a special of no known seat is still refused', async () => {
    const senate = { office: 'US SENATE', district: 'STATEWIDE', state: 'NE' } as const;
    const path = fx.write(
      'specials.csv',
      csv(
        row({ ...senate, candidate: 'DEB FISCHER', party: 'REPUBLICAN' }),
        row({ ...senate, special: 'TRUE', candidate: 'PETE RICKETTS', party: 'REPUBLICAN' }),
        row({ office: 'US SENATE', district: 'STATEWIDE', special: 'TRUE', candidate: 'A SENATOR' }),
      ),
    );
    const { batches, rejections } = await collect(importResults(path, { ...WHEN, specialsOnly: true }));
    expect(batches.flatMap((b) => b.batch.nodes.filter((n) => n.kind === 'contest').map((n) => n.slug))).toEqual([
      'contest:ne-us-senator-class-2-2024-special',
    ]);
    expect(rejections.map((r) => r.rejected.reason)).toEqual([expect.stringMatching(/no Colorado special of 2024/)]);
  });
});

describe('files that cannot be read end in an ImportFileError naming the file and line', () => {
  it('a file cut off mid-row', async () => {
    const err = await failure(fx.write('cut.csv', `${HEADER}\n${row()}\n2024,GEN,11/5/24,COLO`));
    expect(err.message).toMatch(
      /cut\.csv line 3: the file ends inside this row \(4 of 16 fields\): it looks truncated/,
    );
    expect(err).toMatchObject({ line: 3, field: 'path', type: 'invalid_parameter' });
  });

  it('a file cut off inside a quoted field', async () => {
    const err = await failure(
      fx.write(
        'quote.csv',
        `${HEADER}\n${row()}\n2024,GEN,11/5/24,COLORADO,CO,08,US HOUSE,001,FALSE,1,HOUSE,"CHARLES H ""CHUCK`,
      ),
    );
    expect(err.message).toMatch(/quote\.csv line 3: the file ends inside a quoted field/);
  });

  it('Latin-1 bytes', async () => {
    const bytes = Buffer.concat([Buffer.from(csv(row())), Buffer.from(row({ candidate: 'JOSÉ' }), 'latin1')]);
    const err = await failure(fx.write('latin1.csv', bytes));
    expect(err.message).toMatch(/latin1\.csv line 3: byte 0xC9 is not UTF-8/);
  });

  it('a header without the MEDSL columns, and an empty file', async () => {
    expect((await failure(fx.write('other.csv', 'a,b,c\n1,2,3\n'))).message).toMatch(
      /lacks columns year, state_po, office, candidate, votes, stage/,
    );
    expect((await failure(fx.write('empty.csv', ''))).message).toMatch(/empty/);
  });

  it('a zip with no CSV in it, a zip that is not a zip, and a missing file', async () => {
    expect((await failure(fx.write('no-csv.zip', zipSync({ 'readme.txt': strToU8('hi') })))).message).toMatch(
      /holds no \.csv file; it holds readme\.txt/,
    );
    expect((await failure(fx.write('junk.zip', 'not a zip'))).message).toMatch(/not a readable zip archive/);
    expect((await failure(`${fx.dir}/missing.csv`)).message).toMatch(/cannot read the file \(ENOENT\)/);
  });
});

describe('zipped precinct files', () => {
  const PRECINCT_HEADER =
    'precinct,office,party_detailed,party_simplified,mode,votes,candidate,district,dataverse,year,stage,state,special,writein,state_po,date,magnitude';
  const p = (precinct: string, candidate: string, mode: string, votes: number) =>
    [
      precinct,
      'STATE HOUSE',
      'DEMOCRAT',
      'DEMOCRAT',
      mode,
      votes,
      candidate,
      '008',
      'STATE',
      2024,
      'GEN',
      'DELAWARE',
      'FALSE',
      'FALSE',
      'DE',
      '2024-11-05',
      1,
    ].join(',');

  it('ignores __MACOSX junk, sums TOTAL rows only, and notes a TOTAL that disagrees with its modes', async () => {
    const text = [
      PRECINCT_HEADER,
      p('08-01', 'RAE MOORE', 'EARLY', 10),
      p('08-01', 'RAE MOORE', 'ABSENTEE', 5),
      p('08-01', 'RAE MOORE', 'TOTAL', 16),
      '',
    ].join('\n');
    const path = fx.write(
      'de-precincts.zip',
      zipSync({ 'de.csv': strToU8(text), '__MACOSX/._de.csv': strToU8('junk') }),
    );
    const notes: string[] = [];
    const total = await collect(importResults(path, { ...WHEN, onNote: (_, n) => notes.push(n) }));
    const parts = await collect(importResults(path, { ...WHEN, modes: 'parts' }));
    const votes = (c: typeof total) =>
      (c.batches[0]!.batch.nodes.find((n) => n.kind === 'result') as { data: ResultData }).data.votes;
    expect(votes(total)).toBe(16);
    expect(votes(parts)).toBe(15);
    expect(notes).toEqual([
      expect.stringMatching(/TOTAL rows differ from the sum of the other modes for RAE MOORE: summed TOTAL only/),
    ]);
  });

  it('refuses a file that carries no date of its own unless told when it was published', async () => {
    const path = fx.write('returns.csv', 'year,stage,state_po,office,district,candidate,votes\n');
    await expect(collect(importResults(path))).rejects.toMatchObject({ field: 'retrieved_at' });
  });
});
