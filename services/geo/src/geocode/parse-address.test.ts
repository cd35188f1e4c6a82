import { InvalidParameterError } from '@civicgraph/kit';
import { describe, expect, test } from 'vitest';
import { parseAddress, readForm } from './parse-address.js';

function refusal(address: unknown): InvalidParameterError {
  try {
    parseAddress(address);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidParameterError);
    return err as InvalidParameterError;
  }
  return expect.fail(`expected ${JSON.stringify(address)} to be refused`);
}

describe('parseAddress', () => {
  test.each([
    ['39.7392,-104.9903', 39.7392, -104.9903],
    [' 39.7392 , -104.9903 ', 39.7392, -104.9903],
    ['+39,-104', 39, -104],
    ['-33.5, 151.25', -33.5, 151.25],
    ['.5,-.5', 0.5, -0.5],
    ['90,180', 90, 180],
    ['-90,-180', -90, -180],
  ])('reads %j as coordinates', (address, lat, lng) => {
    expect(parseAddress(address)).toEqual({ kind: 'coordinates', lat, lng });
  });

  test.each([
    ['80202', '80202'],
    ['80202-1234', '80202'],
    ['  00601 ', '00601'],
    ['00000', '00000'],
  ])('reads %j as ZIP %s', (address, zip) => {
    expect(parseAddress(address)).toEqual({ kind: 'zip', zip });
  });

  test.each([
    ['denver, co', 'denver', 'CO'],
    ['Denver, CO', 'Denver', 'CO'],
    ['Denver , CO, USA', 'Denver', 'CO'],
    ['Denver,CO USA', 'Denver', 'CO'],
    ['  New   York ,  ny , United States', 'New York', 'NY'],
    ["St. Mary's, ga", "St. Mary's", 'GA'],
    ['Winston-Salem, NC', 'Winston-Salem', 'NC'],
    ['Cañon City, CO', 'Cañon City', 'CO'],
    ['Springfield, ZZ', 'Springfield', 'ZZ'],
  ])('reads %j as a city', (address, city, state) => {
    expect(parseAddress(address)).toEqual({ kind: 'city', city, state });
  });

  test.each([
    ['abc'],
    ['8020'],
    ['802021'],
    ['80202-12'],
    ['Denver'],
    ['Denver, Colorado'],
    ['Denver, CO, Mexico'],
    ['1600 Pennsylvania Ave NW'],
    ['915 10th St, Greeley'],
    ['39.7,-104.9,12'],
    ['1e3,5'],
    ['NaN,0'],
  ])('refuses %j naming the field and the accepted forms', (address) => {
    const err = refusal(address);
    expect(err.field).toBe('address');
    expect(err.message).toContain('"lat,lng"');
    expect(err.message).toContain('ZIP');
    expect(err.message).toContain('"City, ST"');
  });

  test.each([
    ['91,0', 'latitude', '91'],
    ['-90.0001,0', 'latitude', '-90.0001'],
    ['0,181', 'longitude', '181'],
    ['45,-180.5', 'longitude', '-180.5'],
  ])('refuses %j naming the %s that is out of range', (address, coordinate, value) => {
    const err = refusal(address);
    expect(err.field).toBe('address');
    expect(err.message).toContain(coordinate);
    expect(err.message).toContain(`got ${value}`);
  });

  test.each([[''], ['   '], ['\t\n']])('refuses the blank address %j as empty', (address) => {
    expect(refusal(address).message).toMatch(/must not be empty/);
  });

  test('refuses a 10 KB address by its length, before parsing it', () => {
    const err = refusal('Denver, CO '.repeat(1_000));
    expect(err.field).toBe('address');
    expect(err.message).toBe('address must be at most 1000 characters, got 11000.');
  });

  test('refuses a value that is not a string', () => {
    expect(refusal(undefined).field).toBe('address');
    expect(refusal(80202).field).toBe('address');
  });

  test('does not echo a long address back in full', () => {
    const err = refusal(`${'a'.repeat(900)}!`);
    expect(err.message.length).toBeLessThan(400);
  });
});

describe('parseAddress of a street address: the area it ends with', () => {
  test.each([
    ['1600 Pennsylvania Ave NW, Washington, DC 20500', '20500'],
    ['1437 Bannock St, Denver, CO 80202-5310', '80202'],
    ['1437 Bannock St Denver CO 80202', '80202'],
    ['1437 Bannock St, Denver, CO 80202, USA', '80202'],
  ])('reads %j by its ZIP', (address, zip) => {
    expect(parseAddress(address)).toEqual({ kind: 'zip', zip, fromStreet: true });
  });

  test.each([
    ['915 10th St, Greeley, CO', 'Greeley', 'CO'],
    ['915 10th St, Suite 2, Greeley, co, USA', 'Greeley', 'CO'],
  ])('reads %j, which has no ZIP, by its city', (address, city, state) => {
    expect(parseAddress(address)).toEqual({ kind: 'city', city, state, fromStreet: true });
  });
});

describe('readForm', () => {
  test('returns undefined for a street address, so a street geocoder can take it', () => {
    expect(readForm('1600 Pennsylvania Ave NW, Washington, DC 20500')).toBeUndefined();
  });

  test('still refuses out-of-range coordinates and blank input', () => {
    expect(() => readForm('91,0')).toThrow(InvalidParameterError);
    expect(() => readForm(' ')).toThrow(InvalidParameterError);
  });
});
