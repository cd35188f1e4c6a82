import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DENVER, get, graphql, startStack, type Stack } from '../harness/stack.js';

let stack: Stack;
beforeAll(async () => {
  // Port 1 on loopback: nothing listens there, so every geo call fails to connect.
  stack = await startStack({ geoAddr: '127.0.0.1:1' });
});
afterAll(() => stack.stop());

describe('when the geo service is unreachable', () => {
  it('REST answers 503 upstream_unavailable with Retry-After, never a 500', async () => {
    const key = await stack.key();
    const res = await get(`${stack.url}/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}`, key);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ type: 'upstream_unavailable', status: 503 });
    expect(res.body.detail).toContain('geo');
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.headers.get('civic-ratelimit-limit')).toBe('600');
  });

  it('GraphQL reports the same error type', async () => {
    const gql = await graphql(stack.url, await stack.key(), '{ districtsAtPoint(lat: 39.7, lng: -104.9) { slug } }');
    expect(gql.body.errors[0].extensions.type).toBe('upstream_unavailable');
  });

  it('readyz says not ready and names the missing upstream', async () => {
    const res = await get(`${stack.url}/readyz`);
    expect(res.status).toBe(503);
    expect(res.body.upstreams).toEqual({ auth: 'serving', geo: 'not_serving', graph: 'serving', results: 'serving' });
  });
});
