import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, graphql, startStack, type Stack } from '../harness/stack.js';
import { scaled } from '@civicgraph/kit/testing';

let stack: Stack;
let key: string;
const url = (path: string) => `${stack.url}${path}`;

beforeAll(async () => {
  stack = await startStack();
  key = await stack.key();
}, scaled(60_000));
afterAll(() => stack.stop());

describe('GET /v1/regions/{slug}', () => {
  it('describes a region: OCD id, FIPS, population, validity and where its boundary is', async () => {
    const res = await get(url('/v1/regions/region:co-denver-county'), key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      slug: 'region:co-denver-county',
      name: 'Denver County',
      level: 'county',
      fips: '08031',
      ocd_id: 'ocd-division/country:us/state:co/county:denver',
      valid_from: null,
      valid_to: null,
      versions: [{ valid_from: null, valid_to: null, elections_from: null, elections_to: null }],
      boundary_url: '/v1/regions/region%3Aco-denver-county/boundary',
    });
    expect(res.headers.get('cache-control')).toBe('private, max-age=86400');
  });

  it('answers 404 naming the slug for an unknown region, and 400 for a malformed one', async () => {
    expect((await get(url('/v1/regions/region:co-atlantis-county'), key)).body).toMatchObject({
      status: 404,
      type: 'not_found',
      field: 'slug',
    });
    expect((await get(url('/v1/regions/region:CO!'), key)).body).toMatchObject({ status: 400, field: 'slug' });
    expect((await get(url('/v1/regions/region:co?date=2025-02-30'), key)).body).toMatchObject({
      status: 400,
      field: 'date',
    });
  });

  it('does not exist for a key scoped to other states, and needs geography', async () => {
    const delaware = await stack.key({ entitlements: { contact: false, geography: true, states: ['de'], tiers: [] } });
    expect((await get(url('/v1/regions/region:co'), delaware)).status).toBe(404);
    expect((await get(url('/v1/regions/region:de'), delaware)).status).toBe(200);
    const noGeo = await stack.key({ entitlements: { contact: false, geography: false, states: [], tiers: [] } });
    expect((await get(url('/v1/regions/region:co'), noGeo)).body).toMatchObject({ status: 403, field: 'geography' });
  });
});

describe('GET /v1/regions/{slug}/boundary', () => {
  it('serves the outline as a GeoJSON Feature, simplified on request', async () => {
    const full = await get(url('/v1/regions/region:co/boundary'), key);
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toContain('application/geo+json');
    expect(full.body.type).toBe('Feature');
    expect(['Polygon', 'MultiPolygon']).toContain(full.body.geometry.type);
    expect(full.body.properties).toMatchObject({ slug: 'region:co', simplify_meters: 0 });
    expect(full.body.properties.vertices).toBe(full.body.properties.source_vertices);
    const coarse = await get(url('/v1/regions/region:co/boundary?simplify=5000'), key);
    expect(coarse.body.properties.vertices).toBeLessThan(full.body.properties.vertices);
    expect(full.headers.get('etag')).not.toBe(coarse.headers.get('etag'));
  });

  it.each(['-1', 'abc', '1e9', ''])('refuses simplify=%s naming it', async (value) => {
    expect((await get(url(`/v1/regions/region:co/boundary?simplify=${value}`), key)).body).toMatchObject({
      status: 400,
      field: 'simplify',
    });
  });
});

describe('GraphQL region', () => {
  it('returns a region with its boundary, and null for an unknown or out-of-scope slug', async () => {
    const q = 'query($s: ID!) { region(slug: $s) { slug name fips boundary(simplify: 2000) } }';
    const res = await graphql(stack.url, key, q, { s: 'region:co-denver-county' });
    expect(res.body.data.region).toMatchObject({
      slug: 'region:co-denver-county',
      name: 'Denver County',
      fips: '08031',
    });
    expect(['Polygon', 'MultiPolygon']).toContain(res.body.data.region.boundary.type);
    expect((await graphql(stack.url, key, q, { s: 'region:co-atlantis-county' })).body.data.region).toBeNull();
    const delaware = await stack.key({ entitlements: { contact: false, geography: true, states: ['de'], tiers: [] } });
    expect((await graphql(stack.url, delaware, q, { s: 'region:co' })).body.data.region).toBeNull();
  });

  it('gives the same boundary through REST and GraphQL', async () => {
    const rest = await get(url('/v1/regions/region:de/boundary?simplify=1000'), key);
    const gql = await graphql(stack.url, key, '{ region(slug: "region:de") { boundary(simplify: 1000) } }');
    expect(gql.body.data.region.boundary).toEqual(rest.body.geometry);
  });
});
