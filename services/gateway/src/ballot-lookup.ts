import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { DistrictRole, type Region } from '@civicgraph/protos/civic/geo/v1/geo';
import type { BallotResponse } from '@civicgraph/protos/civic/graph/v1/graph';
import { restLevel } from '@civicgraph/kit';
import type { GeoUpstream } from './upstream/geo-client.js';
import type { GraphUpstream } from './upstream/graph-client.js';

/** A point's ballot: the districts elections use there on the day, and their contests. */
export interface PointBallot extends BallotResponse {
  electing: readonly Region[];
}

/**
 * The ballot at a point, shared by REST and GraphQL (same answers): the point's districts
 * from geo (the electing ones during redistricting), then the graph's contests for them.
 */
export async function ballotAtPoint(
  upstream: { geo: GeoUpstream; graph: GraphUpstream },
  principal: Principal,
  lat: number,
  lng: number,
  date: string,
  minConfidence: number,
): Promise<PointBallot> {
  const { regions } = await upstream.geo.districtsAtPoint(principal, lat, lng, date);
  const electing = regions.filter((r) => r.roles.length === 0 || r.roles.includes(DistrictRole.DISTRICT_ROLE_ELECTING));
  const ballot = await upstream.graph.ballot(principal, {
    regions: electing.map((r) => r.slug),
    regionLevels: electing.map((r) => restLevel(r.level)),
    date,
    minConfidence,
  });
  return { ...ballot, electing };
}
