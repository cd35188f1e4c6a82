import { Level } from '@civicgraph/protos/civic/geo/v1/geo';

/**
 * Region level words, derived from the proto enum so no layer keeps its own list:
 * proto `LEVEL_CONGRESSIONAL_DISTRICT` ⇄ GraphQL `CONGRESSIONAL_DISTRICT` ⇄ REST
 * `congressional-district`.
 */
export const LEVELS: readonly Level[] = Object.values(Level).filter(
  (v): v is Level => typeof v === 'number' && v !== Level.LEVEL_UNSPECIFIED && v !== Level.UNRECOGNIZED,
);

export function graphqlLevel(level: Level): string {
  return (Level[level] ?? 'LEVEL_UNSPECIFIED').slice('LEVEL_'.length);
}

export function restLevel(level: Level): string {
  return graphqlLevel(level).toLowerCase().replaceAll('_', '-');
}

/** The level for a REST word, or undefined when the word names none. */
export function levelFromRest(word: string): Level | undefined {
  return LEVELS.find((l) => restLevel(l) === word);
}
