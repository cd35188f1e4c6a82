import type { ServerUnaryCall } from '@grpc/grpc-js';
import type {
  Boundary,
  GetBoundaryRequest,
  GetRegionRequest,
  GetRegionsRequest,
  GetRegionsResponse,
  RegionDetail,
  RegionVersion,
} from '@civicgraph/protos/civic/geo/v1/geo';
import { assertGeography, InvalidParameterError, NotFoundError, principalOf, stateVisible } from '@civicgraph/kit';
import type { RegionRecord } from '../domain/region.js';
import { simplifyGeometry, vertexCount } from '../domain/simplify.js';
import { rolesOn, type DatedRegion } from '../domain/validity.js';
import type { GeoState } from '../geo-state.js';
import { provenanceOf, requestDate, toRegion } from './districts-at-point.js';

const SLUG = /^region:[a-z0-9]+(-[a-z0-9]+)*$/;
export const MAX_SIMPLIFY_METERS = 100_000;

function versionOf(r: RegionRecord): RegionVersion {
  const v = r.validity ?? {};
  return {
    validFrom: v.from ?? '',
    validTo: v.to ?? '',
    electionsFrom: v.electionsFrom ?? '',
    electionsTo: v.electionsTo ?? '',
    importedAt: r.source?.importedAt ?? '',
    ...provenanceOf(r),
  };
}

/**
 * The version of `slug` in force on the date, under the policy: a region outside the
 * caller's states, or unknown, is the same 404 — out-of-scope nodes do not exist for a key.
 */
function inForce(
  state: GeoState,
  call: ServerUnaryCall<unknown, unknown>,
  slug: string,
  rawDate: string,
): { dated: DatedRegion; versions: readonly RegionRecord[] } {
  const principal = principalOf(call);
  assertGeography(principal);
  if (!SLUG.test(slug))
    throw new InvalidParameterError('slug', `"${slug.slice(0, 80)}" is not a region slug (region:<lowercase-key>).`);
  const date = requestDate(rawDate);
  const versions = state.versions(slug).filter((r) => stateVisible(principal, r.state));
  if (versions.length === 0) throw new NotFoundError(`No region ${slug}.`, { field: 'slug' });
  for (const region of [...versions].reverse()) {
    const roles = rolesOn(region.validity, date);
    if (roles.length > 0) return { dated: { region, roles }, versions };
  }
  throw new NotFoundError(`${slug} has no boundary in force on ${date}; see its versions.`, { field: 'date' });
}

export function getRegion(state: GeoState) {
  return (req: GetRegionRequest, call: ServerUnaryCall<GetRegionRequest, RegionDetail>): RegionDetail => {
    const { dated, versions } = inForce(state, call, req.slug, req.date);
    return { region: toRegion(dated), versions: versions.map(versionOf) };
  };
}

/** Most slugs one GetRegions call may ask for. */
export const MAX_REGION_SLUGS = 1_000;

/**
 * Metadata of many regions (no boundaries, so no entitlement): each slug's version in
 * force on the date, else its newest; unknown, malformed and out-of-scope slugs are left
 * out, as a list leaves out what the caller may not see.
 */
export function getRegions(state: GeoState) {
  return (req: GetRegionsRequest, call: ServerUnaryCall<GetRegionsRequest, GetRegionsResponse>): GetRegionsResponse => {
    if (req.slugs.length > MAX_REGION_SLUGS)
      throw new InvalidParameterError('slugs', `At most ${MAX_REGION_SLUGS} slugs per call, got ${req.slugs.length}.`);
    const principal = principalOf(call);
    const date = requestDate(req.date);
    const regions = [];
    for (const slug of new Set(req.slugs)) {
      const versions = SLUG.test(slug) ? state.versions(slug).filter((r) => stateVisible(principal, r.state)) : [];
      if (versions.length === 0) continue;
      const inForce = [...versions]
        .reverse()
        .map((region) => ({ region, roles: rolesOn(region.validity, date) }))
        .find((d) => d.roles.length > 0);
      regions.push(toRegion(inForce ?? { region: versions[versions.length - 1]!, roles: [] }));
    }
    return { regions };
  };
}

export function getBoundary(state: GeoState) {
  return (req: GetBoundaryRequest, call: ServerUnaryCall<GetBoundaryRequest, Boundary>): Boundary => {
    if (!Number.isFinite(req.simplifyMeters) || req.simplifyMeters < 0 || req.simplifyMeters > MAX_SIMPLIFY_METERS) {
      throw new InvalidParameterError(
        'simplify',
        `simplify must be a number of metres from 0 to ${MAX_SIMPLIFY_METERS}.`,
      );
    }
    const { dated } = inForce(state, call, req.slug, req.date);
    const geometry = simplifyGeometry(dated.region.geometry, req.simplifyMeters);
    const v = versionOf(dated.region);
    return {
      slug: dated.region.slug,
      geometryJson: JSON.stringify(geometry),
      vertices: vertexCount(geometry),
      sourceVertices: vertexCount(dated.region.geometry),
      validFrom: v.validFrom,
      validTo: v.validTo,
    };
  };
}
