import type { StateInfo } from '@civicgraph/kit';
import type { PlainDraft } from '../../domain/drafts.js';
import { officeSlug } from '../../model/slugs.js';
import { nationalRegion, stateRegion } from './regions.js';

/**
 * Federal seats, shared by every importer that names one (FEC candidates, congress-
 * legislators, results) so the same seat is the same office node, with the same data,
 * whichever source names it first.
 */
export interface Seat {
  office: PlainDraft<'office'>;
  /** The region the office serves (a full draft; pass it through `reference` when the importer does not own it). */
  region: PlainDraft<'region'>;
  /** Slug keys: `co-cd-1` and `us-representative` make `office:co-cd-1-us-representative`. */
  regionKey: string;
  officeKey: string;
  /** Contest display name, e.g. `U.S. Representative, Colorado District 1`. */
  contestName: string;
}

const keyOf = (regionSlug: string): string => regionSlug.slice('region:'.length);

function seat(region: PlainDraft<'region'>, officeKey: string, name: string, contestName: string, state: string): Seat {
  const regionKey = keyOf(region.slug);
  const office: PlainDraft<'office'> = {
    kind: 'office',
    slug: officeSlug(regionKey, officeKey),
    state,
    tier: 'federal',
    data: { name, level: region.data.level, tier: 'federal', region: region.slug },
  };
  return { office, region, regionKey, officeKey, contestName };
}

/**
 * The House seat of a congressional district region (from `congressionalRegion`): a
 * representative, or for DC and the territories a delegate (Puerto Rico: the resident
 * commissioner). The office key is `us-representative` for all, so one rule names them.
 */
export function houseSeat(state: StateInfo, district: PlainDraft<'region'>): Seat {
  const title =
    state.kind === 'state'
      ? 'U.S. Representative'
      : state.usps === 'pr'
        ? 'Resident Commissioner'
        : 'Delegate to the U.S. House of Representatives';
  const key = keyOf(district.slug).slice(state.usps.length + '-cd-'.length);
  const where = key === 'at-large' || key === 'delegate' ? state.name : `${state.name} District ${key}`;
  return seat(district, 'us-representative', title, `${title}, ${where}`, state.usps);
}

/** A Senate seat by class (1, 2, 3): `office:co-us-senator-class-2`. */
export function senateSeat(state: StateInfo, senateClass: number): Seat {
  return seat(
    stateRegion(state),
    `us-senator-class-${senateClass}`,
    'U.S. Senator',
    `U.S. Senator (Class ${senateClass}), ${state.name}`,
    state.usps,
  );
}

/** `office:us-president`. */
export function presidency(): Seat {
  const title = 'President of the United States';
  return seat(nationalRegion(), 'president', title, title, '');
}

/** `office:us-vice-president`. */
export function vicePresidency(): Seat {
  const title = 'Vice President of the United States';
  return seat(nationalRegion(), 'vice-president', title, title, '');
}

/**
 * The Senate classes each state's two seats belong to (U.S. Const. art. I §3; fixed since
 * admission). Class 1 seats were elected in 2024, class 2 in 2026, class 3 in 2028.
 */
export const SENATE_CLASSES: Readonly<Record<string, readonly [number, number]>> = Object.fromEntries(
  (
    [
      [[1, 2], 'de ma me mi mn ms mt ne nj nm ri tn tx va wv wy'],
      [[1, 3], 'az ca ct fl hi in md mo nd nv ny oh pa ut vt wa wi'],
      [[2, 3], 'ak al ar co ga ia id il ks ky la nc nh ok or sc sd'],
    ] as const
  ).flatMap(([classes, states]) => states.split(' ').map((s) => [s, classes] as const)),
);

/**
 * Senate special elections held with a cycle's general election, by cycle: state → the
 * class of the seat filled. Neither the FEC file nor MEDSL's returns say which seat a
 * special fills, and it need not be the other class (a special can fill the rest of a term
 * whose next regular election is the same day), so the seats are taken from
 * congress-legislators, where the appointee's term ends `end-type: special-election` on
 * that day: 2024 fills Nebraska's class 2 seat (Ricketts, appointed 2023-01-23); 2026 the
 * class 3 seats of Ohio (Husted) and Florida (Moody), which Vance and Rubio left.
 * federal-offices.data.test.ts checks this table against that file.
 */
export const KNOWN_SENATE_SPECIALS: Readonly<Record<number, Readonly<Record<string, number>>>> = {
  2024: { ne: 2 },
  2026: { oh: 3, fl: 3 },
};

/** The Senate class whose regular election falls in a (even) year: 2024 → 1, 2026 → 2, 2028 → 3. */
export function regularSenateClass(year: number): number {
  return (((((year - 2024) / 2) % 3) + 3) % 3) + 1;
}
