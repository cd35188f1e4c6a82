import { findState, sharedData } from '@civicgraph/kit';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  houseSeat,
  KNOWN_SENATE_SPECIALS,
  presidency,
  regularSenateClass,
  SENATE_CLASSES,
  senateSeat,
} from './federal-offices.js';
import { congressionalRegion } from './regions.js';

const co = findState('co')!;

describe('federal seats', () => {
  it('a House seat is office:<district key>-us-representative, federal, serving its district', () => {
    const seat = houseSeat(co, congressionalRegion(co, '01')!);
    expect(seat.office).toEqual({
      kind: 'office',
      slug: 'office:co-cd-1-us-representative',
      state: 'co',
      tier: 'federal',
      data: { name: 'U.S. Representative', level: 'congressional-district', tier: 'federal', region: 'region:co-cd-1' },
    });
    expect(seat.contestName).toBe('U.S. Representative, Colorado District 1');
    expect(seat.regionKey).toBe('co-cd-1');
  });

  it('DC elects a delegate and Puerto Rico a resident commissioner', () => {
    const dc = findState('dc')!;
    const pr = findState('pr')!;
    expect(houseSeat(dc, congressionalRegion(dc, '00')!).office).toMatchObject({
      slug: 'office:dc-cd-delegate-us-representative',
      data: { name: 'Delegate to the U.S. House of Representatives' },
    });
    expect(houseSeat(pr, congressionalRegion(pr, '00')!).contestName).toBe('Resident Commissioner, Puerto Rico');
  });

  it('a Senate seat is state level and named by class; the presidency is national', () => {
    expect(senateSeat(co, 2).office).toMatchObject({
      slug: 'office:co-us-senator-class-2',
      state: 'co',
      data: { level: 'state', region: 'region:co' },
    });
    expect(presidency().office).toMatchObject({
      slug: 'office:us-president',
      state: '',
      tier: 'federal',
      data: { level: 'national', region: 'region:us' },
    });
  });

  it('regular Senate classes cycle 1, 2, 3 from 2024', () => {
    expect([2020, 2022, 2024, 2026, 2028, 2030].map(regularSenateClass)).toEqual([2, 3, 1, 2, 3, 1]);
  });
});

describe('SENATE_CLASSES', () => {
  const path = sharedData('officeholders/congress-legislators/legislators-current.yaml');

  it.skipIf(path === undefined)('matches the classes of the senators serving now', () => {
    const records = parse(readFileSync(path!, 'utf8')) as {
      terms: { type: string; state: string; class?: number }[];
    }[];
    const serving = new Map<string, number[]>();
    for (const r of records) {
      const t = r.terms.at(-1)!;
      if (t.type === 'sen')
        serving.set(t.state.toLowerCase(), [...(serving.get(t.state.toLowerCase()) ?? []), t.class!].sort());
    }
    expect(serving.size).toBe(50);
    for (const [state, classes] of serving) expect([state, classes]).toEqual([state, [...SENATE_CLASSES[state]!]]);
  });

  it.skipIf(path === undefined)(
    'KNOWN_SENATE_SPECIALS holds every seat an appointee keeps until a special election from 2024 on, and no other',
    () => {
      const records = parse(readFileSync(path!, 'utf8')) as {
        terms: { type: string; state: string; class?: number; end: string; 'end-type'?: string }[];
      }[];
      const fromFile: Record<number, Record<string, number>> = {};
      for (const r of records)
        for (const t of r.terms) {
          const year = Number(t.end.slice(0, 4));
          if (t.type !== 'sen' || t['end-type'] !== 'special-election' || year < 2024) continue;
          (fromFile[year] ??= {})[t.state.toLowerCase()] = t.class!;
        }
      expect(fromFile).toEqual(KNOWN_SENATE_SPECIALS);
    },
  );
});
