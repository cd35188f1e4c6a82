import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { levelFromRest, SHARED_DATA_DIR } from '@civicgraph/kit';
import { SOURCES, stagedName } from './registry.js';

describe('the source registry', () => {
  it('names each source once, by a stable kebab-case id, with its publisher, licence and schedule', () => {
    expect(new Set(SOURCES.map((s) => s.id)).size).toBe(SOURCES.length);
    for (const s of SOURCES) {
      expect(s.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(s.publisher, s.id).not.toBe('');
      expect(s.licence, s.id).not.toBe('');
      expect(s.refreshHours, s.id).toBeGreaterThan(0);
      expect(s.files.length + (s.tree === undefined ? 0 : 1), s.id).toBeGreaterThan(0);
    }
  });

  it('gives every file a canonical https URL and a copy in the shared data folder', () => {
    for (const s of SOURCES) {
      for (const f of s.files) {
        expect(f.url, s.id).toMatch(/^https:\/\//);
        expect(existsSync(join(SHARED_DATA_DIR, f.mirror!)), `${s.id}: ${f.mirror}`).toBe(true);
      }
      if (s.tree !== undefined) expect(existsSync(join(SHARED_DATA_DIR, s.tree.mirror)), s.id).toBe(true);
    }
  });

  it('dates every map, at a level the geo service knows', () => {
    for (const s of SOURCES) {
      if (s.import.kind !== 'boundaries') continue;
      expect(levelFromRest(s.import.level), s.id).toBeDefined();
      expect(s.import.validFrom, s.id).toMatch(/^\d{4}-\d\d-\d\d$/);
    }
  });

  it('lists a source another reads before it, so a first load runs in registry order', () => {
    for (const [i, s] of SOURCES.entries()) {
      const places = 'options' in s.import ? s.import.options?.places : undefined;
      if (places === undefined) continue;
      const [id, name] = places.split(':');
      const j = SOURCES.findIndex((o) => o.id === id);
      expect(j, s.id).toBeGreaterThanOrEqual(0);
      expect(j, s.id).toBeLessThan(i);
      expect(SOURCES[j]!.files.some((f) => f.name === name), `${s.id}: ${places}`).toBe(true);
    }
  });

  it('stages a mirror\'s smaller extract under its own name, the public file under the public name', () => {
    const co24 = SOURCES.find((s) => s.id === 'medsl-co24')!.files[0]!;
    expect(stagedName(co24, { kind: 'public' })).toBe('co24.zip');
    expect(stagedName(co24, { kind: 'folder', path: '/m' })).toBe('co24-contest-totals.csv');
    expect(stagedName(co24, { kind: 'http', base: 'http://m' })).toBe('co24-contest-totals.csv');
  });
});
