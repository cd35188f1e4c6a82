import { Level } from '@civicgraph/protos/civic/geo/v1/geo';

/**
 * Region level words, derived from the proto enum (civic.geo.v1.Level) so no layer keeps its
 * own list: proto `LEVEL_CONGRESSIONAL_DISTRICT` ⇄ GraphQL `CONGRESSIONAL_DISTRICT` ⇄ REST
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

/** `A_B_C` → `A-B-C`, as a type. */
type Hyphenated<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}-${Hyphenated<Tail>}` : S;

/** A REST level word (`state`, `congressional-district`, …), derived from the enum as restLevel spells it. */
export type LevelWord = Hyphenated<
  Lowercase<LevelName<Exclude<keyof typeof Level, 'LEVEL_UNSPECIFIED' | 'UNRECOGNIZED'>>>
>;
type LevelName<N> = N extends `LEVEL_${infer Rest}` ? Rest : never;

/** Every REST level word, in proto order. */
export const LEVEL_WORDS: readonly LevelWord[] = LEVELS.map((l) => restLevel(l) as LevelWord);

export const isLevelWord = (s: string): s is LevelWord => (LEVEL_WORDS as readonly string[]).includes(s);
