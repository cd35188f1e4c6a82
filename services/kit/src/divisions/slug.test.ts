import { describe, expect, test } from 'vitest';
import { ocdKey, slugKey } from './slug.js';

describe('slugKey', () => {
  test.each([
    ['Denver County', 'denver-county'],
    ['Doña Ana County', 'dona-ana-county'],
    ["Prince George's County", 'prince-georges-county'],
    ['St. Mary’s County', 'st-marys-county'],
    ['  Miami-Dade  County ', 'miami-dade-county'],
    ['Baltimore city', 'baltimore-city'],
    ['Mayagüez Municipio', 'mayaguez-municipio'],
  ])('%s → %s', (name, key) => expect(slugKey(name)).toBe(key));
});

describe('ocdKey', () => {
  test.each([
    ['Denver', 'denver'],
    ['Doña Ana', 'doña_ana'],
    ["Prince George's", 'prince_george~s'],
    ['St. Clair', 'st_clair'],
    ['Miami-Dade', 'miami-dade'],
    ['Lake and Peninsula', 'lake_and_peninsula'],
  ])('%s → %s', (name, key) => expect(ocdKey(name)).toBe(key));
});
