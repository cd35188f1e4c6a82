import type { ServerUnaryCall } from '@grpc/grpc-js';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import {
  DistrictRole,
  type DistrictsAtPointRequest,
  type DistrictsAtPointResponse,
  type DistrictsAtPointsRequest,
  type DistrictsAtPointsResponse,
  type PointAnswer,
  type Region,
} from '@civicgraph/protos/civic/geo/v1/geo';
import {
  assertCoordinate,
  assertGeography,
  CivicError,
  InvalidParameterError,
  isIsoDate,
  principalOf,
  todayUtc,
  visibleByState,
} from '@civicgraph/kit';
import type { DistrictIndex } from '../domain/district-index.js';
import { precisionOf, type RegionRecord } from '../domain/region.js';
import { onDate, type DatedRegion } from '../domain/validity.js';
import type { GeoState } from '../geo-state.js';

const ROLES = { serving: DistrictRole.DISTRICT_ROLE_SERVING, electing: DistrictRole.DISTRICT_ROLE_ELECTING } as const;

/** The date a request asks about: `YYYY-MM-DD`, or today (UTC) when empty. */
export function requestDate(date: string, now = new Date()): string {
  if (date === '') return todayUtc(now);
  if (!isIsoDate(date))
    throw new InvalidParameterError('date', `date must be a calendar date written YYYY-MM-DD, got "${date}".`);
  return date;
}

export function toRegion({ region: r, roles }: DatedRegion): Region {
  return {
    roles: roles.map((role) => ROLES[role]),
    validFrom: r.validity?.from ?? '',
    validTo: r.validity?.to ?? '',
    slug: r.slug,
    name: r.name,
    level: r.level,
    fips: r.fips,
    ocdId: r.ocdId,
    state: r.state,
    ...(r.population === undefined ? {} : { population: String(r.population) }),
    ...provenanceOf(r),
  };
}

/** Where a version's outline came from and how exact it is. */
export function provenanceOf(r: RegionRecord): { source: string; precision: string; scaleDenominator: number } {
  const { precision, scale } = precisionOf(r);
  return { source: r.source?.name ?? '', precision, scaleDenominator: scale };
}

/** Most points one DistrictsAtPoints call may carry. */
export const MAX_BATCH_POINTS = 1000;

/** One point against one index: validates, looks up, keeps what the caller may see on the date. */
function answer(index: DistrictIndex, principal: Principal, request: DistrictsAtPointRequest): Region[] {
  const lat = assertCoordinate('lat', request.lat);
  const lng = assertCoordinate('lng', request.lng);
  const date = requestDate(request.date);
  return onDate(visibleByState(principal, index.lookup(lat, lng)), date).map(toRegion);
}

/** Decodes, checks the caller's entitlements through the policy, looks up, encodes. */
export function districtsAtPoint(state: GeoState) {
  return (
    request: DistrictsAtPointRequest,
    call: ServerUnaryCall<DistrictsAtPointRequest, DistrictsAtPointResponse>,
  ) => {
    const principal = principalOf(call);
    assertGeography(principal);
    const { index, version } = state.current();
    return { regions: answer(index, principal, request), datasetVersion: version };
  };
}

/**
 * Many points for one caller against one snapshot of the boundaries. The entitlement is
 * the caller's, so it fails the call; a point's own bad input fails only that point.
 */
export function answerPoints(
  state: GeoState,
  principal: Principal,
  request: DistrictsAtPointsRequest,
): DistrictsAtPointsResponse {
  assertGeography(principal);
  const n = request.points.length;
  if (n === 0 || n > MAX_BATCH_POINTS) {
    throw new InvalidParameterError('points', `points must hold 1 to ${MAX_BATCH_POINTS} lookups, got ${n}.`);
  }
  const { index, version } = state.current();
  const answers = request.points.map((point): PointAnswer => {
    try {
      return { regions: answer(index, principal, point) };
    } catch (err) {
      if (!(err instanceof CivicError)) throw err;
      return { regions: [], error: { type: err.type, message: err.message, field: err.field ?? '' } };
    }
  });
  return { answers, datasetVersion: version };
}

/** DistrictsAtPoints: the caller from the call's metadata. */
export function districtsAtPoints(state: GeoState) {
  return (
    request: DistrictsAtPointsRequest,
    call: ServerUnaryCall<DistrictsAtPointsRequest, DistrictsAtPointsResponse>,
  ) => answerPoints(state, principalOf(call), request);
}
