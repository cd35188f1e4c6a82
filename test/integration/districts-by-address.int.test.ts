import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, startStack, type Stack } from '../harness/stack.js';
import { scaled } from '@civicgraph/kit/testing';

let stack: Stack;
let key: string;
const byAddress = (address: string, extra = '') =>
  get(`${stack.url}/v1/districts_by_address?address=${encodeURIComponent(address)}${extra}`, key);

beforeAll(async () => {
  stack = await startStack();
  key = await stack.key();
}, scaled(60_000));
afterAll(() => stack.stop());

describe('GET /v1/districts_by_address', () => {
  it('treats `lat,lng` as an exact point: not ambiguous, the same districts as districts_by_point', async () => {
    const res = await byAddress('39.7392, -104.9903');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ambiguous: false,
      geocode: { point: { lat: 39.7392, lng: -104.9903 }, precision: 'coordinates' },
    });
    const point = await get(`${stack.url}/v1/districts_by_point?lat=39.7392&lng=-104.9903`, key);
    expect(res.body.data).toEqual(point.body.data);
  });

  it('a ZIP is ambiguous: every district meeting its area, each with a share', async () => {
    const res = await byAddress('80202');
    expect(res.status).toBe(200);
    expect(res.body.ambiguous).toBe(true);
    expect(res.body.geocode).toMatchObject({ precision: 'zip', source: 'embedded:zipcodes' });
    expect(res.body.geocode.uncertainty_radius_meters).toBeGreaterThan(0);
    const denver = res.body.data.find((r: { slug: string }) => r.slug === 'region:co-denver-county');
    expect(denver.share).toBeGreaterThan(0.5);
    for (const r of res.body.data) expect(r.share).toBeGreaterThanOrEqual(0);
  });

  it('a street address is placed by its ZIP: ambiguous as the ZIP is, and says the street was not placed', async () => {
    const res = await byAddress('1437 Bannock St, Denver, CO 80202');
    expect(res.status).toBe(200);
    const zip = await byAddress('80202');
    expect(res.body).toMatchObject({ ambiguous: true, data: zip.body.data });
    expect(res.body.geocode).toMatchObject({
      precision: 'zip',
      matched: "80202 (Denver, CO): the address's ZIP code (this geocoder does not place streets)",
    });
  });

  it('a city that straddles a state line lists both states', async () => {
    const res = await byAddress('Texarkana, TX');
    const states = res.body.data
      .filter((r: { level: string }) => r.level === 'state')
      .map((r: { slug: string }) => r.slug);
    expect(states).toEqual(expect.arrayContaining(['region:tx', 'region:ar']));
  });

  it.each([
    ['', 400],
    ['   ', 400],
    ['x'.repeat(10_000), 400],
    ['not an address I know', 400],
    ['91,0', 400],
  ])('refuses %j with %i naming address', async (address, status) => {
    const res = await byAddress(address);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ type: 'invalid_parameter', field: 'address' });
  });

  it('answers an address it reads but cannot place with 404', async () => {
    const res = await byAddress('00000');
    expect(res.status).toBe(404);
    expect(res.body.type).toBe('not_found');
  });

  it('refuses a missing or repeated address, naming it', async () => {
    expect((await get(`${stack.url}/v1/districts_by_address`, key)).body).toMatchObject({
      status: 400,
      field: 'address',
    });
    expect((await get(`${stack.url}/v1/districts_by_address?address=80202&address=80203`, key)).body).toMatchObject({
      status: 400,
      field: 'address',
    });
  });

  it('needs the geography entitlement', async () => {
    const noGeo = await stack.key({ entitlements: { contact: false, geography: false, states: [], tiers: [] } });
    const res = await get(`${stack.url}/v1/districts_by_address?address=80202`, noGeo);
    expect(res.status).toBe(403);
    expect(res.body.field).toBe('geography');
  });
});
