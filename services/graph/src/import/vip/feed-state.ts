import { findState, STATES_BY_USPS, type StateInfo } from '@civicgraph/kit';
import type { FeedIndex } from './feed-index.js';
import { externalId, text, type El } from './xml.js';

/** The state an OCD id names (`ocd-division/country:us/state:va/…` → Virginia). */
export function stateOfOcdId(ocdId: string | undefined): StateInfo | undefined {
  const m = /^ocd-division\/country:us\/(?:state|district|territory):([a-z]{2})(?:\/|$)/.exec(ocdId ?? '');
  return m === null ? undefined : findState(m[1]!);
}

/** A State element's state: by its OCD id, FIPS code, or name (`Virginia`, `ARIZONA`). */
export function stateOfElement(el: El): StateInfo | undefined {
  const byOcd = stateOfOcdId(externalId(el, 'ocd-id'));
  if (byOcd !== undefined) return byOcd;
  const fips = externalId(el, 'fips');
  if (fips !== undefined && /^\d{1,2}$/.test(fips)) return findState(fips);
  const name = text(el, 'Name')?.toLowerCase();
  return [...STATES_BY_USPS.values()].find((s) => s.name.toLowerCase() === name);
}

/**
 * The state a feed is for: its State element (VIP feeds are published per state or per
 * county), else the first two digits of the Source's VipId, a state or county FIPS code
 * (`51`, `04013`). Undefined when the feed says neither.
 */
export function feedState(index: FeedIndex): StateInfo | undefined {
  for (const s of index.ofType('State')) {
    const state = stateOfElement(s.el);
    if (state !== undefined) return state;
  }
  const vipId =
    index
      .ofType('Source')
      .map((s) => text(s.el, 'VipId'))
      .find((v) => v !== undefined) ?? anonymousSource(index);
  return vipId !== undefined && /^\d{2}(\d{3})?$/.test(vipId) ? findState(vipId.slice(0, 2)) : undefined;
}

function anonymousSource(index: FeedIndex): string | undefined {
  return index.anonymous
    .filter((e) => e.type === 'Source')
    .map((e) => text(e.el, 'VipId'))
    .find((v) => v !== undefined);
}
