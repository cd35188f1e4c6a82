import { type CivicEvent, type EventBus, type Logger, type Subscription, isDataEvent, topicOf } from '@civicgraph/kit';
import type { PrincipalCache } from '../http/principal-cache.js';
import { ANY_CHANGE } from './response-cache.js';

/** A cache whose entries data-change events can drop by slug. */
export interface SlugIndexed {
  invalidateSlugs(slugs: readonly string[]): number;
  clear(): number;
}

/**
 * Keeps the cached answers honest: a data-change event of any kind drops the answers naming
 * one of its slugs (and those tagged ANY_CHANGE); a created or deleted node can enter or leave any list, ballot or point
 * lookup (a new boundary can contain any point), and a term that begins or ends
 * (officeholder.changed) any region's list of officeholders, so those events drop everything.
 * Any of them empties the ballot memo (upstream/ballot-memo.ts): a changed contest date or
 * region moves a contest onto a ballot that never named it.
 */
export function startResponseInvalidator(
  bus: EventBus,
  env: string,
  cache: SlugIndexed,
  ballots: { clear(): void },
  log: Logger,
): Promise<Subscription> {
  return bus.subscribe(`civic.${env}.*.*`, (event: CivicEvent) => {
    if (!isDataEvent(event)) return;
    ballots.clear();
    const slugs = topicOf(event).verb === 'updated' ? answerSlugsOf(event) : [];
    const dropped = slugs.length > 0 ? cache.invalidateSlugs([...slugs, ANY_CHANGE]) : cache.clear();
    log.debug(
      { eventId: event.id, subject: event.subject, slugs: event.slugs.length, dropped },
      'response cache invalidated',
    );
  });
}

/**
 * The slugs whose answers an `updated` event can change: the node itself (first), and the
 * nodes at the other end of its changed edges (a contest lists its candidacies, an office
 * its holders), except provenance records. No answer lists what cites a record, so a new
 * citation changes only the citing node's answers; yet every answer showing a candidacy
 * names its records, and one record backs thousands of candidacies, so dropping by it
 * would empty the caches on every imported row.
 */
export function answerSlugsOf(event: CivicEvent): string[] {
  const [node, ...ends] = event.slugs;
  if (node === undefined) return [];
  return [node, ...ends.filter((s) => !s.startsWith('provenance:'))];
}

/**
 * Revocations and rotations announced by auth drop the key from this gateway's principal
 * cache at once, so the next request asks auth (and a revoked key is refused) everywhere.
 */
export function startKeyInvalidator(
  bus: EventBus,
  env: string,
  principals: PrincipalCache,
  log: Logger,
): Promise<Subscription> {
  return bus.subscribe(`civic.${env}.key.*`, (event: CivicEvent) => {
    let dropped = 0;
    for (const keyId of event.slugs) dropped += principals.dropKey(keyId);
    log.info(
      { eventId: event.id, subject: event.subject, keys: event.slugs, dropped },
      'principal cache dropped a key',
    );
  });
}
