import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeoServiceClient, type ImportBoundariesRequest } from '@civicgraph/protos/civic/geo/v1/geo';
import { GraphServiceClient, type ImportSourceRequest } from '@civicgraph/protos/civic/graph/v1/graph';
import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { connectBoundaryImport, connectGraphImport } from '@civicgraph/ingest';
import {
  call,
  clientOptions,
  fromServiceError,
  IMPORT_MESSAGE_BYTES,
  insecure,
  principalMetadata,
  servicePrincipal,
  toServiceError,
} from '@civicgraph/kit';
import { SHARED_DATA, startStack, type Stack } from '../harness/stack.js';

// The graph's ImportSource and geo's ImportBoundaries over real gRPC, with real shared data:
// how the ingest service imports without opening either service's store.
const RESULTS = 'results/medsl-2024/derived/co24-contest-totals.csv';
const SENATE = 'boundaries/state-legislative/co/co-state-senate-districts-2021.geojson';
const DENVER = { lat: 39.7392, lng: -104.9903 };

let stack: Stack;
let graph: ReturnType<typeof connectGraphImport>;
let geo: ReturnType<typeof connectBoundaryImport>;
let graphClient: GraphServiceClient;
let geoClient: GeoServiceClient;
let keyPrincipal: Principal;

const file = (path: string, name = path.split('/').pop()!) => ({
  path: name,
  content: readFileSync(join(SHARED_DATA, path)),
});
const resultsRequest = (): ImportSourceRequest => ({
  kind: 'results',
  files: [file(RESULTS)],
  sourceDate: '2025-01-15',
  exceptStates: [],
  specialsOnly: false,
});
const HOUSE = 'boundaries/state-legislative/co/co-state-house-districts-2021.geojson';
const houseRequest = (): ImportBoundariesRequest => ({
  ...senateRequest(),
  files: [file(HOUSE)],
  level: 'state-legislative-lower',
});
const senateRequest = (): ImportBoundariesRequest => ({
  files: [file(SENATE)],
  level: 'state-legislative-upper',
  validFrom: '2023-01-09',
  validTo: '',
  electionsFrom: '2021-11-15',
  electionsTo: '',
  state: 'co',
  serveLater: false,
});

beforeAll(async () => {
  stack = await startStack();
  graph = connectGraphImport(stack.graph.address, stack.serves);
  geo = connectBoundaryImport(stack.geo.address, stack.serves);
  const options = { ...clientOptions(60_000), 'grpc.max_send_message_length': IMPORT_MESSAGE_BYTES };
  graphClient = new GraphServiceClient(stack.graph.address, insecure(), options);
  geoClient = new GeoServiceClient(stack.geo.address, insecure(), options);
  keyPrincipal = await stack.auth.keys.authenticate(await stack.key());
}, 60_000);
afterAll(async () => {
  graph?.close();
  geo?.close();
  graphClient?.close();
  geoClient?.close();
  await stack?.stop();
});

/** The gRPC status and civic field of a refused call. */
async function refusal(
  p: Promise<unknown>,
): Promise<{ code: number | undefined; field: string | undefined; message: string }> {
  try {
    await p;
  } catch (err) {
    // The ingest clients hand back the typed error; a raw client, the gRPC one.
    const e = fromServiceError(err, 'test');
    return { code: (err as Partial<ServiceError>).code ?? toServiceError(e).code, field: e.field, message: e.message };
  }
  throw new Error('the call was served');
}

describe("the graph's ImportSource", () => {
  it("imports a real Colorado results file through the graph's writer, every change an event; the same file again creates and updates nothing", async () => {
    const first = await graph.importSource(resultsRequest());
    expect(first.created).toBeGreaterThan(100);
    expect(first.events).toBeGreaterThan(first.created);
    expect(first.rejectedReasons.length).toBeLessThanOrEqual(5);
    expect(first.rejectedReasons.length).toBe(Math.min(first.rejected, 5));
    expect(await stack.graph.store.getNode('contest:co-us-president-2024-general')).toBeDefined();
    const again = await graph.importSource(resultsRequest());
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: first.created + first.updated + first.unchanged });
  }, 120_000);

  it("refuses an API key's principal, and a call with none", async () => {
    const asKey = await refusal(
      call(graphClient.importSource.bind(graphClient), resultsRequest(), principalMetadata(keyPrincipal)),
    );
    expect(asKey).toMatchObject({
      code: status.PERMISSION_DENIED,
      message: expect.stringMatching(/ImportSource is internal/),
    });
    expect(
      (await refusal(call(graphClient.importSource.bind(graphClient), resultsRequest(), new Metadata()))).code,
    ).toBe(status.UNAUTHENTICATED);
  });

  it('refuses bad input naming the field', async () => {
    expect(await refusal(graph.importSource({ ...resultsRequest(), kind: 'boundaries' }))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      field: 'kind',
    });
    expect(await refusal(graph.importSource({ ...resultsRequest(), files: [] }))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      field: 'files',
    });
    const escape = { ...resultsRequest(), files: [{ path: '../co24-contest-totals.csv', content: Buffer.from('x') }] };
    expect(await refusal(graph.importSource(escape))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      field: 'files[0].path',
    });
    const two = { ...resultsRequest(), files: [file(RESULTS), file(RESULTS, 'other.csv')] };
    expect(await refusal(graph.importSource(two))).toMatchObject({ code: status.INVALID_ARGUMENT, field: 'files' });
    const places = { ...resultsRequest(), places: { path: 'us_census_places.csv', content: Buffer.from('id,name\n') } };
    expect(await refusal(graph.importSource(places))).toMatchObject({ code: status.INVALID_ARGUMENT, field: 'places' });
    const notAState = { ...resultsRequest(), exceptStates: ['co', 'zz'] };
    expect(await refusal(graph.importSource(notAState))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      field: 'except_states[1]',
    });
    const notResults = { ...resultsRequest(), kind: 'vip', exceptStates: ['co'] };
    expect(await refusal(graph.importSource(notResults))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      field: 'except_states',
    });
    const specials = { ...resultsRequest(), kind: 'vip', specialsOnly: true };
    expect(await refusal(graph.importSource(specials))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      field: 'specials_only',
    });
  });
});

