#!/usr/bin/env node
// Regenerates services/gateway/src/rest/openapi/examples.ts: one real 200 body per REST
// endpoint, asked of a whole civicgraph started in this process with the synthetic demo
// graph (the same setup as test/integration/rest-graph.int.test.ts), trimmed to two list
// items and two candidacies per contest.
//
//   npm run build && node scripts/openapi-examples.mjs           # write the file
//   npm run build && node scripts/openapi-examples.mjs --check   # exit 1 when it is stale
//   (npm run check:generated, run by npm test; --out <file> checks or writes another file)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Environment, Plan } from '@civicgraph/protos/civic/auth/v1/auth';
import { generateDemo, GraphWriter } from '@civicgraph/graph';
import { createLogger, Lifecycle, SHARED_DATA_DIR } from '@civicgraph/kit';
import { startStack } from '@civicgraph/stack';

const OUT = outPath(process.argv);
const TODAY = '2026-11-22';
const NEXT_GENERAL = '2028-11-07';
const PAST_GENERAL = '2026-11-03';
const DENVER = { lat: 39.7392, lng: -104.9903 };
const REGIONS = [
  {
    slug: 'region:co',
    name: 'Colorado',
    level: 'state',
    state: 'co',
    fips: '08',
    ocdId: 'ocd-division/country:us/state:co',
  },
  {
    slug: 'region:co-denver-county',
    name: 'Denver County',
    level: 'county',
    state: 'co',
    fips: '08031',
    ocdId: 'ocd-division/country:us/state:co/county:denver',
  },
];
const MAX_ITEMS = 2;

/** The file to write or check: `--out <file>`, else the gateway's examples.ts. */
function outPath(argv) {
  const at = argv.indexOf('--out');
  if (at === -1) return fileURLToPath(new URL('../services/gateway/src/rest/openapi/examples.ts', import.meta.url));
  const path = argv[at + 1];
  if (path === undefined || path.startsWith('--'))
    throw new Error('--out needs a file path, e.g. --out /tmp/examples.ts');
  return path;
}

/** The whole stack (services/stack) with the demo graph, over a temporary data folder. */
async function startExamplesStack(lifecycle, log) {
  const dir = mkdtempSync(join(tmpdir(), 'civic-examples-'));
  lifecycle.defer('temp dir', () => rmSync(dir, { recursive: true, force: true }));
  const stack = await startStack({
    dataDir: dir,
    serves: 'test',
    lifecycle,
    log,
    geo: { populationCsv: join(SHARED_DATA_DIR, 'population/derived/county-population-v2023.csv') },
    // A fixed cursor secret, so the example cursors are the same on every run.
    graph: { cursorSecret: 'openapi-examples' },
    prepare: async ({ graph }) => {
      // Written as of TODAY, not the day the script runs: confidences decay with their sources'
      // age, and the file must come out the same on every run for the staleness check.
      const writer = new GraphWriter({
        store: graph.store,
        env: 'test',
        now: () => new Date(`${TODAY}T12:00:00.000Z`),
      });
      for (const batch of generateDemo({ regions: REGIONS, today: TODAY })) await writer.apply(batch);
    },
  });
  const { key } = await stack.auth.keys.create({
    environment: Environment.ENVIRONMENT_TEST,
    plan: Plan.PLAN_BUILD,
    label: 'examples',
    pinnedVersion: '',
  });
  return { url: stack.url, key };
}

/** Two items of every list; two candidacies per contest. */
function trim(body) {
  if (Array.isArray(body)) return body.map(trim);
  if (body === null || typeof body !== 'object') return body;
  return Object.fromEntries(
    Object.entries(body).map(([k, v]) => [
      k,
      ['data', 'contests', 'candidacies'].includes(k) && Array.isArray(v) ? trim(v.slice(0, MAX_ITEMS)) : trim(v),
    ]),
  );
}

/** Pretty JSON with arrays of numbers (coordinates) kept on one line. */
function format(value) {
  return JSON.stringify(value, null, 2).replace(
    /\[\s+(-?[\d.eE+-]+(?:,\s+-?[\d.eE+-]+)*)\s+\]/g,
    (_, items) => `[${items.split(/,\s+/).join(', ')}]`,
  );
}

async function collect(url, key) {
  const get = async (path) => {
    const res = await fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${key}` } });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${await res.text()}`);
    return res.json();
  };
  const q = encodeURIComponent;
  const upcoming = (await get(`/v1/contests?state=co&date=${NEXT_GENERAL}&level=state&limit=1`)).data[0];
  const contest = await get(`/v1/contests/${q(upcoming.slug)}`);
  const candidacy = contest.candidacies[0];
  const past = (await get(`/v1/contests?state=co&date=${PAST_GENERAL}&level=state&limit=1`)).data[0];
  const region = 'region:co-denver-county';
  return {
    districtsByPoint: await get(`/v1/districts_by_point?lat=${DENVER.lat}&lng=${DENVER.lng}&date=${NEXT_GENERAL}`),
    districtsByAddress: await get(`/v1/districts_by_address?address=80202&date=${NEXT_GENERAL}`),
    getRegion: await get(`/v1/regions/${q(region)}`),
    getRegionBoundary: await get(`/v1/regions/${q(region)}/boundary?simplify=2000`),
    getBallot: await get(`/v1/ballot?lat=${DENVER.lat}&lng=${DENVER.lng}&date=${NEXT_GENERAL}`),
    listContests: await get(`/v1/contests?state=co&date=${NEXT_GENERAL}&limit=${MAX_ITEMS}`),
    getContest: contest,
    listCandidacies: await get(`/v1/candidacies?contest=${q(contest.slug)}&limit=${MAX_ITEMS}`),
    getCandidacy: await get(`/v1/candidacies/${q(candidacy.slug)}`),
    listOfficeholders: await get(`/v1/officeholders?region=region:co&date=2027-06-01&limit=${MAX_ITEMS}`),
    getResults: await get(`/v1/results?contest=${q(past.slug)}`),
    listElectionDates: await get(`/v1/election_dates?state=co&from=${TODAY}&limit=${MAX_ITEMS}`),
    listLayers: await get('/v1/meta/layers'),
  };
}

function render(examples) {
  return `// Generated by scripts/openapi-examples.mjs from the demo graph; do not edit by hand.

/** A real 200 body of each endpoint, by operationId (lists trimmed to ${MAX_ITEMS} items). */
export const EXAMPLES: Readonly<Record<string, unknown>> = ${format(trim(examples))};
`;
}

const log = createLogger('openapi-examples', 'silent');
const lifecycle = new Lifecycle(log);
try {
  const { url, key } = await startExamplesStack(lifecycle, log);
  const text = render(await collect(url, key));
  if (process.argv.includes('--check')) {
    const stale = readFileSync(OUT, 'utf8') !== text;
    console.log(stale ? `${OUT} is stale: run node scripts/openapi-examples.mjs` : 'OpenAPI examples are up to date.');
    process.exitCode = stale ? 1 : 0;
  } else {
    writeFileSync(OUT, text);
    console.log(`wrote ${OUT}`);
  }
} finally {
  await lifecycle.stop('examples written');
}
