import type { LevelWord } from '@civicgraph/kit';

/**
 * How each level is named on the page and drawn on the map (colours pass 4.5:1 on white for
 * labels). Keyed by the vocabulary's own level words, so a level added to civic.geo.v1.Level
 * fails the type check here until the page knows how to show it.
 */
const LEVELS: Record<LevelWord, { label: string; colour: string; rank: number }> = {
  national: { label: 'Nation', colour: '#3f3f46', rank: 0 },
  state: { label: 'State', colour: '#52525b', rank: 1 },
  county: { label: 'County', colour: '#7c2d12', rank: 2 },
  'congressional-district': { label: 'Congressional district', colour: '#1d4ed8', rank: 3 },
  'state-legislative-upper': { label: 'State senate district', colour: '#7e22ce', rank: 4 },
  'state-legislative-lower': { label: 'State house district', colour: '#047857', rank: 5 },
  place: { label: 'City or town', colour: '#b91c1c', rank: 6 },
  'school-district': { label: 'School district', colour: '#a16207', rank: 7 },
  'county-commission-district': { label: 'County commission district', colour: '#be185d', rank: 8 },
  ward: { label: 'Ward', colour: '#0e7490', rank: 9 },
  'judicial-district': { label: 'Judicial district', colour: '#4d7c0f', rank: 10 },
  'special-district': { label: 'Special district', colour: '#9a3412', rank: 11 },
  precinct: { label: 'Precinct', colour: '#334155', rank: 12 },
};

const OTHER = { label: 'District', colour: '#334155', rank: 99 };

export function levelLabel(level: string): string {
  return (LEVELS[level as LevelWord] ?? OTHER).label;
}

export function levelColour(level: string): string {
  return (LEVELS[level as LevelWord] ?? OTHER).colour;
}

/** Broadest first: the order districts are listed and drawn in (narrow ones on top). */
export function byLevel<T extends { level: string }>(a: T, b: T): number {
  return (LEVELS[a.level as LevelWord] ?? OTHER).rank - (LEVELS[b.level as LevelWord] ?? OTHER).rank;
}
