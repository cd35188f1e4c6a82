import { describe, expect, it } from 'vitest';
import { readAuthConfig } from '@civicgraph/auth';
import { readGatewayConfig } from '@civicgraph/gateway';
import { readGeoConfig } from '@civicgraph/geo';
import { readGraphConfig } from '@civicgraph/graph';
import { readIngestConfig } from '@civicgraph/ingest';
import { readResultsConfig } from '@civicgraph/results';
import { readWebhooksConfig } from '@civicgraph/webhooks';
import { ConfigError } from '@civicgraph/kit';
import { SERVICE_SETTINGS } from './settings.js';

const UPSTREAMS = {
  GEO_ADDR: 'geo:50051',
  AUTH_ADDR: 'auth:50052',
  GRAPH_ADDR: 'graph:50053',
  RESULTS_ADDR: 'results:50054',
};

const variablesOf = (read: () => unknown) => {
  try {
    read();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems.map((p) => p.variable);
  }
  throw new Error('the reader accepted a bad environment');
};

describe("the services' settings", () => {
  it('start every service that calls no other from an empty environment, on their documented defaults', () => {
    expect(readAuthConfig({})).toMatchObject({ host: '127.0.0.1', port: 50052, pepper: undefined, logLevel: 'info' });
    expect(readGeoConfig({})).toMatchObject({
      port: 50051,
      files: [],
      storePollMs: 1000,
      h3Resolution: 4,
      geocoder: { kind: 'embedded' },
      env: 'test',
    });
    expect(readGraphConfig({})).toMatchObject({
      port: 50053,
      store: { kind: 'embedded' },
      relayPollMs: 200,
      serves: 'test',
    });
    expect(readResultsConfig({ GRAPH_ADDR: 'graph:50053' })).toMatchObject({
      port: 50054,
      graphAddr: 'graph:50053',
      env: 'test',
    });
    expect(readWebhooksConfig({})).toMatchObject({ port: 50055, concurrencyPerEndpoint: 4, timeoutMs: 10_000 });
  });

  it('refuse to start a gateway, results or ingest without their upstream addresses, naming every one missing', () => {
    expect(variablesOf(() => readIngestConfig({}))).toEqual(['GRAPH_ADDR', 'GEO_ADDR']);
    expect(readIngestConfig({ GRAPH_ADDR: 'graph:50053', GEO_ADDR: 'geo:50051' })).toMatchObject({
      port: 50056,
      schedule: true,
      tickMs: 60_000,
      graphAddr: 'graph:50053',
    });
    expect(variablesOf(() => readGatewayConfig({}))).toEqual(['GEO_ADDR', 'AUTH_ADDR', 'GRAPH_ADDR', 'RESULTS_ADDR']);
    expect(variablesOf(() => readGatewayConfig({ ...UPSTREAMS, RESULTS_ADDR: undefined }))).toEqual(['RESULTS_ADDR']);
    expect(variablesOf(() => readResultsConfig({}))).toEqual(['GRAPH_ADDR']);
    expect(readGatewayConfig(UPSTREAMS)).toMatchObject({
      geoAddr: 'geo:50051',
      resultsAddr: 'results:50054',
      port: 8080,
      webhooksAddr: undefined,
    });
  });

  it('refuse a malformed address, integer or word, naming the variable', () => {
    expect(variablesOf(() => readGatewayConfig({ ...UPSTREAMS, GEO_ADDR: 'geo' }))).toEqual(['GEO_ADDR']);
    expect(variablesOf(() => readGeoConfig({ GEO_H3_RESOLUTION: '7' }))).toEqual(['GEO_H3_RESOLUTION']);
    expect(variablesOf(() => readWebhooksConfig({ WEBHOOKS_TIMEOUT_MS: 'soon' }))).toEqual(['WEBHOOKS_TIMEOUT_MS']);
    expect(variablesOf(() => readGraphConfig({ CIVIC_ENV: 'prod' }))).toEqual(['CIVIC_ENV']);
    expect(variablesOf(() => readGeoConfig({ GEO_FILES: 'nowhere=/tmp/x.json' }))).toEqual(['GEO_FILES']);
    expect(
      variablesOf(() => readGatewayConfig({ ...UPSTREAMS, CIVIC_ADMIN_TOKEN: 'short', LOG_LEVEL: 'chatty' })),
    ).toEqual(['CIVIC_ADMIN_TOKEN', 'LOG_LEVEL']);
  });

  it('need ARANGO_URL only when the graph store is ArangoDB', () => {
    expect(variablesOf(() => readGraphConfig({ GRAPH_STORE: 'arangodb' }))).toEqual(['ARANGO_URL']);
    expect(readGraphConfig({ GRAPH_STORE: 'arangodb', ARANGO_URL: 'http://arangodb:8529' }).store).toMatchObject({
      kind: 'arangodb',
      database: 'civicgraph',
      prefix: 'graph_',
    });
  });

  it('describe every variable they read', () => {
    for (const settings of SERVICE_SETTINGS) {
      for (const [variable, , description] of settings.rows())
        expect(description.length, `${settings.service} ${variable}`).toBeGreaterThan(5);
    }
  });
});
