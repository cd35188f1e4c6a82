import { describe, expect, it } from 'vitest';
import { Level, Region } from '@civicgraph/protos/civic/geo/v1/geo';
import { Contest, UnresolvedRegion } from '@civicgraph/protos/civic/graph/v1/graph';
import type { BallotEntry } from '../../cache/ballot-cache.js';
import { ballotChunks, ballotView } from './ballot.js';

const text = (chunks: Buffer[]) => Buffer.concat(chunks).toString('utf8');

const regions = [
  Region.fromPartial({ slug: 'region:co', name: 'Colorado', level: Level.LEVEL_STATE }),
  Region.fromPartial({ slug: 'region:co-cd-1', name: 'Colorado 1st', level: Level.LEVEL_CONGRESSIONAL_DISTRICT }),
];

const contests = [
  Contest.fromPartial({
    slug: 'contest:co-cd-1-us-representative-2028-general', name: 'U.S. Representative, CO-1', date: '2028-11-07', type: 'general', seats: 1,
    office: { slug: 'office:co-cd-1-us-representative', name: 'U.S. Representative' },
    region: { slug: 'region:co-cd-1', name: 'Colorado 1st', level: 'congressional-district', fips: '0801' },
    candidacies: [{
      slug: 'candidacy:a', name: 'Ann "Q" Example', contest: 'contest:co-cd-1-us-representative-2028-general', confidence: 0.42,
      person: { slug: 'person:ann', name: 'Ann "Q" Example' }, party: { slug: 'party:dem', name: 'Democratic' },
      contactIncluded: true, campaignEmails: ['ann@example.org'], campaignPhones: ['+1 303 555 0100'],
      provenance: [{ slug: 'provenance:x', source: 'Synthetic registry — édition 3', method: 'import' }],
    }],
  }),
];

const unresolved = [
  UnresolvedRegion.fromPartial({
    region: { slug: 'region:co-regional-transportation-district-a', name: 'Regional Transportation District, District A', level: 'special-district' },
    reason: 'no boundary of its level is loaded',
    contests: [Contest.fromPartial({ slug: 'contest:co-regional-transportation-district-a-director-2028-general', name: 'Director', date: '2028-11-07', type: 'general', seats: 1 })],
  }),
];

const entry = (): BallotEntry => ({ contests, unresolved, slugs: [], tag: 'ballot#test' });

describe('ballotChunks', () => {
  for (const showContact of [false, true]) {
    it(`serialises byte for byte what ballotView does (contact ${showContact ? 'shown' : 'withheld'})`, () => {
      const point = { lat: 39.7392, lng: -104.9903 };
      const expected = JSON.stringify(ballotView(point, '2028-11-07', regions, { contests, unresolved }, showContact));
      expect(text(ballotChunks(point, '2028-11-07', regions, entry(), showContact))).toBe(expected);
    });
  }

  it('renders the contests of an entry once and sends the same bytes for every point of its districts', () => {
    const shared = entry();
    const a = ballotChunks({ lat: 39.7, lng: -105 }, '2028-11-07', regions, shared, false);
    const b = ballotChunks({ lat: 39.8, lng: -104.9 }, '2028-11-07', regions, shared, false);
    expect(b[1]).toBe(a[1]);
    expect(b[1]).toBe(shared.restContests);
    const first = JSON.parse(text(a));
    const second = JSON.parse(text(b));
    expect(second.point).toEqual({ lat: 39.8, lng: -104.9 });
    expect(second.contests).toEqual(first.contests);
    expect(second.contests[0].candidacies[0]).not.toHaveProperty('campaign_emails');
  });
});
