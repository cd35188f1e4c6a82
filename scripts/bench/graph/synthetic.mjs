// A synthetic election graph of a given size over real geography (us-atlas states and
// counties, the 119th Congress districts when ../shared is present): per region a few
// contests on four election days, four candidacies each with every field filled and a
// spread of confidences. Built as store documents directly: the benchmark measures
// queries, not the writer.
import { existsSync } from 'node:fs';
import { loadGeoJsonFile, loadUsAtlas } from '@civicgraph/geo';
import { Level } from '@civicgraph/protos/civic/geo/v1/geo';
import { restLevel, seededRandom } from '@civicgraph/kit';

export const DATES = ['2024-11-05', '2026-06-02', '2026-11-03', '2028-11-07'];
const PER_CONTEST = 4;
const PARTIES = ['party:democratic', 'party:republican', 'party:libertarian', 'party:green'];
const NOW = '2026-11-01T00:00:00.000Z';

export function benchRegions(shared) {
  const regions = loadUsAtlas().map((r) => ({ slug: r.slug, state: r.state, level: restLevel(r.level) }));
  const cd = `${shared}boundaries/congressional/us-cd119-20m.geojson`;
  if (existsSync(cd))
    for (const r of loadGeoJsonFile(cd, Level.LEVEL_CONGRESSIONAL_DISTRICT).regions)
      regions.push({ slug: r.slug, state: r.state, level: 'congressional-district' });
  return regions;
}

/** The documents, and the ballot requests (a county, its state and a district of that state) to time. */
export function syntheticGraph(regions, candidacies, ballots) {
  const rand = seededRandom(42);
  const contestsWanted = Math.ceil(candidacies / PER_CONTEST);
  const perRegionDate = Math.max(1, Math.ceil(contestsWanted / (regions.length * DATES.length)));
  const nodes = [provenance()];
  const contests = [];
  let made = 0;
  outer: for (let k = 0; k < perRegionDate; k++) {
    for (const date of DATES) {
      for (const region of regions) {
        if (made >= contestsWanted) break outer;
        const key = `${region.slug.slice(7)}-seat-${k}-${date.slice(0, 4)}-${date.endsWith('11-03') || date.endsWith('11-05') || date.endsWith('11-07') ? 'general' : 'primary'}`;
        const contest = doc('contest', `contest:${key}`, region.state, 'state', {
          name: `Seat ${k} of ${region.slug}`,
          type: 'general',
          date,
          year: Number(date.slice(0, 4)),
          level: region.level,
          region: region.slug,
          office: `office:${region.slug.slice(7)}-seat-${k}`,
          seats: 1,
          special: false,
        });
        nodes.push(contest);
        contests.push(contest);
        for (let i = 0; i < PER_CONTEST; i++) nodes.push(candidacy(contest, i, rand));
        made++;
      }
    }
  }
  const counties = regions.filter((r) => r.level === 'county');
  const requests = Array.from({ length: ballots }, () => {
    const county = counties[Math.floor(rand() * counties.length)];
    const districts = regions.filter((r) => r.state === county.state && r.level === 'congressional-district');
    const district = districts[Math.floor(rand() * districts.length)];
    const on = [`region:${county.state}`, county.slug, ...(district === undefined ? [] : [district.slug])];
    return { regions: on, date: DATES[Math.floor(rand() * DATES.length)], minConfidence: rand() < 0.5 ? 0 : 0.3 };
  });
  return { nodes, contests: contests.length, requests };
}

function doc(kind, slug, state, tier, data) {
  return { slug, kind, state, tier, data, rev: 1, updatedAt: NOW };
}

function provenance() {
  return doc('provenance', 'provenance:bench-synthetic', '', '', {
    source: 'bench',
    url: 'https://example.org/bench',
    publisher: 'bench',
    licence: 'CC0-1.0',
    retrievedAt: NOW,
    method: 'synthetic',
  });
}

function candidacy(contest, i, rand) {
  const person = `person:${contest.slug.slice(8)}-${i}`;
  const confidence = Math.round(rand() * 1000) / 1000;
  const field = (value) => ({ value, confidence, claims: [{ value, provenance: 'provenance:bench-synthetic' }] });
  return doc('candidacy', `candidacy:${contest.slug.slice(8)}-${i}`, contest.state, contest.tier, {
    fields: {
      name: field(`Candidate ${i}`),
      person: field(person),
      contest: field(contest.slug),
      party: field(PARTIES[i % PARTIES.length]),
      isIncumbent: field(i === 0),
      filingStatus: field('QUALIFIED'),
      ballotAccess: field('ON_BALLOT'),
      campaignWebsite: field(`https://c${i}.example.org`),
      campaignEmails: field([`c${i}@example.org`]),
      campaignPhones: field(['+1-555-0100']),
      campaignTeam: field([{ role: 'manager', name: 'M', email: 'm@example.org', phone: '+1-555-0101' }]),
    },
    confidence,
    positions: [],
  });
}
