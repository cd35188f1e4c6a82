import { Metadata, status } from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { GeoServiceClient, GeoServiceService, type GeoServiceServer } from '@civicgraph/protos/civic/geo/v1/geo';
import { HealthClient, HealthCheckResponse_ServingStatus as Serving } from '@civicgraph/protos/grpc/health/v1/health';
import { Lifecycle } from '../lifecycle.js';
import { createLogger } from '../log.js';
import { InvalidParameterError } from '../errors.js';
import { clientOptions, insecure } from './client.js';
import { startGrpcServer } from './server.js';
import { fromServiceError } from './status.js';
import { unary } from './unary.js';
import { call } from './client.js';
import { scaled } from '../testing/time-scale.js';

const log = createLogger('test', 'silent');
const clients: { close(): void }[] = [];
afterEach(() => clients.splice(0).forEach((c) => c.close()));

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** A geo service whose handler waits for `gate`, to hold a call in flight. */
async function slowServer(gate: Promise<void>, entered: () => void) {
  // Only the RPC this test calls; grpc-js answers UNIMPLEMENTED for the rest.
  const implementation: Pick<GeoServiceServer, 'districtsAtPoint'> = {
    districtsAtPoint: unary(log, 'DistrictsAtPoint', async (req) => {
      if (req.lat === 92) throw new InvalidParameterError('lat', `no viable alternative at 'RETURN \ud800'`);
      if (req.lat > 90) throw new InvalidParameterError('lat', 'lat must be at most 90.');
      entered();
      await gate;
      return { regions: [], datasetVersion: 'v1' };
    }),
  };
  const lifecycle = new Lifecycle(log);
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [{ name: 'civic.geo.v1.GeoService', definition: GeoServiceService, implementation }],
    log,
  });
  lifecycle.defer('grpc', () => server.stop(2_000));
  const geo = new GeoServiceClient(server.address, insecure(), clientOptions(5_000));
  const health = new HealthClient(server.address, insecure(), clientOptions(5_000));
  clients.push(geo, health);
  return { server, lifecycle, geo, health };
}

describe('gRPC server lifecycle', () => {
  it('reports NOT_SERVING until marked serving, then SERVING over grpc.health.v1', async () => {
    const { server, lifecycle, health } = await slowServer(Promise.resolve(), () => {});
    const check = () =>
      call(health.check.bind(health), { service: '' }, new Metadata(), { deadline: Date.now() + scaled(1_000) });
    expect((await check()).status).toBe(Serving.NOT_SERVING);
    server.markServing();
    expect((await check()).status).toBe(Serving.SERVING);
    expect(
      (
        await call(health.check.bind(health), { service: 'civic.geo.v1.GeoService' }, new Metadata(), {
          deadline: Date.now() + scaled(1_000),
        })
      ).status,
    ).toBe(Serving.SERVING);
    await lifecycle.stop('test');
  });

  it('maps a typed handler error to INVALID_ARGUMENT with its field', async () => {
    const { lifecycle, geo } = await slowServer(Promise.resolve(), () => {});
    const err = await call(geo.districtsAtPoint.bind(geo), { lat: 91, lng: 0, date: '' }, new Metadata(), {
      deadline: Date.now() + scaled(1_000),
    }).catch((e: unknown) => e);
    expect((err as { code: number }).code).toBe(status.INVALID_ARGUMENT);
    expect(fromServiceError(err, 'geo').field).toBe('lat');
    await lifecycle.stop('test');
  });

  it('answers an error whose detail holds half a surrogate pair, instead of never answering', async () => {
    const { lifecycle, geo } = await slowServer(Promise.resolve(), () => {});
    const err = await call(geo.districtsAtPoint.bind(geo), { lat: 92, lng: 0, date: '' }, new Metadata(), {
      deadline: Date.now() + scaled(2_000),
    }).catch((e: unknown) => e);
    expect((err as { code: number }).code).toBe(status.INVALID_ARGUMENT);
    expect(fromServiceError(err, 'geo').message).toBe(`no viable alternative at 'RETURN \ufffd'`);
    await lifecycle.stop('test');
  });

  it('on stop goes NOT_SERVING, finishes the in-flight call, then refuses new ones', async () => {
    const gate = deferred();
    const entered = deferred();
    const { server, lifecycle, geo } = await slowServer(gate.promise, entered.resolve);
    server.markServing();
    const inflight = call(geo.districtsAtPoint.bind(geo), { lat: 1, lng: 1, date: '' }, new Metadata(), {
      deadline: Date.now() + scaled(5_000),
    });
    await entered.promise;
    const stopping = lifecycle.stop('SIGTERM');
    expect(server.health.get('')).toBe(Serving.NOT_SERVING);
    gate.resolve();
    await expect(inflight).resolves.toEqual({ regions: [], datasetVersion: 'v1' });
    await stopping;
    const after = await call(geo.districtsAtPoint.bind(geo), { lat: 1, lng: 1, date: '' }, new Metadata(), {
      deadline: Date.now() + 500,
    }).catch((e: unknown) => e);
    expect((after as { code: number }).code).toBeOneOf([status.UNAVAILABLE, status.DEADLINE_EXCEEDED]);
  });
});
