import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Level } from '@civicgraph/protos/civic/geo/v1/geo';
import { Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DENVER, get, graphql, startStack, type Stack } from '../harness/stack.js';
import { scaled } from '@civicgraph/kit/testing';

/**
 * Every answer has a size ceiling per plan (kit policy: Explore 2 MB, Build 16 MB), and
 * outlines are costed by what they return: a precinct drawn with 120,000 vertices (about
 * 3 MB of GeoJSON) is refused whole to an Explore key as `response_too_large` naming what
 * to change, served to a Build key, and served to anyone at a coarser simplification.
 */
const VERTICES = 120_000;
const dir = mkdtempSync(join(tmpdir(), 'civic-ceilings-'));
let stack: Stack;
let explore: string;
let build: string;
let slug: string;

beforeAll(async () => {
  const r = 0.05;
  const ring = Array.from({ length: VERTICES }, (_, i) => {
    const a = (2 * Math.PI * i) / VERTICES;
    return [Number((DENVER.lng + r * Math.cos(a)).toFixed(7)), Number((DENVER.lat + r * Math.sin(a)).toFixed(7))];
  });
  ring.push(ring[0]!);
  const file = join(dir, 'dense.geojson');
  writeFileSync(
    file,
    JSON.stringify({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { GEOID: '0803199', NAME: 'Dense' },
          geometry: { type: 'Polygon', coordinates: [ring] },
        },
      ],
    }),
  );
  stack = await startStack({ files: [{ level: Level.LEVEL_PRECINCT, path: file, state: 'co' }] });
  const geography = { contact: false, geography: true, states: [], tiers: [] };
  explore = await stack.key({ plan: Plan.PLAN_EXPLORE, entitlements: geography });
  build = await stack.key({ plan: Plan.PLAN_BUILD, entitlements: geography });
  const here = await get(`${stack.url}/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}`, build);
  slug = here.body.data.find((d: { level: string }) => d.level === 'precinct').slug;
}, scaled(120_000));
afterAll(async () => {
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('REST: an answer over the plan ceiling', () => {
  it('is refused to Explore as response_too_large naming simplify, served to Build, and served to Explore coarser', async () => {
    const path = `${stack.url}/v1/regions/${encodeURIComponent(slug)}/boundary`;
    const refused = await get(path, explore);
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.body).toMatchObject({ type: 'response_too_large', status: 400, field: 'simplify' });
    expect(refused.body.detail).toMatch(/2\.0 MB/);
    // The refusal counts as a request, so repeating it is no free way to make the gateway build megabytes.
    expect(refused.headers.get('civic-ratelimit-remaining')).toBe('59');
    const full = await get(path, build);
    expect(full.status).toBe(200);
    expect(full.body.properties.vertices).toBe(VERTICES + 1);
    expect(Number(full.headers.get('content-length'))).toBeGreaterThan(2 * 2 ** 20);
    const coarse = await get(`${path}?simplify=10`, explore);
    expect(coarse.status).toBe(200);
    expect(coarse.body.properties.vertices).toBeLessThan(1_000);
  });
});

describe('GraphQL: outlines costed by what they return', () => {
  const boundaries = (n: number, simplify: number) =>
    `{ ${Array.from({ length: n }, (_, i) => `a${i}: region(slug: "${slug}") { boundary(simplify: ${simplify}) }`).join(' ')} }`;

  it('reports what the outlines cost beside what the query asked: a point per thousand vertices', async () => {
    const res = await graphql(stack.url, build, boundaries(1, 0));
    expect(res.body.errors).toBeUndefined();
    const cost = res.body.extensions.cost;
    expect(cost.spent).toBe(cost.requested + Math.ceil((VERTICES + 1) / 1000));
  });

  it('refuses the outline that passes the ceiling, naming its path, and keeps the answer within it', async () => {
    const res = await graphql(stack.url, build, boundaries(8, 0));
    const refused = res.body.errors.filter(
      (e: { extensions: { type: string } }) => e.extensions.type === 'response_too_large',
    );
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0].extensions.field).toMatch(/^a\d\.boundary$/);
    expect(refused[0].path).toEqual(refused[0].extensions.field.split('.'));
    expect(JSON.stringify(res.body).length).toBeLessThan(16 * 2 ** 20 + 4 * 2 ** 20);
    const served = Object.values(res.body.data as Record<string, { boundary: unknown } | null>).filter(
      (r) => r?.boundary != null,
    );
    expect(served.length).toBeGreaterThan(0);
    expect(served.length).toBeLessThan(8);
  });

  it('serves Explore the same outlines once simplified below its ceiling', async () => {
    const refused = await graphql(stack.url, explore, boundaries(1, 0));
    expect(refused.body.errors[0].extensions).toMatchObject({ type: 'response_too_large', field: 'a0.boundary' });
    const coarse = await graphql(stack.url, explore, boundaries(5, 10));
    expect(coarse.body.errors).toBeUndefined();
    expect(Object.keys(coarse.body.data)).toHaveLength(5);
  });
});
