/** Invented names for synthetic people: clearly fictional, deterministic from a seed. */
const GIVEN = [
  'Avery',
  'Jordan',
  'Morgan',
  'Riley',
  'Casey',
  'Quinn',
  'Rowan',
  'Sage',
  'Emerson',
  'Finley',
  'Harper',
  'Hayden',
  'Jules',
  'Kendall',
  'Logan',
  'Marlowe',
  'Noel',
  'Parker',
  'Reese',
  'Skyler',
  'Tatum',
  'Wren',
  'Ellis',
  'Dana',
];
const FAMILY = [
  'Ashdown',
  'Birchfield',
  'Calloway',
  'Dunmore',
  'Everly',
  'Fairbanks',
  'Greyson',
  'Hollins',
  'Ingram',
  'Juniper',
  'Kestrel',
  'Larkspur',
  'Merriweather',
  'Northcott',
  'Oakhurst',
  'Pennington',
  'Quarry',
  'Redfern',
  'Stillwater',
  'Thornbury',
  'Underhill',
  'Vale',
  'Westbrook',
  'Yarrow',
];

export function personName(rand: () => number): { given: string; family: string } {
  return { given: pick(GIVEN, rand), family: pick(FAMILY, rand) };
}

export function pick<T>(items: readonly T[], rand: () => number): T {
  return items[Math.floor(rand() * items.length)]!;
}
