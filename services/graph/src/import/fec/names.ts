/** A person's name as the graph keeps it. */
export interface PersonName {
  /** `Diana L. DeGette`-style display form: given names, family name, suffix. */
  display: string;
  given: string | null;
  family: string | null;
}

/** Courtesy and rank titles, post-nominals, and other words the FEC lets into names. */
const DROPPED = new Set([
  'MR',
  'MRS',
  'MS',
  'MISS',
  'DR',
  'HON',
  'SEN',
  'REP',
  'REV',
  'PROF',
  'CAPT',
  'COL',
  'GEN',
  'MAJ',
  'SGT',
  'LTC',
  'RET',
  'JUDGE',
  'GOV',
  'ESQ',
  'PHD',
  'MD',
  'DDS',
  'USN',
  'USA',
  'USMC',
  'COMMANDER',
  'COLONEL',
]);
const SUFFIXES: Readonly<Record<string, string>> = { JR: 'Jr.', SR: 'Sr.', II: 'II', III: 'III', IV: 'IV' };

/**
 * Reads an FEC `CAND_NAME` — `FAMILY, GIVEN MIDDLE SUFFIX`, uppercase, with titles,
 * nicknames in quotes or parentheses, stray numbers, and tickets (`MCMULLIN, EVAN / MINDY
 * FINN`, `KENNEDY, ROBERT, F. JR., SHANAHAN, NICOLE`) — into a display name in title case. Casing is best effort (`MCBRIDE` → `McBride`,
 * `O'DEA` → `O'Dea`, but `DEGETTE` → `Degette`); the slug built from it does not depend on case.
 */
export function fecName(raw: string): PersonName {
  const comma = raw.indexOf(',');
  const familyPart = comma < 0 ? raw : raw.slice(0, comma);
  const restPart = comma < 0 ? '' : firstOfTicket(raw.slice(comma + 1).split('/')[0]!);
  const nickname = /"([^"]+)"|\(\s*([^)]+?)\s*\)/.exec(restPart);
  const given: string[] = [];
  let suffix: string | undefined;
  for (const token of stripAsides(restPart)
    .split(/[\s,]+/)
    .filter((t) => t !== '')) {
    const bare = token.replace(/[.,]/g, '').toUpperCase();
    if (SUFFIXES[bare] !== undefined) suffix = SUFFIXES[bare];
    else if (!DROPPED.has(bare) && !/\d|#/.test(bare) && bare !== '') given.push(titleCase(token));
  }
  if (given.length === 0 && nickname !== null) given.push(titleCase((nickname[1] ?? nickname[2] ?? '').trim()));
  const family = titleCase(stripAsides(familyPart).trim().replace(/\s+/g, ' '));
  const display = [...given, family, ...(suffix === undefined ? [] : [suffix])].filter((p) => p !== '').join(' ');
  return { display, given: given.length > 0 ? given.join(' ') : null, family: family === '' ? null : family };
}

/**
 * The candidate's own given names when a ticket is written with commas alone: a suffix
 * ends a name, so what follows it after a comma is the running mate's (`ROBERT, F. JR.,
 * SHANAHAN, NICOLE` → `ROBERT, F. JR.`).
 */
function firstOfTicket(rest: string): string {
  const segments = rest.split(',');
  const end = segments.findIndex((seg) =>
    seg.split(/\s+/).some((t) => SUFFIXES[t.replace(/\./g, '').toUpperCase()] !== undefined),
  );
  return end < 0 ? rest : segments.slice(0, end + 1).join(',');
}

/** Drops quoted and parenthesised asides (nicknames, "(RET.)"). */
function stripAsides(s: string): string {
  return s
    .replace(/"[^"]*"/g, ' ')
    .replace(/\([^)]*\)?/g, ' ')
    .replace(/"/g, ' ');
}

function titleCase(word: string): string {
  return word
    .toLowerCase()
    .split(/([\s'-])/)
    .map((part) => (/^mc[a-z]{2,}$/.test(part) ? `Mc${cap(part.slice(2))}` : cap(part)))
    .join('');
}

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
