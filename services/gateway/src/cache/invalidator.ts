import { subjectMatches, type CivicEvent, type EventBus, type Logger, type Subscription } from '@civicgraph/kit';
import type { GeoCache } from './geo-cache.js';

/**
 * Keeps the geo cache honest: `region.updated`/`region.deleted` drop the answers naming
 * the event's slugs; `region.created` drops everything, since a new boundary can contain
 * any cached point and the gateway does not hold geometry.
 */
export function startGeoInvalidator(bus: EventBus, env: string, cache: GeoCache, log: Logger): Promise<Subscription> {
  return bus.subscribe(`civic.${env}.region.*`, (event: CivicEvent) => {
    const dropped = subjectMatches(`civic.${env}.region.created`, event.subject) || event.slugs.length === 0
      ? cache.clear()
      : cache.invalidateSlugs(event.slugs);
    log.info({ eventId: event.id, subject: event.subject, slugs: event.slugs.length, dropped }, 'geo cache invalidated');
  });
}
