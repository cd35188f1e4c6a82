import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Level } from './domain/region.js';
import type { BoundaryFile } from './config.js';

/**
 * The maps `civicgraph up` serves from the shared data folder, each dated as it really is
 * in force: elections use a map from its adoption (or the first cycle after it), and the
 * people elected under it serve from the day their terms begin. us-atlas's states and
 * counties are always loaded and undated: they hold until a dated map of a level and state
 * supersedes them. An import of the same level, state and `valid_from` takes a default's
 * place; an import dated later supersedes it from then.
 */
export const DEFAULT_MAPS: readonly (Omit<BoundaryFile, 'path'> & { file: string })[] = [
  {
    // 119th Congress (Census cb_2024_us_cd119_20m): the 2024 cycle elects under it (AL,
    // GA, LA, NY and NC redrew for it; their 2024 primaries already used it); members serve
    // from 2025-01-03.
    file: 'boundaries/congressional/us-cd119-20m.geojson',
    level: Level.LEVEL_CONGRESSIONAL_DISTRICT,
    validity: { from: '2025-01-03', electionsFrom: '2024-01-01' },
  },
  {
    // Colorado's 2021 legislative maps: approved by the Colorado Supreme Court on
    // 2021-11-15, used from the 2022 elections; the 74th General Assembly, the first
    // elected under them, convened 2023-01-09.
    file: 'boundaries/state-legislative/co/co-state-senate-districts-2021.geojson',
    level: Level.LEVEL_STATE_LEGISLATIVE_UPPER,
    state: 'co',
    validity: { from: '2023-01-09', electionsFrom: '2021-11-15' },
  },
  {
    file: 'boundaries/state-legislative/co/co-state-house-districts-2021.geojson',
    level: Level.LEVEL_STATE_LEGISLATIVE_LOWER,
    state: 'co',
    validity: { from: '2023-01-09', electionsFrom: '2021-11-15' },
  },
];

/** The default maps found under `sharedData` (none when it is undefined). */
export function defaultMaps(sharedData: string | undefined): BoundaryFile[] {
  if (sharedData === undefined) return [];
  return DEFAULT_MAPS.map(({ file, ...rest }) => ({ ...rest, path: join(sharedData, file) })).filter((f) => existsSync(f.path));
}
