import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DistrictIndex, loadBoundaries, LmdbBoundaryStore, onDate } from '@civicgraph/geo';
import { graphImporter, runImport, type DraftItem, type GraphImportKind } from '@civicgraph/graph';
import { Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { get, SHARED_DATA, startStack, type Stack } from '../harness/stack.js';
import { preparedMaps } from '../harness/prepared-maps.js';
import { MAP_SOURCES } from '../harness/sources.js';
import { scaled } from '@civicgraph/kit/testing';
import {
  okContent,
  refName,
  schemaChecker,
  type SchemaCheck,
} from '../../services/gateway/src/rest/openapi/validate-schemas.js';

// Golden ballots: the certified returns are the ground truth of who and what was on each
// 2024 ballot. The service, fed the contest totals, must give each point exactly the
// contests of the precinct it lies in, with exactly their candidates and choices.
const RESULTS = join(SHARED_DATA, 'results/medsl-2024');
const CO_TOTALS = join(RESULTS, 'derived/co24-contest-totals.csv');
const DENVER_PRECINCTS = join(RESULTS, 'derived/co24-denver-precinct.csv');
const DE_TOTALS = join(RESULTS, 'derived/de24-contest-totals.csv');
const DE_PRECINCTS = join(RESULTS, 'individual_states/de24.zip');
const PRESIDENT_BY_STATE = join(RESULTS, '2024-president-state.csv');
const SENATE_BY_STATE = join(RESULTS, '2024-senate-state.csv');
const SENATE_BY_COUNTY = join(RESULTS, '2024-senate-county.csv');
/** The states whose own certified returns are loaded above (the ingest registry's OWN_RETURNS). */
const OWN_RETURNS = ['co', 'de'];
const WEBALL26 = join(SHARED_DATA, 'candidates/fec/weball26.txt');
const LEGISLATORS = join(SHARED_DATA, 'officeholders/congress-legislators/legislators-current.yaml');
const DAY = '2024-11-05';

let stack: Stack;
let key: string;
let scratch: string;
/** Every ballot answered is checked against the OpenAPI document's schema for /v1/ballot. */
let check: SchemaCheck;
let ballotSchema: string;

async function load(kind: GraphImportKind, path: string, options = {}) {
  const tally = await runImport(await graphImporter(kind, path, stack.graph.store, options), stack.graph.writer);
  expect(tally.rejected, `${kind} ${path}`).toEqual([]);
}

interface Ballot {
  contests: {
    slug: string;
    office_slug: string | null;
    candidacies: { slug: string; ballot_access: string | null }[];
    choices: { result: string }[];
  }[];
  unresolved: { region: { slug: string; level: string }; contests: { slug: string }[] }[];
}

async function ballotAt(p: { lat: number; lng: number }, date = DAY): Promise<Ballot> {
  const res = await get(`${stack.url}/v1/ballot?lat=${p.lat}&lng=${p.lng}&date=${date}`, key);
  expect(res.status).toBe(200);
  // Real ballots hold what demo data lacks (ballot measures, which fill no office): the
  // answer must still be what the API documents.
  expect(check(ballotSchema, res.body), `ballot at ${p.lat},${p.lng} on ${date}`).toEqual([]);
  return res.body as Ballot;
}

/** What a certified returns file says was on a ballot, by the importer's own identity rules: contest → its candidacies and choices. */
async function onBallot(path: string, options: { specialsOnly?: boolean } = {}): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  // The per-precinct extracts are cut from MEDSL's co24 at commit 7ec08db (2026-04-17).
  for await (const item of (await graphImporter('results', path, stack.graph.store, {
    retrievedAt: '2026-04-17',
    ...options,
  })) as AsyncIterable<DraftItem>) {
    if (!('batch' in item)) continue;
    const contest = item.batch.nodes.find((n) => n.kind === 'contest')!;
    const entries = item.batch.nodes.flatMap((n) => {
      if (n.kind === 'candidacy') return [n.slug];
      if (n.kind === 'result' && n.data.candidacy === '' && /(^|\W)(YES|NO)$/i.test(n.data.choice.trim()))
        return [n.slug];
      return [];
    });
    out.set(contest.slug, new Set(entries));
  }
  return out;
}

