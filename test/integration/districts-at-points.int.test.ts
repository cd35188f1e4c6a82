import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { status, type Metadata, type ServiceError } from '@grpc/grpc-js';
import { Plan, type Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import {
  GeoServiceClient,
  type DistrictsAtPointRequest,
  type DistrictsAtPointResponse,
  type DistrictsAtPointsResponse,
} from '@civicgraph/protos/civic/geo/v1/geo';
import { clientOptions, insecure, principalMetadata, seededRandom } from '@civicgraph/kit';
import { get, startStack, type Stack } from '../harness/stack.js';

let stack: Stack;
let client: GeoServiceClient;
let principal: Principal;

beforeAll(async () => {
  stack = await startStack();
  client = new GeoServiceClient(stack.geo.address, insecure(), clientOptions(10_000));
  principal = await stack.auth.keys.authenticate(await stack.key());
});
afterAll(async () => {
  client.close();
  await stack.stop();
});

const one = (req: DistrictsAtPointRequest, md: Metadata) =>
  new Promise<DistrictsAtPointResponse>((resolve, reject) =>
    client.districtsAtPoint(req, md, (err, res) => (err ? reject(err) : resolve(res))),
  );
const many = (points: DistrictsAtPointRequest[], md: Metadata) =>
  new Promise<DistrictsAtPointsResponse>((resolve, reject) =>
    client.districtsAtPoints({ points }, md, (err, res) => (err ? reject(err) : resolve(res))),
  );

/** Seeded points over the US box and around it. */
function points(n: number, seed: number): DistrictsAtPointRequest[] {
  const rand = seededRandom(seed);
  return Array.from({ length: n }, () => ({ lat: 20 + rand() * 35, lng: -130 + rand() * 70, date: '' }));
}

describe('geo DistrictsAtPoints (gRPC)', () => {
  it('answers every point exactly as DistrictsAtPoint does, in request order', async () => {
    const md = principalMetadata(principal);
    const batch = points(200, 3);
    const res = await many(batch, md);
    expect(res.answers).toHaveLength(batch.length);
    const singles = await Promise.all(batch.map((p) => one(p, md)));
    expect(res.answers.map((a) => a.regions)).toEqual(singles.map((s) => s.regions));
    expect(res.answers.some((a) => a.regions.length > 0)).toBe(true);
    expect(res.datasetVersion).toBe(singles[0]!.datasetVersion);
  });

  it("fails only a point's own bad input, naming its field", async () => {
    const res = await many(
      [
        { lat: 39.7392, lng: -104.9903, date: '' },
        { lat: 91, lng: 0, date: '' },
        { lat: 0, lng: 0, date: '2025-13-01' },
      ],
      principalMetadata(principal),
    );
    expect(res.answers[0]!.error).toBeUndefined();
    expect(res.answers[0]!.regions.map((r) => r.slug)).toContain('region:co');
    expect(res.answers[1]).toMatchObject({ regions: [], error: { type: 'invalid_parameter', field: 'lat' } });
    expect(res.answers[2]).toMatchObject({ regions: [], error: { type: 'invalid_parameter', field: 'date' } });
  });

  it('refuses an empty batch and one over 1,000 points, naming points', async () => {
    for (const batch of [[], points(1001, 4)]) {
      const err = (await many(batch, principalMetadata(principal)).catch((e: unknown) => e)) as ServiceError;
      expect(err.code).toBe(status.INVALID_ARGUMENT);
      expect(err.metadata.get('civic-error-field')).toEqual(['points']);
    }
  });

  it('refuses the whole call for a caller without the geography entitlement', async () => {
    const noGeo = await stack.auth.keys.authenticate(
      await stack.key({ entitlements: { contact: false, geography: false, states: [], tiers: [] } }),
    );
    const err = (await many(points(3, 5), principalMetadata(noGeo)).catch((e: unknown) => e)) as ServiceError;
    expect(err.code).toBe(status.PERMISSION_DENIED);
    expect(err.metadata.get('civic-error-type')).toEqual(['entitlement_required']);
  });

  it("keeps each point to the caller's states", async () => {
    const coOnly = await stack.auth.keys.authenticate(
      await stack.key({ entitlements: { contact: false, geography: true, states: ['CO'], tiers: [] } }),
    );
    const res = await many(
      [
        { lat: 39.7392, lng: -104.9903, date: '' },
        { lat: 39.1582, lng: -75.5244, date: '' },
      ],
      principalMetadata(coOnly),
    );
    expect(res.answers[0]!.regions.map((r) => r.slug)).toContain('region:co');
    expect(res.answers[1]!.regions).toEqual([]);
  });
});

describe('many concurrent point requests through the gateway', () => {
  it('gives each of many concurrent requests its own answer, the same as one at a time', async () => {
    const key = await stack.key({ plan: Plan.PLAN_ENTERPRISE, rateLimitPerMinute: 100_000 });
    const batch = points(120, 6).map((p) => ({ lat: Number(p.lat.toFixed(5)), lng: Number(p.lng.toFixed(5)) }));
    const url = (p: { lat: number; lng: number }, date: string) =>
      `${stack.url}/v1/districts_by_point?lat=${p.lat}&lng=${p.lng}&date=${date}`;
    // Concurrently, on a date no other test asks for, so none is answered from the gateway cache.
    const together = await Promise.all(batch.map((p) => get(url(p, '2026-01-02'), key)));
    const alone: Awaited<ReturnType<typeof get>>[] = [];
    for (const p of batch) alone.push(await get(url(p, '2026-01-03'), key));
    expect(together.map((r) => r.status)).toEqual(batch.map(() => 200));
    expect(together.map((r) => r.headers.get('civic-cache'))).toEqual(batch.map(() => 'miss'));
    expect(together.map((r) => r.body.point)).toEqual(batch);
    expect(together.map((r) => r.body.data)).toEqual(alone.map((r) => r.body.data));
  });
});
