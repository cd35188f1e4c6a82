import type { Region } from '@civicgraph/protos/civic/geo/v1/geo';
import type { UnresolvedRegion } from '@civicgraph/protos/civic/graph/v1/graph';
import { restLevel } from '@civicgraph/kit';
import type { BallotResponse } from '@civicgraph/protos/civic/graph/v1/graph';
import { object, ref, str, type JsonSchema } from '../schema/json-schema.js';
import { contestSummaryView, contestView, regionRefView } from './contest.js';

export const schemas: Record<string, JsonSchema> = {
  Ballot: object(
    {
      point: object({ lat: { type: 'number' }, lng: { type: 'number' } }, [], 'The queried coordinate.'),
      date: { type: 'string', format: 'date', description: 'The election day asked about.' },
      regions: {
        type: 'array',
        description: 'The regions containing the point on the date (electing districts during redistricting).',
        items: object({
          slug: { type: 'string', pattern: '^region:' },
          name: { type: 'string' },
          level: { type: 'string' },
          precision: {
            type: 'string',
            enum: ['full', 'generalized'],
            description:
              "How exact the outline that placed the point in the region is: `full` (the source's full resolution) or `generalized` (a cartographic map, e.g. 1:20M; near its boundary the district may be a neighbour). `/v1/districts_by_point` gives its source and scale.",
          },
        }),
      },
      contests: {
        type: 'array',
        items: ref('Contest'),
        description:
          'The contests on the ballot there, national first: those of the regions containing the point, and of regions known to contain them. Only contests some loaded source holds: where no source covers local offices or measures (README, What is on a ballot), they are not listed.',
      },
      unresolved: {
        type: 'array',
        description:
          'Regions with contests on the date that may contain the point but that no loaded boundary resolves (a judicial or transit district, a council district): their contests may or may not be on this ballot.',
        items: object({
          region: ref('RegionRef'),
          reason: str('Why the region could not be resolved.'),
          contests: { type: 'array', items: ref('ContestSummary') },
        }),
      },
      next_cursor: { type: 'null', description: 'Always null: the ballot is one page.' },
    },
    [],
    'The full ballot for a point on a date.',
  ),
};

function regionRef(r: Region) {
  return { slug: r.slug, name: r.name, level: restLevel(r.level), precision: r.precision };
}

function unresolvedView(u: UnresolvedRegion) {
  return { region: regionRefView(u.region), reason: u.reason, contests: u.contests.map(contestSummaryView) };
}

/** The spec's ballot object: the point, its regions, the contests with their candidacies, and the unresolved regions. */
export function ballotView(
  point: { lat: number; lng: number },
  date: string,
  regions: readonly Region[],
  entry: Pick<BallotResponse, 'contests' | 'unresolved'>,
  showContact: boolean,
) {
  return {
    point,
    date,
    regions: regions.map(regionRef),
    contests: entry.contests.map((c) => contestView(c, showContact)),
    unresolved: entry.unresolved.map(unresolvedView),
    next_cursor: null,
  };
}
