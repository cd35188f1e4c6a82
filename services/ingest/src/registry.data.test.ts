import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { levelFromRest, SHARED_DATA_DIR } from '@civicgraph/kit';
import { sourceById, SOURCES, stagedName } from './registry.js';

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

  it('gives every file a canonical https URL (or a mirror copy, for a file the public host zips into another) and every mirror path a copy in the shared data folder', () => {
    for (const s of SOURCES) {
      for (const f of s.files) {
        if (f.url === undefined) expect(f.mirror, `${s.id}: ${f.name}`).toBeDefined();
        else expect(f.url, s.id).toMatch(/^https:\/\//);
        if (f.mirror !== undefined)
          expect(existsSync(join(SHARED_DATA_DIR, f.mirror)), `${s.id}: ${f.mirror}`).toBe(true);
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
      expect(
        SOURCES[j]!.files.some((f) => f.name === name),
        `${s.id}: ${places}`,
      ).toBe(true);
    }
  });

  it("stages a mirror's smaller extract under its own name, the public file under the public name", () => {
    const co24 = SOURCES.find((s) => s.id === 'medsl-co24')!.files[0]!;
    expect(stagedName(co24, { kind: 'public' })).toBe('co24.zip');
    expect(stagedName(co24, { kind: 'folder', path: '/m' })).toBe('co24-contest-totals.csv');
    expect(stagedName(co24, { kind: 'http', base: 'http://m' })).toBe('co24-contest-totals.csv');
  });

  it("loads every state's full-resolution TIGER districts: the 45 whose map is also the 119th for good, the five that redrew only for the 118th", () => {
    const zips = (id: string) =>
      sourceById(id)!.files.flatMap((f) =>
        f.url === undefined ? [] : [/tl_2022_(\d\d)_cd118\.zip$/.exec(f.url)![1]!],
      );
    const continuing = zips('tiger2022-cd');
    const redrawn = zips('tiger2022-cd118-redrawn');
    expect(redrawn).toEqual(['01', '13', '22', '36', '37']);
    expect(continuing).toHaveLength(47); // 45 states, DC, Puerto Rico
    expect(continuing).toEqual(expect.arrayContaining(['06', '08', '11', '15', '33', '48', '72']));
    // The mirror (shared/data) keeps 46 of them unzipped, each .shp with its four sidecars.
    const mirrored = [...sourceById('tiger2022-cd')!.files, ...sourceById('tiger2022-cd118-redrawn')!.files].filter(
      (f) => f.mirror !== undefined,
    );
    expect(mirrored).toHaveLength(46 * 5);
    expect(sourceById('tiger2022-cd118-redrawn')!.import).toMatchObject({
      validFrom: '2023-01-03',
      validTo: '2025-01-03',
      electionsFrom: '2022-01-01',
      electionsTo: '2024-01-01',
    });
    expect(sourceById('tiger2022-cd')!.import).not.toHaveProperty('validTo');
  });

  it("stages the public zip under its name and a mirror's unzipped shapefile with its sidecars, in one folder the import reads whole", () => {
    const co = sourceById('tiger2022-cd')!.files.filter((f) => f.name.includes('_08_'));
    expect(co.filter((f) => f.url !== undefined).map((f) => stagedName(f, { kind: 'public' }))).toEqual([
      'tiger2022-cd118/tl_2022_08_cd118.zip',
    ]);
    expect(co.map((f) => stagedName(f, { kind: 'folder', path: '/m' })).sort()).toEqual(
      ['cpg', 'dbf', 'prj', 'shp', 'shx'].map((ext) => `tiger2022-cd118/tl_2022_08_cd118.${ext}`),
    );
  });
});
