import { InvalidParameterError } from '@civicgraph/kit';
import * as z from 'zod';
import { BALLOT_ENDPOINTS } from '../rest/ballot.js';
import { CANDIDACY_ENDPOINTS } from '../rest/candidacies.js';
import { CONTEST_ENDPOINTS } from '../rest/contests.js';
import { answerView, cypherAsk, MAX_QUERY_LENGTH } from '../rest/cypher/routes.js';
import { ELECTION_DATE_ENDPOINTS } from '../rest/election-dates.js';
import { boundaryTooLarge, GEOGRAPHY_ENDPOINTS, regionBoundary } from '../rest/geography.js';
import { OFFICEHOLDER_ENDPOINTS } from '../rest/officeholders.js';
import { RESULTS_ENDPOINTS } from '../rest/results.js';
import { assertWithinCeiling } from '../http/respond.js';
import type { ParamSpec } from '../rest/schema/params.js';
import { eitherObject, inputShape, outputSchema, resolvedComponent } from './schemas.js';
import { perContact, restParams, restTool, toolParams, type AgentTool } from './tool.js';

/**
 * The agent's tools. Each is a REST endpoint under another name (its parameters, checks,
 * answer function and resource schema), so an agent sees exactly what REST shows the same
 * key: scope applied by the same upstream calls, contact fields only with `contact`.
 */

const SOURCES_NOTE =
  'Candidacies carry `provenance` (every source record behind them) and `confidence` (0 to 1, with `field_confidence` per field): cite the sources, and say how sure the data is.';

/** Default tolerance of region_boundary: an outline a model can hold, not a survey-grade one. */
const AGENT_SIMPLIFY_METERS = 500;

const { byPoint: DISTRICTS_BY_POINT, byAddress: DISTRICTS_BY_ADDRESS, boundary: BOUNDARY } = GEOGRAPHY_ENDPOINTS;

const POINT_OR_ADDRESS: ParamSpec[] = [
  ...toolParams(DISTRICTS_BY_POINT, ['min_confidence', 'date']).map((p) => ({
    ...p,
    required: false,
    description: `${p.description} Give lat and lng together, or give \`address\` instead.`,
  })),
  { ...toolParams(DISTRICTS_BY_ADDRESS)[0]!, required: false },
  ...toolParams(DISTRICTS_BY_POINT).filter((p) => p.name === 'date'),
];

const findDistricts: AgentTool = {
  name: 'find_districts',
  title: 'Districts at a point or address',
  description:
    "Every district (state, county, congressional, state legislative, city, school and special districts…) containing a location on a date, resolved against real boundary files. Pass `lat` and `lng`, or an `address` (a street address, a 5-digit ZIP, `City, ST`). During redistricting each district says whether it is `serving` (its winners hold office now) or `electing` (elections on the date use it). A coarse address (a ZIP, a city) answers `ambiguous: true` with each district's `share` of the area. Use the region slugs with officeholders or region_boundary.",
  needs: 'geography',
  input: inputShape(POINT_OR_ADDRESS),
  output: perContact(() =>
    outputSchema(
      eitherObject(
        resolvedComponent(DISTRICTS_BY_POINT.response, false),
        resolvedComponent(DISTRICTS_BY_ADDRESS.response, false),
        'The districts at a point (`point`) or an address (`address`, `geocode`, `ambiguous`).',
      ),
    ),
  ),
  async run(args, call) {
    const point = args['lat'] !== undefined || args['lng'] !== undefined;
    if (point === (args['address'] !== undefined))
      throw new InvalidParameterError(
        point ? 'address' : 'lat',
        point ? 'Give either lat and lng, or an address, not both.' : 'Give lat and lng, or an address.',
      );
    const endpoint = point ? DISTRICTS_BY_POINT : DISTRICTS_BY_ADDRESS;
    const specs = toolParams(endpoint, ['min_confidence']);
    const view = await endpoint.answer(call.upstreams)(restParams(specs, args), call.principal);
    return call.upstreams.versions.shape(call.version, endpoint.operationId, view) as Record<string, unknown>;
  },
};

const regionBoundaryTool: AgentTool = {
  name: 'region_boundary',
  title: "A region's boundary",
  description: `The outline of a region (e.g. \`region:co-cd-1\`, \`region:co-denver-county\`) in force on a date, as a GeoJSON Feature (WGS84 [lng, lat] positions), simplified to \`simplify\` metres (default ${AGENT_SIMPLIFY_METERS}; 0 is full resolution and can be megabytes). \`properties.vertices\` says how many points the outline holds.`,
  needs: 'geography',
  input: inputShape(boundaryParams()),
  output: perContact(() => outputSchema(resolvedComponent(BOUNDARY.response, false))),
  async run(args, call) {
    const b = await regionBoundary(call.upstreams.geo, restParams(boundaryParams(), args), call.principal);
    // Refused before parsing, as REST refuses it: naming simplify, the argument to raise.
    assertWithinCeiling(call.principal, b.geometryJson, boundaryTooLarge(b.properties));
    return { type: 'Feature', properties: b.properties, geometry: JSON.parse(b.geometryJson) as unknown };
  },
};

