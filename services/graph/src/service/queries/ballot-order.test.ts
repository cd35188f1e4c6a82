import { describe, expect, it } from 'vitest';
import type { Tier } from '../../model/kinds.js';
import type { NodeDoc } from '../../model/nodes.js';
import { ballotOrder } from './ballot-order.js';

const contest = (slug: string, tier: Tier, region: string, office: string, type = 'general') =>
  ({ slug, kind: 'contest', tier, data: { region, office, type } }) as unknown as NodeDoc<'contest'>;

describe('ballotOrder', () => {
  it("orders Denver's 2024 ballot as it was printed: federal offices first, then state, county; retentions; questions last", () => {
    const regions = new Map(
      ['region:co', 'region:co-denver-county', 'region:co-cd-1', 'region:co-sldu-31'].map((r, i) => [r, i]),
    );
    const shuffled = [
      contest('contest:co-amendment-79-constitutional-2024-general', 'state', 'region:co', ''),
      contest(
        'contest:co-supreme-court-justice-berkenkotter-2024-retention',
        'judicial',
        'region:co',
        'office:co-supreme-court-justice',
        'retention',
      ),
      contest(
        'contest:co-sldu-31-state-senator-2024-general',
        'state',
        'region:co-sldu-31',
        'office:co-sldu-31-state-senator',
      ),
      contest(
        'contest:co-cd-1-us-representative-2024-general',
        'federal',
        'region:co-cd-1',
        'office:co-cd-1-us-representative',
      ),
      contest('contest:co-regent-at-large-2024-general', 'state', 'region:co', 'office:co-regent'),
      contest('contest:co-us-president-2024-general', 'federal', 'region:co', 'office:us-president'),
      contest('contest:co-denver-county-question-1-2024-general', 'county', 'region:co-denver-county', ''),
    ];
    expect(shuffled.sort(ballotOrder(regions)).map((c) => c.slug)).toEqual([
      'contest:co-us-president-2024-general',
      'contest:co-cd-1-us-representative-2024-general',
      'contest:co-regent-at-large-2024-general',
      'contest:co-sldu-31-state-senator-2024-general',
      'contest:co-supreme-court-justice-berkenkotter-2024-retention',
      'contest:co-amendment-79-constitutional-2024-general',
      'contest:co-denver-county-question-1-2024-general',
    ]);
  });

  it('puts a region the point does not name after those it does, then orders by slug', () => {
    const regions = new Map([['region:co', 0]]);
    const a = contest('contest:a', 'state', 'region:elsewhere', 'office:a');
    const b = contest('contest:b', 'state', 'region:co', 'office:b');
    const c = contest('contest:c', 'state', 'region:elsewhere', 'office:c');
    expect([c, a, b].sort(ballotOrder(regions)).map((x) => x.slug)).toEqual(['contest:b', 'contest:a', 'contest:c']);
  });
});
