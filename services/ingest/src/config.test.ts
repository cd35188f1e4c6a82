import { describe, expect, it } from 'vitest';
import { ConfigError } from '@civicgraph/kit';
import { readIngestConfig } from './config.js';
import { SOURCES } from './registry.js';

describe('readIngestConfig', () => {
  it('defaults: every source, on schedule, from the public hosts', () => {
    const c = readIngestConfig({});
    expect(c).toMatchObject({ port: 50056, schedule: true, tickMs: 60_000, origin: { kind: 'public' } });
    expect(c.sources).toEqual(SOURCES.map((s) => s.id));
  });

  it('reads a mirror as an HTTP base or a folder', () => {
    expect(readIngestConfig({ CIVIC_SOURCES_MIRROR: 'https://mirror.example.org/data/' }).origin).toEqual({ kind: 'http', base: 'https://mirror.example.org/data/' });
    expect(readIngestConfig({ CIVIC_SOURCES_MIRROR: '/srv/mirror' }).origin).toEqual({ kind: 'folder', path: '/srv/mirror' });
  });

  it('refuses an unknown source, a bad schedule and a tick out of range, naming the variable', () => {
    expect(() => readIngestConfig({ INGEST_SOURCES: 'fec-weball26,fec-weball99' })).toThrow(ConfigError);
    expect(() => readIngestConfig({ INGEST_SOURCES: 'fec-weball99' })).toThrow(/INGEST_SOURCES: unknown source fec-weball99/);
    expect(() => readIngestConfig({ INGEST_SCHEDULE: 'sometimes' })).toThrow(/INGEST_SCHEDULE/);
    expect(() => readIngestConfig({ INGEST_TICK_MS: '5' })).toThrow(/INGEST_TICK_MS/);
  });
});