function boundaryParams(): ParamSpec[] {
  return toolParams(BOUNDARY, ['min_confidence']).map((p) =>
    p.name === 'simplify'
      ? {
          ...p,
          description: `Simplification tolerance in metres, 0 to 100000; default ${AGENT_SIMPLIFY_METERS}.`,
          schema: { type: 'number', minimum: 0, maximum: 100_000, default: AGENT_SIMPLIFY_METERS },
        }
      : p,
  );
}

const CYPHER_ANSWER = z.object({
  columns: z.array(z.string()).describe("Each RETURN item's alias, else its text."),
  rows: z
    .array(z.array(z.unknown()))
    .describe(
      'One list per row, a value per column; a node is a map of its label and the properties this key may see.',
    ),
  stats: z.object({
    rows_examined: z.number(),
    rows_returned: z.number(),
    elapsed_ms: z.number(),
  }),
});

const cypher: AgentTool = {
  name: 'cypher',
  title: 'Read-only Cypher over the election graph',
  description:
    'Runs a read-only openCypher query over the election graph, for questions the other tools do not answer directly: counts, aggregates, paths (e.g. `MATCH (c:Candidacy)-[:OF_PARTY]->(p:Party) WHERE c.state = $state RETURN p.name, count(*)`). Read the resource `civicgraph://schema/graph` first for the labels, properties and relationship types. Pass values as `parameters` (`$name` in the query), not spliced into the text. Budgeted per plan (rows examined, rows returned, time); scope and contact rules apply as everywhere.',
  input: {
    query: z.string().meta({ maxLength: MAX_QUERY_LENGTH, description: 'The Cypher query (read-only).' }),
    parameters: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'The values of its `$name` parameters, by name.' }),
    min_confidence: z.number().optional().meta({
      minimum: 0,
      maximum: 1,
      description: 'Candidacies below this confidence (0 to 1) do not exist for the query; default 0.',
    }),
  },
  output: () => CYPHER_ANSWER,
  async run(args, call) {
    const answer = await call.upstreams.graph.cypher(call.principal, cypherAsk(args));
    return answerView(answer);
  },
};

/** Every tool, in the order tools/list shows them. */
export const TOOLS: readonly AgentTool[] = [
  findDistricts,
  restTool({
    name: 'get_ballot',
    title: 'The ballot at a point on a date',
    description: `Every contest on the ballot at a location (lat, lng) on an election day, national first, each with its candidacies — the districts elections use that day, during redistricting too. \`unresolved\` lists regions with contests that may or may not cover the point. Use election_dates first when the day is not known. ${SOURCES_NOTE}`,
    endpoint: BALLOT_ENDPOINTS.get,
    needs: 'geography',
  }),
  restTool({
    name: 'search_contests',
    title: 'Contests in a state',
    description:
      'Contests (races) in a state, optionally only of one level (e.g. `congressional-district`, `state`, `county`) and on one election day, soonest first, without their candidacies: call get_contest with a slug for those. Pages of up to `limit`; pass `next_cursor` back as `cursor` for more.',
    endpoint: CONTEST_ENDPOINTS.list,
  }),
  restTool({
    name: 'get_contest',
    title: 'One contest with its candidacies',
    description: `A contest by slug (e.g. \`contest:co-cd-1-us-representative-2026-general\`): its office, region, date and every candidacy, highest confidence first. ${SOURCES_NOTE}`,
    endpoint: CONTEST_ENDPOINTS.get,
  }),
  restTool({
    name: 'get_candidacy',
    title: 'One candidacy',
    description: `A candidacy by slug: the person, party, incumbency, filing status, ballot access, campaign website, positions on issues. ${SOURCES_NOTE}`,
    endpoint: CANDIDACY_ENDPOINTS.get,
  }),
  restTool({
    name: 'officeholders',
    title: 'Who holds an office',
    description:
      'The people holding an office (`office`, e.g. `office:co-governor`) or every office serving a region and the regions within it (`region`, e.g. `region:co`), on a date (default today), each term with its start and end. Give at least one of office or region. Pages of up to `limit`; pass `next_cursor` back as `cursor` for more.',
    endpoint: OFFICEHOLDER_ENDPOINTS.list,
    omit: ['min_confidence'],
  }),
  restTool({
    name: 'results',
    title: 'Certified results of a contest',
    description:
      "Every choice's votes and vote share in one contest (by slug), most votes first, whether the returns are certified, and the provenance of the returns.",
    endpoint: RESULTS_ENDPOINTS.get,
    omit: ['min_confidence'],
  }),
  restTool({
    name: 'election_dates',
    title: 'Election dates in a state',
    description:
      'Election days in a state (national ones included) from `from` (default today) to `to`, soonest first, each with its name and type (general, primary, special…). Use it to find the date for get_ballot or search_contests.',
    endpoint: ELECTION_DATE_ENDPOINTS.list,
    omit: ['min_confidence'],
  }),
  regionBoundaryTool,
  cypher,
];
