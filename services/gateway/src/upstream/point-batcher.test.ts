import { describe, expect, it } from 'vitest';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { DistrictsAtPointRequest, DistrictsAtPointsResponse } from '@civicgraph/protos/civic/geo/v1/geo';
import { EntitlementRequiredError, InvalidParameterError, UpstreamUnavailableError } from '@civicgraph/kit';
import { PointBatcher, type SendBatch } from './point-batcher.js';

const principal = (keyId: string) => ({ keyId }) as Principal;
const region = (slug: string) => ({
  slug,
  name: slug,
  level: 2,
  fips: '',
  ocdId: '',
  state: '',
  roles: [],
  validFrom: '',
  validTo: '',
  source: '',
  precision: 'full',
  scaleDenominator: 0,
});

/** A geo stand-in that answers every point with a region named after it, recording each call. */
function recordingGeo(
  answer: (p: DistrictsAtPointRequest) => DistrictsAtPointsResponse['answers'][number] = (p) => ({
    regions: [region(`${p.lat},${p.lng}`)],
  }),
) {
  const calls: { principal: Principal; points: DistrictsAtPointRequest[] }[] = [];
  const send: SendBatch = async (who, points) => {
    calls.push({ principal: who, points });
    return { answers: points.map(answer), datasetVersion: 'v1' };
  };
  return { calls, send };
}

const at = (lat: number, lng = 0): DistrictsAtPointRequest => ({ lat, lng, date: '' });

describe('PointBatcher', () => {
  it('sends the lookups one caller makes in one turn as one call, and gives each its own answer', async () => {
    const geo = recordingGeo();
    const batcher = new PointBatcher(geo.send, 256);
    const alice = principal('key_a');
    const answers = await Promise.all([1, 2, 3].map((lat) => batcher.lookup(alice, at(lat))));
    expect(geo.calls).toHaveLength(1);
    expect(geo.calls[0]!.points.map((p) => p.lat)).toEqual([1, 2, 3]);
    expect(answers.map((a) => a.regions[0]!.slug)).toEqual(['1,0', '2,0', '3,0']);
    expect(answers.every((a) => a.datasetVersion === 'v1')).toBe(true);
  });

  it('never mixes callers in one call', async () => {
    const geo = recordingGeo();
    const batcher = new PointBatcher(geo.send, 256);
    const alice = principal('key_a');
    const bob = principal('key_b');
    await Promise.all([batcher.lookup(alice, at(1)), batcher.lookup(bob, at(2)), batcher.lookup(alice, at(3))]);
    expect(geo.calls).toHaveLength(2);
    const byKey = Object.fromEntries(geo.calls.map((c) => [c.principal.keyId, c.points.map((p) => p.lat)]));
    expect(byKey).toEqual({ key_a: [1, 3], key_b: [2] });
  });

  it('sends a full batch at once and the rest on the next turn', async () => {
    const geo = recordingGeo();
    const batcher = new PointBatcher(geo.send, 2);
    const alice = principal('key_a');
    const pending = [1, 2, 3, 4, 5].map((lat) => batcher.lookup(alice, at(lat)));
    expect(geo.calls.map((c) => c.points.length)).toEqual([2, 2]);
    await Promise.all(pending);
    expect(geo.calls.map((c) => c.points.length)).toEqual([2, 2, 1]);
  });

  it('starts a new batch for lookups made after a flush', async () => {
    const geo = recordingGeo();
    const batcher = new PointBatcher(geo.send, 256);
    const alice = principal('key_a');
    await batcher.lookup(alice, at(1));
    await batcher.lookup(alice, at(2));
    expect(geo.calls).toHaveLength(2);
  });

  it("fails only the point geo refused, with geo's typed error and field", async () => {
    const geo = recordingGeo((p) =>
      p.lat > 90
        ? { regions: [], error: { type: 'invalid_parameter', message: 'lat must be -90..90.', field: 'lat' } }
        : { regions: [region('ok')] },
    );
    const batcher = new PointBatcher(geo.send, 256);
    const alice = principal('key_a');
    const [good, bad] = await Promise.allSettled([batcher.lookup(alice, at(1)), batcher.lookup(alice, at(91))]);
    expect(good).toMatchObject({ status: 'fulfilled', value: { regions: [{ slug: 'ok' }] } });
    expect(bad.status).toBe('rejected');
    const err = (bad as PromiseRejectedResult).reason;
    expect(err).toBeInstanceOf(InvalidParameterError);
    expect(err).toMatchObject({ field: 'lat', message: 'lat must be -90..90.' });
  });

  it('fails every lookup of a call that failed', async () => {
    const refusal = new EntitlementRequiredError('geography');
    const batcher = new PointBatcher(() => Promise.reject(refusal), 256);
    const alice = principal('key_a');
    const results = await Promise.allSettled([batcher.lookup(alice, at(1)), batcher.lookup(alice, at(2))]);
    expect(results.map((r) => (r as PromiseRejectedResult).reason)).toEqual([refusal, refusal]);
  });

  it('refuses an answer that does not match the points sent, instead of misassigning regions', async () => {
    const batcher = new PointBatcher(
      async () => ({ answers: [{ regions: [region('only')] }], datasetVersion: 'v1' }),
      256,
    );
    const alice = principal('key_a');
    const results = await Promise.allSettled([batcher.lookup(alice, at(1)), batcher.lookup(alice, at(2))]);
    expect(results.every((r) => r.status === 'rejected' && r.reason.type === 'internal')).toBe(true);
  });

  it('passes transport failures through unchanged', async () => {
    const down = new UpstreamUnavailableError('The geo service is unavailable.');
    const batcher = new PointBatcher(() => Promise.reject(down), 256);
    await expect(batcher.lookup(principal('key_a'), at(1))).rejects.toBe(down);
  });

  it('rejects a batch size that is not a positive integer', () => {
    const geo = recordingGeo();
    expect(() => new PointBatcher(geo.send, 0)).toThrow(RangeError);
    expect(() => new PointBatcher(geo.send, 1.5)).toThrow(RangeError);
  });
});
