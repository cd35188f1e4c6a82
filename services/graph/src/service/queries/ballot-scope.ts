/**
 * Which of a state's contests on a date are on the ballot at a point, when the point's
 * regions come from boundaries and some districts have none loaded (a judicial district, a
 * transit director district, a county council district). Pure: the caller reads the
 * relations; this decides, and never guesses:
 *
 * 0. The contest's region is one of the point's: on the ballot.
 * 1. A level the lookup answered (the point has a region of it) holds the point in exactly
 *    one region of that level: the contests of its other regions are not on the ballot.
 * 2. One of the point's regions lies WITHIN the contest's region (Denver County in the 2nd
 *    Judicial District): on the ballot.
 * 3. The point's regions record (from certified precinct returns) which regions of the
 *    contest region's level they WITHIN or OVERLAP: a region they overlap may hold the point
 *    (unresolved); one they are not related to does not (off the ballot).
 * 4. The contest's region lies WITHIN a container (a council district in its county, a city
 *    in its county): off the ballot when the lookup placed the point in another region of the
 *    container's level, else decided by the container as by rules 1–3.
 * 5. Otherwise nothing places the point inside or outside: unresolved.
 */

/** What the relations between regions say, as read from the graph. */
export interface RegionFacts {
  /** The point's regions and their levels (REST words). */
  point: ReadonlyMap<string, string>;
  /** Region → the regions it lies WITHIN. */
  within: ReadonlyMap<string, readonly string[]>;
  /** Region → the regions it OVERLAPS. */
  overlaps: ReadonlyMap<string, readonly string[]>;
  /** Level of every region named above and of every contest region. */
  level: ReadonlyMap<string, string>;
}

export type Placement = { on: true } | { on: false } | { unresolved: string };

/** Where a region stands for the point (see the module comment). */
export function placeRegion(region: string, facts: RegionFacts, depth = 0): Placement {
  if (facts.point.has(region)) return { on: true };
  const level = facts.level.get(region);
  if (level !== undefined && [...facts.point.values()].includes(level)) return { on: false };
  const related = relationOfPoint(region, level, facts);
  if (related !== undefined) return related;
  if (depth < 3) {
    for (const container of facts.within.get(region) ?? []) {
      const placed = placeRegion(container, facts, depth + 1);
      if ('on' in placed && !placed.on) return placed;
      if ('unresolved' in placed || placed.on)
        return {
          unresolved: 'no boundary of its level is loaded; it lies within a region that holds or may hold the point',
        };
    }
  }
  return { unresolved: 'no boundary of its level is loaded, and nothing else places the point inside or outside it' };
}

/** Rules 2 and 3: what the point's regions' own WITHIN / OVERLAPS relations say, if anything. */
function relationOfPoint(region: string, level: string | undefined, facts: RegionFacts): Placement | undefined {
  let knowsLevel = false;
  for (const p of facts.point.keys()) {
    if (facts.within.get(p)?.includes(region) === true) return { on: true };
    if (facts.overlaps.get(p)?.includes(region) === true)
      return {
        unresolved: `no boundary of its level is loaded, and the point's ${facts.point.get(p)} lies partly in it`,
      };
    const related = [...(facts.within.get(p) ?? []), ...(facts.overlaps.get(p) ?? [])];
    if (level !== undefined && related.some((r) => facts.level.get(r) === level)) knowsLevel = true;
  }
  return knowsLevel ? { on: false } : undefined;
}
