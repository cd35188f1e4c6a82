import { describe, expect, it } from 'vitest';
import { fecParty, partyByName, partyDraft } from './parties.js';

describe('FEC party codes', () => {
  it('map the major codes onto party nodes keyed by name', () => {
    expect(fecParty('DEM')).toEqual({ party: { key: 'democratic', name: 'Democratic Party', abbreviation: 'DEM' } });
    expect(fecParty('rep')).toEqual({ party: { key: 'republican', name: 'Republican Party', abbreviation: 'REP' } });
    expect(fecParty('LIB')).toMatchObject({ party: { key: 'libertarian' } });
    expect(fecParty('GRE')).toMatchObject({ party: { key: 'green' } });
    expect(fecParty('IND')).toMatchObject({ party: { key: 'independent' } });
    expect(fecParty('DFL')).toMatchObject({ party: { key: 'democratic-farmer-labor' } });
  });

  it('tell "no party" (a null claim) from "unknown" (no claim)', () => {
    expect(fecParty('NNE')).toEqual({ none: true });
    expect(fecParty('NPA')).toEqual({ none: true });
    expect(fecParty('UNK')).toEqual({ unstated: true });
    expect(fecParty('W')).toEqual({ unstated: true });
  });

  it('do not know codes the FEC does not publish', () => {
    expect(fecParty('XYZ')).toBeUndefined();
    expect(fecParty('FL')).toBeUndefined();
    expect(fecParty('')).toBeUndefined();
  });
});

describe('party names', () => {
  it("congress-legislators' names reach the same nodes as the FEC codes", () => {
    expect(partyByName('Democrat')).toEqual(fecParty('DEM'));
    expect(partyByName('Republican')).toEqual(fecParty('REP'));
    expect(partyByName('Independent')).toEqual(fecParty('IND'));
  });

  it('other names become parties of their own; "no party" is none', () => {
    expect(partyByName('Whig')).toEqual({ party: { key: 'whig', name: 'Whig', abbreviation: '' } });
    expect(partyByName('Democratic-Republican')).toMatchObject({ party: { key: 'democratic-republican' } });
    expect(partyByName('no party')).toEqual({ none: true });
  });

  it('party nodes are outside every scope', () => {
    expect(partyDraft({ key: 'democratic', name: 'Democratic Party', abbreviation: 'DEM' })).toEqual({
      kind: 'party',
      slug: 'party:democratic',
      state: '',
      tier: '',
      data: { name: 'Democratic Party', abbreviation: 'DEM' },
    });
  });
});