describe("geo's ImportBoundaries", () => {
  it('imports a real Colorado senate map and serves it as soon as it answers', async () => {
    const summary = await geo.importBoundaries(senateRequest());
    // All 35 districts: District 13's ring crosses itself around a 4 m overshoot, a sliver geo cuts off.
    expect(summary).toMatchObject({
      created: 35,
      updated: 0,
      unchanged: 0,
      rejected: 0,
      features: 35,
      rejectedReasons: [],
    });
    // A caller entitled to geography, asking at once: no reload was asked for.
    const reader = principalMetadata({
      ...keyPrincipal,
      entitlements: { contact: false, geography: true, states: [], tiers: [] },
    });
    const at = await call(geoClient.districtsAtPoint.bind(geoClient), { ...DENVER, date: '2024-11-05' }, reader);
    expect(at.regions.map((r) => r.slug)).toContainEqual(expect.stringMatching(/^region:co-sldu-/));
    expect(await geo.importBoundaries(senateRequest())).toMatchObject({ created: 0, updated: 0, unchanged: 35 });
  }, 120_000);

  it("refuses an API key's principal", async () => {
    const asKey = await refusal(
      call(geoClient.importBoundaries.bind(geoClient), senateRequest(), principalMetadata(keyPrincipal)),
    );
    expect(asKey).toMatchObject({
      code: status.PERMISSION_DENIED,
      message: expect.stringMatching(/ImportBoundaries is internal/),
    });
  });

  it('refuses bad input naming the field', async () => {
    expect(await refusal(geo.importBoundaries({ ...senateRequest(), level: 'galaxy' }))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      field: 'level',
    });
    expect(await refusal(geo.importBoundaries({ ...senateRequest(), files: [] }))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      field: 'files',
    });
    expect(await refusal(geo.importBoundaries({ ...senateRequest(), validFrom: '' }))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      field: 'valid_from',
    });
    expect(await refusal(geo.importBoundaries({ ...senateRequest(), validTo: '2020-01-01' }))).toMatchObject({
      code: status.INVALID_ARGUMENT,
      field: 'valid_to',
    });
    expect(
      await refusal(
        geo.importBoundaries({ ...senateRequest(), files: [{ path: '/etc/passwd', content: Buffer.from('x') }] }),
      ),
    ).toMatchObject({ field: 'files[0].path' });
  });

  it('serves only services: the principal a service calls as is accepted, whatever its name', async () => {
    const asResults = principalMetadata(servicePrincipal('results', stack.serves));
    expect(await call(geoClient.importBoundaries.bind(geoClient), senateRequest(), asResults)).toMatchObject({
      unchanged: 35,
    });
  }, 120_000);

  it('with serve_later answers once the map is stored, and the next import that waits serves it', async () => {
    const reader = principalMetadata({
      ...keyPrincipal,
      entitlements: { contact: false, geography: true, states: [], tiers: [] },
    });
    const houseAtDenver = async () =>
      (await call(geoClient.districtsAtPoint.bind(geoClient), { ...DENVER, date: '2024-11-05' }, reader)).regions
        .map((r) => r.slug)
        .filter((slug) => slug.startsWith('region:co-sldl-'));
    expect(await geo.importBoundaries({ ...houseRequest(), serveLater: true })).toMatchObject({ created: 65 });
    expect(await houseAtDenver()).toEqual([]);
    // The store watch polls every 100 ms here: ten polls later the held map is still not served.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await houseAtDenver()).toEqual([]);
    expect(await geo.importBoundaries(senateRequest())).toMatchObject({ unchanged: 35 });
    expect(await houseAtDenver()).toHaveLength(1);
  }, 120_000);
});
