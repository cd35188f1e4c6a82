import { InterceptingCall, Metadata, status, type Interceptor } from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { GeoServiceClient, GeoServiceService, type GeoServiceServer } from '@civicgraph/protos/civic/geo/v1/geo';
import { InvalidParameterError, UpstreamUnavailableError } from '../errors.js';
import { createLogger } from '../log.js';
import { call, clientOptions, deadlineAndRetry, insecure } from './client.js';
import { startGrpcServer, type GrpcServer } from './server.js';
import { unary } from './unary.js';

const log = createLogger('test', 'silent');
const running: { stop(): Promise<void> }[] = [];
const clients: GeoServiceClient[] = [];
afterEach(async () => {
  clients.splice(0).forEach((c) => c.close());
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

/** A geo service over real gRPC whose DistrictsAtPoint fails as `failures` say, one per call, then answers. */
async function serverFailing(
  failures: (() => Error)[],
  hold?: Promise<void>,
): Promise<{ client: GeoServiceClient; calls: () => number }> {
  let calls = 0;
  const implementation: Pick<GeoServiceServer, 'districtsAtPoint'> = {
    districtsAtPoint: unary(log, 'DistrictsAtPoint', async () => {
      const fail = failures[calls++];
      if (fail !== undefined) throw fail();
      await hold;
      return { regions: [], datasetVersion: `answered on call ${calls}` };
    }),
  };
  const server: GrpcServer = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [{ name: 'civic.geo.v1.GeoService', definition: GeoServiceService, implementation }],
    log,
  });
  running.push({ stop: () => server.stop(1_000) });
  return { client: track(new GeoServiceClient(server.address, insecure(), clientOptions(30_000))), calls: () => calls };
}

function track(client: GeoServiceClient): GeoServiceClient {
  clients.push(client);
  return client;
}

const unavailable = () => new UpstreamUnavailableError('restarting');
const ask = (client: GeoServiceClient, deadline?: number) =>
  call(
    client.districtsAtPoint.bind(client),
    { lat: 1, lng: 1, date: '' },
    new Metadata(),
    deadline === undefined ? {} : { deadline },
  );

describe('deadlineAndRetry (the client interceptor)', () => {
  it('tries a call that failed UNAVAILABLE again, twice, and returns the answer that came', async () => {
    const { client, calls } = await serverFailing([unavailable, unavailable]);
    await expect(ask(client)).resolves.toMatchObject({ datasetVersion: 'answered on call 3' });
    expect(calls()).toBe(3);
  });

  it('gives up after the second retry with the last failure', async () => {
    const { client, calls } = await serverFailing([unavailable, unavailable, unavailable]);
    await expect(ask(client)).rejects.toMatchObject({ code: status.UNAVAILABLE });
    expect(calls()).toBe(3);
  });

  it('does not retry any other failure', async () => {
    const { client, calls } = await serverFailing([() => new InvalidParameterError('lat', 'bad')]);
    await expect(ask(client)).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
    expect(calls()).toBe(1);
  });

  it('does not retry when the deadline would pass first', async () => {
    const { client, calls } = await serverFailing([unavailable, unavailable]);
    // 40 ms left: the first retry would wait 50.
    const err = await ask(client, Date.now() + 40).catch((e: unknown) => e as { code: status });
    // UNAVAILABLE from the one attempt, or DEADLINE_EXCEEDED if a loaded machine took the 40 ms before it ended.
    expect([status.UNAVAILABLE, status.DEADLINE_EXCEEDED]).toContain((err as { code: status }).code);
    expect(calls()).toBeLessThanOrEqual(1);
  });

  it("gives a call without a deadline the client's", async () => {
    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    const { client: slow } = await serverFailing([], hold);
    const short = track(
      new GeoServiceClient(slow.getChannel().getTarget().replace(/^dns:/, ''), insecure(), clientOptions(100)),
    );
    await expect(ask(short)).rejects.toMatchObject({ code: status.DEADLINE_EXCEEDED });
    release();
  });

  it('tries a peer that is not there three times (the call and its two retries), then answers UNAVAILABLE', async () => {
    // An interceptor after deadlineAndRetry sees every attempt it makes.
    let attempts = 0;
    const counting: Interceptor = (options, nextCall) => (attempts++, new InterceptingCall(nextCall(options)));
    const nobody = track(
      new GeoServiceClient('127.0.0.1:1', insecure(), {
        ...clientOptions(30_000),
        interceptors: [deadlineAndRetry(30_000), counting],
      }),
    );
    await expect(ask(nobody)).rejects.toMatchObject({ code: status.UNAVAILABLE });
    expect(attempts).toBe(3);
  });

  it('ends a call whose client closed while it waited to retry with UNAVAILABLE, not an uncaught throw', async () => {
    let attempts = 0;
    // Closes the client as the first attempt fails, so the retry's timer fires on a closed channel.
    const closing: Interceptor = (options, nextCall) =>
      new InterceptingCall(nextCall(options), {
        start: (metadata, listener, next) =>
          next(metadata, {
            onReceiveStatus: (s, pass) => (++attempts === 1 && nobody.close(), pass(s)),
          }),
      });
    const nobody = track(
      new GeoServiceClient('127.0.0.1:1', insecure(), {
        ...clientOptions(30_000),
        interceptors: [deadlineAndRetry(30_000), closing],
      }),
    );
    await expect(ask(nobody)).rejects.toMatchObject({
      code: status.UNAVAILABLE,
      details: expect.stringMatching(/shut down/),
    });
    expect(attempts).toBe(1);
  });

  it('cancels a call waiting to retry at once, and does not retry it', async () => {
    let attempts = 0;
    let cancel!: () => void;
    const counting: Interceptor = (options, nextCall) =>
      new InterceptingCall(nextCall(options), {
        start: (metadata, listener, next) =>
          next(metadata, { onReceiveStatus: (s, pass) => (attempts++, pass(s), attempts === 1 && cancel()) }),
      });
    const nobody = track(
      new GeoServiceClient('127.0.0.1:1', insecure(), {
        ...clientOptions(120_000),
        interceptors: [deadlineAndRetry(120_000, [60_000]), counting],
      }),
    );
    const answer = new Promise((resolve, reject) => {
      const unaryCall = nobody.districtsAtPoint({ lat: 1, lng: 1, date: '' }, (err, res) =>
        err ? reject(err) : resolve(res),
      );
      cancel = () => unaryCall.cancel();
    });
    // Waiting 60 s for the retry would time the test out; the cancel ends it now.
    await expect(answer).rejects.toMatchObject({ code: status.CANCELLED });
    expect(attempts).toBe(1);
  });
});
