import { afterEach, describe, expect, it } from 'vitest';
import {
  GeoServiceClient,
  GeoServiceService,
  type DistrictsAtPointsRequest,
  type DistrictsAtPointsResponse,
  type GeoServiceServer,
} from '@civicgraph/protos/civic/geo/v1/geo';
import { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { InvalidParameterError, UpstreamUnavailableError } from '../errors.js';
import { createLogger } from '../log.js';
import { CLIENT_OPTIONS, insecure } from './channel.js';
import { MuxClient } from './mux-client.js';
import { muxed, OpenStreams } from './mux-server.js';
import { startGrpcServer, type GrpcServer } from './server.js';

const log = createLogger('test', 'silent');
const alice = Principal.fromPartial({ keyId: 'key_alice' });
const bob = Principal.fromPartial({ keyId: 'key_bob' });
type Handler = (req: DistrictsAtPointsRequest, principal: Principal) => Promise<DistrictsAtPointsResponse> | DistrictsAtPointsResponse;

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A geo server whose StreamDistrictsAtPoints runs `handler`; the call's first lat names the case. */
async function serve(handler: Handler, port = 0): Promise<{ server: GrpcServer; streams: OpenStreams }> {
  const streams = new OpenStreams();
  const implementation: Pick<GeoServiceServer, 'streamDistrictsAtPoints'> = {
    streamDistrictsAtPoints: muxed(log, 'StreamDistrictsAtPoints', streams, handler),
  };
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port,
    services: [{ name: 'civic.geo.v1.GeoService', definition: GeoServiceService, implementation }],
    log,
    streams,
  });
  cleanups.push(() => server.stop(500));
  return { server, streams };
}

function connect(address: string, deadlineMs = 2_000) {
  const client = new GeoServiceClient(address, insecure(), CLIENT_OPTIONS);
  const mux = new MuxClient<DistrictsAtPointsRequest, DistrictsAtPointsResponse>(() => client.streamDistrictsAtPoints(), 'geo', deadlineMs);
  cleanups.push(() => {
    mux.close();
    client.close();
  });
  return mux;
}

const ask = (lat: number) => ({ points: [{ lat, lng: 0, date: '' }] });
/** Echoes who asked and the lat asked about in the dataset version. */
const echo = (req: DistrictsAtPointsRequest, p: Principal): DistrictsAtPointsResponse => ({ answers: [], datasetVersion: `${p.keyId}:${req.points[0]?.lat}` });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('multiplexed calls on one gRPC stream', () => {
  it('answers each call with its own response, for its own caller, whatever order they finish in', async () => {
    const { server, streams } = await serve(async (req, p) => {
      await sleep(20 - (req.points[0]!.lat % 20)); // later calls finish first
      return echo(req, p);
    });
    const mux = connect(server.address);
    const calls = Array.from({ length: 200 }, (_, i) => mux.call(i % 2 === 0 ? alice : bob, ask(i)));
    const answers = await Promise.all(calls);
    expect(answers.map((a) => a.datasetVersion)).toEqual(Array.from({ length: 200 }, (_, i) => `${i % 2 === 0 ? 'key_alice' : 'key_bob'}:${i}`));
    expect(streams.size).toBe(1);
    expect(mux.inFlight).toBe(0);
  });

  it('returns a call’s typed error as that error and keeps the stream open for the next call', async () => {
    const { server, streams } = await serve((req, p) => {
      if (req.points[0]!.lat > 90) throw new InvalidParameterError('lat', 'lat must be at most 90.');
      if (req.points[0]!.lat < -90) throw new Error('database on fire at /srv/secret');
      return echo(req, p);
    });
    const mux = connect(server.address);
    await expect(mux.call(alice, ask(91))).rejects.toMatchObject({ type: 'invalid_parameter', field: 'lat', message: 'lat must be at most 90.' });
    await expect(mux.call(alice, ask(-91))).rejects.toMatchObject({ type: 'internal', message: 'internal error' });
    expect(await mux.call(alice, ask(5))).toMatchObject({ datasetVersion: 'key_alice:5' });
    expect(streams.size).toBe(1);
  });

  it('refuses a call without a principal or without a request, naming what is missing', async () => {
    const { server } = await serve(echo);
    const client = new GeoServiceClient(server.address, insecure(), CLIENT_OPTIONS);
    cleanups.push(() => client.close());
    const stream = client.streamDistrictsAtPoints();
    cleanups.push(() => stream.cancel());
    const replies: unknown[] = [];
    stream.on('data', (r) => replies.push(r));
    stream.on('error', () => {});
    stream.write({ id: 1, principal: Buffer.alloc(0), request: ask(1) });
    stream.write({ id: 2, principal: Buffer.from(Principal.encode(alice).finish()), request: undefined });
    stream.write({ id: 3, principal: Buffer.from([0xff, 0xff, 0xff]), request: ask(1) });
    await expect.poll(() => replies.length).toBe(3);
    expect(replies).toContainEqual(expect.objectContaining({ id: 3, error: expect.objectContaining({ type: 'unauthenticated' }) }));
    expect(replies).toContainEqual(expect.objectContaining({ id: 1, error: expect.objectContaining({ type: 'unauthenticated' }) }));
    expect(replies).toContainEqual(expect.objectContaining({ id: 2, error: expect.objectContaining({ type: 'invalid_parameter', field: 'request' }) }));
  });

  it('fails a call the service does not answer within the deadline as upstream_unavailable', async () => {
    const { server } = await serve(() => new Promise<never>(() => {}));
    const mux = connect(server.address, 150);
    const started = Date.now();
    await expect(mux.call(alice, ask(1))).rejects.toBeInstanceOf(UpstreamUnavailableError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(mux.inFlight).toBe(0);
  });

  it('answers the calls in flight when the server stops, then ends the stream so the stop is not held up', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { server, streams } = await serve(async (req, p) => {
      await gate;
      return echo(req, p);
    });
    const mux = connect(server.address);
    const inFlight = mux.call(alice, ask(7));
    await expect.poll(() => streams.size).toBe(1);
    await sleep(20);
    const stopped = server.stop(5_000);
    setTimeout(release, 50);
    const started = Date.now();
    expect(await inFlight).toMatchObject({ datasetVersion: 'key_alice:7' });
    await stopped;
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(streams.size).toBe(0);
  });

  it('resends on a new stream when the service restarts, so a call made while it is down is answered', async () => {
    const first = await serve(echo);
    const mux = connect(first.server.address);
    expect(await mux.call(alice, ask(1))).toMatchObject({ datasetVersion: 'key_alice:1' });
    await first.server.stop(500);
    const during = mux.call(bob, ask(2));
    await sleep(20);
    await serve(echo, first.server.port);
    expect(await during).toMatchObject({ datasetVersion: 'key_bob:2' });
    expect(await mux.call(alice, ask(3))).toMatchObject({ datasetVersion: 'key_alice:3' });
  });

  it('fails as upstream_unavailable when nothing listens, after its retries', async () => {
    const { server } = await serve(echo);
    const address = server.address;
    await server.stop(500);
    const mux = connect(address, 1_000);
    await expect(mux.call(alice, ask(1))).rejects.toMatchObject({ type: 'upstream_unavailable', retryAfter: 1 });
  });

  it('fails what is pending when closed, and refuses new calls', async () => {
    const { server } = await serve(() => new Promise<never>(() => {}));
    const mux = connect(server.address);
    const pending = mux.call(alice, ask(1));
    await sleep(20);
    mux.close();
    await expect(pending).rejects.toBeInstanceOf(UpstreamUnavailableError);
    await expect(mux.call(alice, ask(2))).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });
});
