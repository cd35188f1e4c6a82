import type { Region } from '@civicgraph/protos/civic/geo/v1/geo';
import type { Contest } from '@civicgraph/protos/civic/graph/v1/graph';
import { restLevel } from '@civicgraph/kit';
import type { BallotEntry } from '../../cache/ballot-cache.js';
import { object, ref, type JsonSchema } from '../schema/json-schema.js';
import { contestView } from './contest.js';

export const schemas: Record<string, JsonSchema> = {
  Ballot: object({
    point: object({ lat: { type: 'number' }, lng: { type: 'number' } }, [], 'The queried coordinate.'),
    date: { type: 'string', format: 'date', description: 'The election day asked about.' },
    regions: {
      type: 'array',
      description: 'The regions containing the point on the date (electing districts during redistricting).',
      items: object({ slug: { type: 'string', pattern: '^region:' }, name: { type: 'string' }, level: { type: 'string' } }),
    },
    contests: { type: 'array', items: ref('Contest'), description: 'The contests on the ballot there, national first.' },
    next_cursor: { type: 'null', description: 'Always null: the ballot is one page.' },
  }, [], 'The full ballot for a point on a date.'),
};

const TAIL = Buffer.from(',"next_cursor":null}');

/**
 * The same object as `ballotView`, serialised as three chunks (the point's own head, the
 * contests' JSON taken from or kept on the ballot entry, a fixed tail) whose concatenation
 * is byte for byte what JSON.stringify(ballotView(…)) gives.
 */
export function ballotChunks(point: { lat: number; lng: number }, date: string, regions: readonly Region[], entry: BallotEntry, showContact: boolean): Buffer[] {
  entry.restContests ??= Buffer.from(JSON.stringify(entry.contests.map((c) => contestView(c, showContact))));
  const head = JSON.stringify({ point: { lat: point.lat, lng: point.lng }, date, regions: regions.map(regionRef) });
  return [Buffer.from(`${head.slice(0, -1)},"contests":`), entry.restContests, TAIL];
}

function regionRef(r: Region) {
  return { slug: r.slug, name: r.name, level: restLevel(r.level) };
}

/** The spec's ballot object: the point, its regions, the contests with their candidacies. */
export function ballotView(point: { lat: number; lng: number }, date: string, regions: readonly Region[], contests: readonly Contest[], showContact: boolean) {
  return {
    point,
    date,
    regions: regions.map(regionRef),
    contests: contests.map((c) => contestView(c, showContact)),
    next_cursor: null,
  };
}