/** The ballot's contests as the same map: contest → its candidacies and choices. */
function listed(b: Ballot): Map<string, Set<string>> {
  return new Map(
    b.contests.map((c) => [c.slug, new Set([...c.candidacies.map((x) => x.slug), ...c.choices.map((x) => x.result)])]),
  );
}

beforeAll(async () => {
  stack = await startStack({ seed: await preparedMaps(MAP_SOURCES) });
  key = await stack.key({ plan: Plan.PLAN_ENTERPRISE, rateLimitPerMinute: 100_000 });
  const doc = (await get(`${stack.url}/v1/openapi.json`)).body;
  check = schemaChecker(doc.components.schemas);
  ballotSchema = refName(okContent(doc, '/v1/ballot').schema);
  scratch = mkdtempSync(join(tmpdir(), 'civic-golden-'));
  await load('results', CO_TOTALS);
  await load('precinct-districts', DENVER_PRECINCTS);
  await load('results', DE_TOTALS);
  await load('precinct-districts', DE_PRECINCTS);
  // As the registry loads them: every other state's president and senate contests, from the national files.
  await load('results', PRESIDENT_BY_STATE, { exceptStates: OWN_RETURNS });
  await load('results', SENATE_BY_STATE, { exceptStates: OWN_RETURNS });
  await load('results', SENATE_BY_COUNTY, { exceptStates: OWN_RETURNS, specialsOnly: true });
}, scaled(300_000));
afterAll(async () => {
  // Safe after a setup that never finished (timed out, or threw): only what it made is undone.
  await stack?.stop();
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

describe("Denver's 301 precincts, 2024-11-05", () => {
  // Colorado precinct codes: [CD:1][State Senate:2][State House:2][county precinct:5].
  const rows = readFileSync(DENVER_PRECINCTS, 'utf8').split('\n');
  const header = rows[0]!;
  const byPrecinct = new Map<string, string[]>();
  for (const line of rows.slice(1))
    if (line !== '')
      byPrecinct.set(line.slice(0, line.indexOf(',')), [
        ...(byPrecinct.get(line.slice(0, line.indexOf(','))) ?? []),
        line,
      ]);
  const combo = (code: string) => ({
    cd: `region:co-cd-${Number(code.slice(0, 1))}`,
    sd: `region:co-sldu-${Number(code.slice(1, 3))}`,
    hd: `region:co-sldl-${Number(code.slice(3, 5))}`,
  });

  /**
   * A point in Denver County whose lookup gives each (CD, SD, HD) combination, found on a
   * 100 m grid over the maps the service serves, as they elect on the day.
   */
  function pointsByCombination(): Map<string, { lat: number; lng: number }> {
    const store = LmdbBoundaryStore.open(join(stack.dataDir, 'geo'));
    const served = loadBoundaries({ files: [], populationCsv: undefined }, store.layers()).regions;
    void store.close();
    const regions = onDate(
      served.filter((r) => r.state === 'co'),
      DAY,
    )
      .filter((d) => d.roles.includes('electing'))
      .map((d) => d.region);
    const index = DistrictIndex.build(regions);
    const found = new Map<string, { lat: number; lng: number }>();
    for (let lat = 39.61; lat <= 39.92; lat += 0.001) {
      for (let lng = -105.11; lng <= -104.6; lng += 0.001) {
        const slugs = index.lookup(lat, lng).map((r) => r.slug);
        if (!slugs.includes('region:co-denver-county')) continue;
        const cd = slugs.find((s) => s.startsWith('region:co-cd-'));
        const sd = slugs.find((s) => s.startsWith('region:co-sldu-'));
        const hd = slugs.find((s) => s.startsWith('region:co-sldl-'));
        const k = `${cd}|${sd}|${hd}`;
        if (!found.has(k)) found.set(k, { lat: Number(lat.toFixed(4)), lng: Number(lng.toFixed(4)) });
      }
    }
    return found;
  }

  it(
    "each precinct's ballot lists exactly its contests, candidacies and choices; its transit director district is listed as unresolved",
    async () => {
      const points = pointsByCombination();
      const misses: string[] = [];
      let agreeing = 0;
      for (const [precinct, lines] of byPrecinct) {
        const c = combo(precinct);
        const point = points.get(`${c.cd}|${c.sd}|${c.hd}`);
        if (point === undefined) {
          misses.push(`${precinct}: no point of Denver lies in ${c.cd}, ${c.sd}, ${c.hd}`);
          continue;
        }
        const file = join(scratch, `co24-precinct-${precinct}.csv`);
        writeFileSync(file, [header, ...lines, ''].join('\n'));
        const expected = await onBallot(file);
        const ballot = await ballotAt(point);
        const unresolved = new Map(
          ballot.unresolved.flatMap((u) => u.contests.map((x) => [x.slug, u.region.level] as const)),
        );
        const got = listed(ballot);
        const problems: string[] = [];
        for (const [contest, entries] of expected) {
          if (unresolved.has(contest)) {
            if (unresolved.get(contest) !== 'special-district') problems.push(`${contest} unresolved`);
            continue;
          }
          const have = got.get(contest);
          if (have === undefined) problems.push(`${contest} missing`);
          else if ([...entries].sort().join() !== [...have].sort().join())
            problems.push(`${contest}: expected ${[...entries].sort().join(' ')}, got ${[...have].sort().join(' ')}`);
        }
        for (const contest of got.keys())
          if (!expected.has(contest)) problems.push(`${contest} is not on this precinct's ballot`);
        const rtd = [...expected.keys()].filter((s) => s.includes('regional-transportation-district'));
        if (rtd.some((s) => !unresolved.has(s)))
          problems.push(`transit director contest ${rtd.join()} not listed as unresolved`);
        if (problems.length === 0) agreeing += 1;
        else misses.push(`${precinct}: ${problems.join('; ')}`);
      }
      console.info(`golden Denver ballots: ${agreeing} of ${byPrecinct.size} precincts agree exactly`);
      expect(misses).toEqual([]);
      expect(agreeing).toBe(301);
    },
    scaled(600_000),
  );
});

describe('Greeley, 2024-11-05: Senate District 13, whose published ring crosses itself', () => {
  // Colorado's Senate District 13 outline overshoots by 4 m and comes back; geo cuts that
  // sliver off instead of refusing the district, so its voters keep their senate contest.
  const GREELEY = { lat: 40.4233, lng: -104.7091 }; // Weld County courthouse

  it('lists the Senate District 13 contest with its certified candidates, and no senate district as unresolved', async () => {
    const totals = await onBallot(CO_TOTALS);
    const contest = 'contest:co-sldu-13-state-senator-2024-general';
    const ballot = await ballotAt(GREELEY);
    const got = listed(ballot);
    expect([...(got.get(contest) ?? [])].sort()).toEqual([...totals.get(contest)!].sort());
    expect(got.has('contest:co-cd-8-us-representative-2024-general')).toBe(true);
    expect(ballot.unresolved.filter((u) => u.region.level === 'state-legislative-upper')).toEqual([]);
    // National first, as printed: the President and the U.S. House seat lead, the questions close.
    expect(ballot.contests.slice(0, 2).map((c) => c.slug)).toEqual([
      'contest:co-us-president-2024-general',
      'contest:co-cd-8-us-representative-2024-general',
    ]);
    const firstQuestion = ballot.contests.findIndex((c) => c.office_slug === null);
    expect(firstQuestion).toBeGreaterThan(2);
    expect(ballot.contests.slice(firstQuestion).every((c) => c.office_slug === null)).toBe(true);
  });
});

describe('2024-11-05 elsewhere: President and Senate from the national certified files', () => {
  const PLACES = [
    { state: 'az', point: { lat: 33.4484, lng: -112.074 } }, // Phoenix
    { state: 'ny', point: { lat: 40.7128, lng: -74.006 } }, // New York
    { state: 'ne', point: { lat: 41.2565, lng: -95.9345 } }, // Omaha
  ];

  it('lists the presidential and senate contests with exactly their certified candidates and choices', async () => {
    const president = await onBallot(PRESIDENT_BY_STATE);
    const senate = await onBallot(SENATE_BY_STATE);
    for (const { state, point } of PLACES) {
      const got = listed(await ballotAt(point));
      for (const contest of [
        `contest:${state}-us-president-2024-general`,
        `contest:${state}-us-senator-class-1-2024-general`,
      ]) {
        const expected = president.get(contest) ?? senate.get(contest);
        expect(expected, contest).toBeDefined();
        expect([...(got.get(contest) ?? [])].sort(), contest).toEqual([...expected!].sort());
      }
    }
  });

  it("Omaha's ballot holds both of Nebraska's Senate contests, the special from the county returns, each once", async () => {
    const specials = await onBallot(SENATE_BY_COUNTY, { specialsOnly: true });
    const special = 'contest:ne-us-senator-class-2-2024-special';
    const ballot = await ballotAt(PLACES[2]!.point);
    const senate = ballot.contests.filter((c) => c.office_slug?.startsWith('office:ne-us-senator-') === true);
    expect(senate.map((c) => c.slug).sort()).toEqual(['contest:ne-us-senator-class-1-2024-general', special]);
    expect([...listed(ballot).get(special)!].sort()).toEqual([...specials.get(special)!].sort());
    expect(specials.get(special)!.size).toBe(2);
  });
});

describe('Delaware 2024-11-05: statewide and county contests', () => {
  const COUNTIES = {
    'region:de-kent-county': { lat: 39.1573, lng: -75.5197 }, // Legislative Hall, Dover
    'region:de-new-castle-county': { lat: 39.6837, lng: -75.7497 }, // Newark
    'region:de-sussex-county': { lat: 38.6901, lng: -75.3855 }, // Georgetown
  };

  it("each county's ballot lists exactly the statewide, at-large and county contests, with their certified candidates", async () => {
    const totals = await onBallot(DE_TOTALS);
    const regionOf = (contest: string) => contest.slice('contest:'.length);
    for (const [county, point] of Object.entries(COUNTIES)) {
      const countyKey = county.slice('region:'.length);
      const expected = new Map(
        [...totals].filter(([contest]) => {
          const k = regionOf(contest);
          if (k.startsWith(`${countyKey}-council-district-`)) return false;
          return (
            k.startsWith('de-us-') ||
            k.startsWith('de-cd-at-large-') ||
            k.startsWith(`${countyKey}-`) ||
            /^de-(governor|lieutenant-governor|insurance-commissioner)-/.test(k)
          );
        }),
      );
      const ballot = await ballotAt(point);
      const got = listed(ballot);
      expect([...got.keys()].sort(), county).toEqual([...expected.keys()].sort());
      for (const [contest, entries] of expected)
        expect([...got.get(contest)!].sort(), contest).toEqual([...entries].sort());
      // The legislature and council districts have no boundary here: listed, not guessed.
      const levels = new Set(ballot.unresolved.map((u) => u.region.level));
      expect(levels.has('state-legislative-lower') && levels.has('state-legislative-upper'), county).toBe(true);
      const wilmington = ballot.unresolved.some((u) => u.region.slug.includes('wilmington'));
      expect(wilmington, county).toBe(county === 'region:de-new-castle-county');
    }
  });
});

describe('Denver, 2026-11-03: registrations are not ballot access', () => {
  beforeAll(async () => {
    await runImport(
      await graphImporter('fec-candidates', WEBALL26, stack.graph.store, { legislators: LEGISLATORS }),
      stack.graph.writer,
    );
  }, scaled(120_000));

  it('lists the seats up, and no candidacy whose ballot access is not established', async () => {
    const ballot = await ballotAt({ lat: 39.7392, lng: -104.9903 }, '2026-11-03');
    const slugs = ballot.contests.map((c) => c.slug);
    expect(slugs).toEqual(
      expect.arrayContaining([
        'contest:co-us-senator-class-2-2026-general',
        'contest:co-cd-1-us-representative-2026-general',
      ]),
    );
    expect(slugs.some((s) => s.includes('class-3'))).toBe(false);
    for (const c of ballot.contests)
      expect(
        c.candidacies.filter((x) => x.ballot_access !== 'ON_BALLOT' && x.ballot_access !== 'WRITE_IN'),
        c.slug,
      ).toEqual([]);
    expect(ballot.contests.flatMap((c) => c.candidacies)).toEqual([]);
    // The registrants are still there, with their true status.
    const declared = await get(`${stack.url}/v1/candidacies?contest=contest:co-us-senator-class-2-2026-primary`, key);
    expect(declared.body.data.length).toBeGreaterThan(5);
    expect(
      declared.body.data.every(
        (x: { filing_status: string; ballot_access: string | null }) =>
          x.filing_status === 'DECLARED' && x.ballot_access === null,
      ),
    ).toBe(true);
  });
});
