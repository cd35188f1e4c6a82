import type { ServerUnaryCall } from '@grpc/grpc-js';
import type {
  DistrictsByAddressRequest,
  DistrictsByAddressResponse,
  Geocode,
} from '@civicgraph/protos/civic/geo/v1/geo';
import { assertGeography, principalOf, visibleByState } from '@civicgraph/kit';
import { onDate, type DatedRegion } from '../domain/validity.js';
import { areaShares, checkAddress, isAmbiguous, type Geocoder, type GeocodeResult } from '../geocode/index.js';
import type { GeoState } from '../geo-state.js';
import { requestDate, toRegion } from './districts-at-point.js';

function toGeocode(g: GeocodeResult): Geocode {
  const radius =
    g.uncertainty !== undefined && 'radiusMeters' in g.uncertainty ? g.uncertainty.radiusMeters : undefined;
  return {
    lat: g.point.lat,
    lng: g.point.lng,
    precision: g.precision,
    source: g.source,
    matched: g.matched,
    ...(radius === undefined ? {} : { uncertaintyRadiusMeters: radius }),
  };
}

/**
 * Geocodes, then answers like DistrictsAtPoint; an area-sized geocode lists every region
 * meeting its uncertainty disc with that region's share of it.
 */
export function districtsByAddress(state: GeoState, geocoder: Geocoder) {
  return async (
    request: DistrictsByAddressRequest,
    call: ServerUnaryCall<DistrictsByAddressRequest, DistrictsByAddressResponse>,
  ) => {
    const principal = principalOf(call);
    assertGeography(principal);
    const address = checkAddress(request.address);
    const date = requestDate(request.date);
    const geocode = await geocoder.geocode(address);
    const { index, version } = state.current();
    const at = (lat: number, lng: number): DatedRegion[] =>
      onDate(visibleByState(principal, index.lookup(lat, lng)), date);
    const ambiguous =
      isAmbiguous(geocode) && geocode.uncertainty !== undefined && 'radiusMeters' in geocode.uncertainty;
    const regions = ambiguous
      ? areaShares(geocode.point, (geocode.uncertainty as { radiusMeters: number }).radiusMeters, (lat, lng) =>
          at(lat, lng).map((d) => ({ slug: d.region.slug, d })),
        )
          .map(({ region, share }) => ({ ...toRegion(region.d), share }))
          .sort((a, b) => a.level - b.level || b.share - a.share || (a.slug < b.slug ? -1 : 1))
      : at(geocode.point.lat, geocode.point.lng).map(toRegion);
    return { geocode: toGeocode(geocode), ambiguous, regions, datasetVersion: version };
  };
}
