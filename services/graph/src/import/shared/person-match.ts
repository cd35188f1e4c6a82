/**
 * Matching a person a source names only by name (certified results) to a person another
 * source identified (the FEC, congress-legislators, Open States), among the people already
 * tied to the same office. External ids come first everywhere; this is the fallback, and
 * it records which rule matched and how sure that is.
 */

/** A person already tied to an office (holder, or candidate for it), by slug and display name. */
export interface KnownPerson {
  slug: string;
  name: string;
}

/** How a name matched a known person. */
export interface PersonMatch {
  slug: string;
  /** `name+office`: the whole name; `first-last+office`: first and last name, middle names ignored. */
  rule: 'name+office' | 'first-last+office';
  confidence: number;
}

/** Confidence of each rule: the whole name among one office's people is near certain; first and last names less so. */
export const MATCH_CONFIDENCE = { 'name+office': 0.95, 'first-last+office': 0.85 } as const;

const SUFFIXES = new Set(['jr', 'sr', 'ii', 'iii', 'iv', 'v']);

/** Lowercase words of a name, accents, punctuation and suffixes dropped: `Robert F. Kennedy Jr.` → `robert f kennedy`. */
export function nameWords(name: string): string[] {
  const words = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[.'’"]/g, '')
    .split(/[^a-z]+/)
    .filter((w) => w !== '');
  while (words.length > 1 && SUFFIXES.has(words[words.length - 1]!)) words.pop();
  return words;
}

/**
 * The one known person a name denotes: the whole name first, then first and last name
 * (so `KAMALA D HARRIS` finds `Kamala Harris`). Two candidates under one rule are no match:
 * a guess would merge two people.
 */
export function matchPerson(name: string, known: readonly KnownPerson[]): PersonMatch | undefined {
  const words = nameWords(name);
  if (words.length === 0) return undefined;
  const whole = unique(known.filter((k) => nameWords(k.name).join(' ') === words.join(' ')));
  if (whole !== undefined) return { slug: whole, rule: 'name+office', confidence: MATCH_CONFIDENCE['name+office'] };
  const firstLast = unique(known.filter((k) => sameFirstAndLast(nameWords(k.name), words)));
  if (firstLast !== undefined)
    return { slug: firstLast, rule: 'first-last+office', confidence: MATCH_CONFIDENCE['first-last+office'] };
  return undefined;
}

function sameFirstAndLast(a: readonly string[], b: readonly string[]): boolean {
  return a.length > 0 && b.length > 0 && a[0] === b[0] && a[a.length - 1] === b[b.length - 1];
}

/** The single slug among the matches (one person may be known twice, e.g. as holder and candidate). */
function unique(matches: readonly KnownPerson[]): string | undefined {
  const slugs = new Set(matches.map((m) => m.slug));
  return slugs.size === 1 ? [...slugs][0] : undefined;
}
