import type { PlainDraft } from '../../domain/drafts.js';
import type { Tier } from '../../model/kinds.js';
import { officeSlug, slugKey } from '../../model/slugs.js';
import type { ServedRegion } from './served-regions.js';

/**
 * An office that is not a federal seat, as every importer names it:
 * `office:<region key>-<slug key of its name>` (`office:co-governor`,
 * `office:co-sldu-21-state-senator`, `office:de-wilmington-city-mayor`). The results,
 * VIP and Open States importers all draft offices through here, so a governor whose
 * contest MEDSL reports and the governor Open States lists are one node.
 */
export function statedOffice(region: ServedRegion, name: string, tier: Tier): PlainDraft<'office'> {
  return {
    kind: 'office',
    slug: officeSlug(region.key, slugKey(name)),
    state: region.draft.state,
    tier,
    data: { name, level: region.level, tier, region: region.draft.slug },
  };
}

/** What a member of a state legislative chamber is called in office names (and so in slugs). */
export function legislatorTitle(chamber: 'upper' | 'lower'): string {
  return chamber === 'upper' ? 'State Senator' : 'State Representative';
}
