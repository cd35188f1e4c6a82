import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { assertGeography } from '@civicgraph/kit';
import { GeoCache, type GeoEntry } from './cache/geo-cache.js';
import type { GeoUpstream } from './upstream/geo-client.js';

/**
 * Point lookups shared by REST and GraphQL: one cache, one upstream, same answers. The
 * cache must not become a way around the policy: the caller's entitlement is checked here
 * before any cached answer is served (the geo service checks it again on a miss), and the
 * cache key carries the caller's state scope, the only other input to what the policy
 * lets a key see of a point.
 */
export class GeoLookup {
  constructor(
    private readonly geo: GeoUpstream,
    readonly cache: GeoCache,
  ) {}

  async districtsAtPoint(principal: Principal, lat: number, lng: number, date: string): Promise<{ entry: GeoEntry; hit: boolean }> {
    assertGeography(principal);
    const key = GeoCache.key(principal, lat, lng, date);
    const cached = this.cache.get(key);
    if (cached !== undefined) return { entry: cached, hit: true };
    const generation = this.cache.mark();
    const res = await this.geo.districtsAtPoint(principal, lat, lng, date);
    return { entry: this.cache.set(key, res.regions, generation), hit: false };
  }
}
