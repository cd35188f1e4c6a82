import { slugKey } from '@civicgraph/kit';
import { isContestType, isNodeKind, type ContestType, type NodeKind } from './kinds.js';

/**
 * Slugs (DESIGN): `<kind>:<key>`, the key lowercase ASCII letters, digits and single
 * hyphens, stable across re-imports because it is derived from the source's own
 * identifiers, never from row order or time.
 */
const KEY = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The key form of a name (shared with the geo service): `"St. Mary's County"` → `st-marys-county`. */
export { slugKey };

export function isSlugKey(key: string): boolean {
  return KEY.test(key);
}

/** `kind:key`; throws when the key is not already a slug key. */
export function slug(kind: NodeKind, key: string): string {
  if (!isSlugKey(key)) throw new RangeError(`"${key}" is not a slug key (lowercase letters, digits, single hyphens)`);
  return `${kind}:${key}`;
}

/** Splits a slug into kind and key; undefined when it is not one. */
export function parseSlug(s: string): { kind: NodeKind; key: string } | undefined {
  const i = s.indexOf(':');
  if (i <= 0) return undefined;
  const kind = s.slice(0, i);
  const key = s.slice(i + 1);
  return isNodeKind(kind) && isSlugKey(key) ? { kind, key } : undefined;
}

export function isSlugOf(kind: NodeKind, s: string): boolean {
  return parseSlug(s)?.kind === kind;
}

/** `contest:<region-key>-<office-key>-<year>-<type>` (DESIGN). */
export function contestSlug(regionKey: string, officeKey: string, year: number, type: ContestType): string {
  if (!Number.isInteger(year) || year < 1789 || year > 9999)
    throw new RangeError(`contest year ${year} is out of range`);
  if (!isContestType(type)) throw new RangeError(`unknown contest type "${type}"`);
  return slug('contest', `${regionKey}-${officeKey}-${year}-${type}`);
}

/**
 * `office:<region-key>-<office-key>`: an office is a seat of a region, e.g.
 * `office:co-cd-1-us-representative`, `office:co-us-senator-class-2`.
 */
export function officeSlug(regionKey: string, officeKey: string): string {
  return slug('office', `${regionKey}-${officeKey}`);
}

/** `candidacy:<contest-key>-<person-key>`: one person in one contest. */
export function candidacySlug(contestKey: string, personKey: string): string {
  return slug('candidacy', `${contestKey}-${personKey}`);
}

/**
 * `election:<region-key>-<YYYY-MM-DD>`: one state's (or the nation's) election day, e.g.
 * `election:co-2024-11-05`. The day, not the type, identifies it: a June ballot holding a
 * primary and a special election is one election; each contest carries its own type.
 */
export function electionSlug(regionKey: string, date: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new RangeError(`election date "${date}" is not YYYY-MM-DD`);
  return slug('election', `${regionKey}-${date}`);
}

/** `result:<contest-key>-<choice-key>`: one choice's votes in one contest (a candidate, `yes`, `no`, `write-in`). */
export function resultSlug(contestKey: string, choiceKey: string): string {
  return slug('result', `${contestKey}-${choiceKey}`);
}
