import { describe, expect, it } from 'vitest';
import { ConfigError } from '@civicgraph/kit';
import { readIngestConfig } from './config.js';
import { SOURCES } from './registry.js';

// The services ingest imports through; every reading needs them.
const ADDRS = { GRAPH_ADDR: 'graph:50053', GEO_ADDR: 'geo:50051' };

describe('readIngestConfig', () => {
  it('defaults: every source, on schedule, from the public hosts', () => {
    const c = readIngestConfig(ADDRS);
    expect(c).toMatchObject({ port: 50056, schedule: true, tickMs: 60_000, origin: { kind: 'public' } });
    expect(c.sources).toEqual(SOURCES.map((s) => s.id));
  });

  it('reads a mirror as an HTTP base or a folder', () => {
    expect(readIngestConfig({ ...ADDRS, CIVIC_SOURCES_MIRROR: 'https://mirror.example.org/data/' }).origin).toEqual({
      kind: 'http',
      base: 'https://mirror.example.org/data/',
    });
    expect(readIngestConfig({ ...ADDRS, CIVIC_SOURCES_MIRROR: '/srv/mirror' }).origin).toEqual({
      kind: 'folder',
      path: '/srv/mirror',
    });
  });

  it('refuses an unknown source, a bad schedule and a tick out of range, naming the variable', () => {
    expect(() => readIngestConfig({ ...ADDRS, INGEST_SOURCES: 'fec-weball26,fec-weball99' })).toThrow(ConfigError);
    expect(() => readIngestConfig({ ...ADDRS, INGEST_SOURCES: 'fec-weball99' })).toThrow(
      /INGEST_SOURCES: unknown source fec-weball99/,
    );
    expect(() => readIngestConfig({ ...ADDRS, INGEST_SCHEDULE: 'sometimes' })).toThrow(/INGEST_SCHEDULE/);
    expect(() => readIngestConfig({ ...ADDRS, INGEST_TICK_MS: '5' })).toThrow(/INGEST_TICK_MS/);
  });

  it('refuses to start without the graph and geo services it imports through, naming the variable', () => {
    expect(() => readIngestConfig({ GEO_ADDR: 'geo:50051' })).toThrow(/GRAPH_ADDR: required/);
    expect(() => readIngestConfig({ GRAPH_ADDR: 'graph:50053' })).toThrow(/GEO_ADDR: required/);
    expect(readIngestConfig(ADDRS)).toMatchObject({ graphAddr: 'graph:50053', geoAddr: 'geo:50051' });
  });
});
