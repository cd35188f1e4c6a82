import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidParameterError, NotFoundError, UpstreamUnavailableError } from '@civicgraph/kit';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { CensusGeocoder } from './census-geocoder.js';
import { EmbeddedGeocoder } from './embedded-geocoder.js';
import { describeGeocoderContract } from './geocoder.contract.js';
import { createGeocoder } from './index.js';
import { LayeredGeocoder } from './layered-geocoder.js';
import { scaled } from '@civicgraph/kit/testing';

// There is no internet here: the adapter runs its real fetch path against a local server
// that replays hand-recorded Census responses (fixtures/), chosen by the address asked for.
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const WHITE_HOUSE = '1600 Pennsylvania Ave NW, Washington, DC 20500';
const NOWHERE = '99999 Nonexistent Fake St, Nowhere, KS 00000';

const replies: Record<string, { status: number; body: string; type?: string }> = {
  [WHITE_HOUSE]: { status: 200, body: fixture('census-match.json') },
  [NOWHERE]: { status: 200, body: fixture('census-no-match.json') },
  'wrong shape': { status: 200, body: fixture('census-malformed.json') },
  truncated: { status: 200, body: fixture('census-match.json').slice(0, 200) },
  'refused by census': { status: 400, body: fixture('census-bad-request.json') },
  overloaded: { status: 503, body: '<html><body>Service Unavailable</body></html>', type: 'text/html' },
};
const HANG = 'never answered';

let server: Server;
let baseUrl: string;
const requests: URL[] = [];

function listen(s: Server): Promise<string> {
  return new Promise((resolve) =>
    s.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)),
  );
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://recorded.test');
    requests.push(url);
    const address = url.searchParams.get('address') ?? '';
    if (address === HANG) return; // hold the request open until the client gives up
    const reply = url.pathname === '/geocoder/locations/onelineaddress' ? replies[address] : undefined;
    if (reply === undefined) return void res.writeHead(404).end();
    res.writeHead(reply.status, { 'content-type': reply.type ?? 'application/json' }).end(reply.body);
  });
  baseUrl = await listen(server);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  requests.length = 0;
});

const census = () => new CensusGeocoder({ baseUrl, timeoutMs: scaled(2_000) });

async function failure(geocoding: Promise<unknown>): Promise<Error> {
  return geocoding.then(
    () => expect.fail('expected the geocoder to fail'),
    (err: Error) => err,
  );
}

describeGeocoderContract('census (recorded)', { geocoder: census, known: WHITE_HOUSE });

describe('CensusGeocoder against recorded responses', () => {
  test('maps a match to a street-precision point, x as longitude and y as latitude', async () => {
    expect(await census().geocode(WHITE_HOUSE)).toEqual({
      point: { lat: 38.897675914415, lng: -77.036548645467 },
      precision: 'street',
      source: 'census',
      matched: '1600 PENNSYLVANIA AVE NW, WASHINGTON, DC, 20500',
    });
  });

  test('asks the one-line address search with the benchmark and JSON format', async () => {
    await census().geocode(`  ${WHITE_HOUSE}  `);
    expect(requests).toHaveLength(1);
    const [url] = requests;
    expect(url!.pathname).toBe('/geocoder/locations/onelineaddress');
    expect(Object.fromEntries(url!.searchParams)).toEqual({
      address: WHITE_HOUSE,
      benchmark: 'Public_AR_Current',
      format: 'json',
    });
  });

  test('answers an address Census cannot match with NotFoundError naming it', async () => {
    const err = await failure(census().geocode(NOWHERE));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toContain('found no street address matching "99999 Nonexistent Fake St');
  });

  test.each([
    ['wrong shape', /cannot read: its first match lacks coordinates/],
    ['truncated', /cannot read: its body is not JSON/],
    ['overloaded', /answered HTTP 503/],
  ])('turns a %s response into UpstreamUnavailableError', async (address, message) => {
    const err = await failure(census().geocode(address));
    expect(err).toBeInstanceOf(UpstreamUnavailableError);
    expect(err.message).toMatch(message);
  });

  test('reports an address Census refuses (HTTP 400) as an invalid address, with its reason', async () => {
    const err = await failure(census().geocode('refused by census'));
    expect(err).toBeInstanceOf(InvalidParameterError);
    expect((err as InvalidParameterError).field).toBe('address');
    expect(err.message).toContain('cannot exceed 100 characters');
  });

  test('gives up after its timeout with UpstreamUnavailableError', async () => {
    const err = await failure(new CensusGeocoder({ baseUrl, timeoutMs: 200 }).geocode(HANG));
    expect(err).toBeInstanceOf(UpstreamUnavailableError);
    expect(err.message).toContain('no answer within 200 ms');
  });

  test('reports a server that is down as UpstreamUnavailableError', async () => {
    const down = createServer();
    const downUrl = await listen(down);
    await new Promise((resolve) => down.close(resolve));
    const err = await failure(new CensusGeocoder({ baseUrl: downUrl }).geocode(WHITE_HOUSE));
    expect(err).toBeInstanceOf(UpstreamUnavailableError);
    expect(err.message).toContain('could not be reached: ECONNREFUSED');
    expect(err.cause).toBeDefined();
  });

  test('refuses blank input without calling Census', async () => {
    await failure(census().geocode('   '));
    expect(requests).toHaveLength(0);
  });

  test('uses an injected fetch function', async () => {
    const seen: string[] = [];
    const counting: typeof fetch = (input, init) => {
      seen.push(String(input));
      return fetch(input, init);
    };
    await new CensusGeocoder({ baseUrl, fetch: counting }).geocode(WHITE_HOUSE);
    expect(seen).toEqual([
      `${baseUrl}/geocoder/locations/onelineaddress?address=1600+Pennsylvania+Ave+NW%2C+Washington%2C+DC+20500&benchmark=Public_AR_Current&format=json`,
    ]);
  });
});

describe('LayeredGeocoder (the census selection)', () => {
  const layered = () => new LayeredGeocoder(new EmbeddedGeocoder(), census());

  test('answers ZIPs, cities and coordinates locally, without calling Census', async () => {
    const results = await Promise.all(['80202', 'Denver, CO', '39.7,-105'].map((a) => layered().geocode(a)));
    expect(results.map((r) => r.precision)).toEqual(['zip', 'city', 'coordinates']);
    expect(requests).toHaveLength(0);
  });

  test('sends street addresses to Census', async () => {
    expect((await layered().geocode(WHITE_HOUSE)).source).toBe('census');
    expect(requests).toHaveLength(1);
  });

  test('is what createGeocoder builds for kind census; kind embedded places street addresses only by their ZIP', async () => {
    expect((await createGeocoder({ kind: 'census', census: { baseUrl } }).geocode(WHITE_HOUSE)).source).toBe('census');
    expect(await createGeocoder({ kind: 'embedded' }).geocode(WHITE_HOUSE)).toMatchObject({ precision: 'zip' });
    const err = await failure(createGeocoder({ kind: 'embedded' }).geocode('1600 Pennsylvania Ave NW'));
    expect(err).toBeInstanceOf(InvalidParameterError);
  });
});
