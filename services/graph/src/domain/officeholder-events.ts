import { makeEvent, type CivicEvent } from '@civicgraph/kit';
import type { Officeholder } from '@civicgraph/protos/civic/events/v1/events';
import { OFFICEHOLDER_CONTACT_FIELDS, edgeId, type EdgeDoc, type NodeDoc } from '../model/nodes.js';
import { changedKeys } from './diff.js';

/**
 * `civic.<env>.officeholder.changed` for every HOLDS term a change set writes: a term
 * created (an office gained a holder, or a holder a new term) or one whose data changed
 * (its end set: the term ended; its start, end or party corrected). Its slugs are
 * [office, person]; its changed fields the term's fields that differ from what the store
 * held (all of them for a new term). The object is the officeholder as the API shows it,
 * with the person's contact fields, which the policy removes for keys without `contact`.
 * A term written again unchanged is not in the change set, so it is no event.
 */
export function officeholderEvents(
  env: string,
  link: readonly EdgeDoc[],
  stored: ReadonlyMap<string, EdgeDoc>,
  nodeOf: (slug: string) => NodeDoc,
  now: Date,
): CivicEvent[] {
  return link
    .filter((e) => e.kind === 'HOLDS')
    .map((term) => {
      const before = stored.get(edgeId(term));
      const fields = before === undefined ? Object.keys(term.data).sort() : changedKeys(before.data, term.data);
      const office = nodeOf(term.to) as NodeDoc<'office'>;
      return makeEvent({
        env,
        kind: 'officeholder',
        verb: 'changed',
        slugs: [term.to, term.from],
        changedFields: fields,
        version: String(office.rev),
        now,
        changes: fields.map((field) => ({
          field,
          before: before?.data[field] ?? null,
          after: term.data[field] ?? null,
        })),
        officeholder: officeholderOf(term, office, nodeOf(term.from) as NodeDoc<'person'>),
      });
    });
}

/** The officeholder a term makes, scoped as its office is (a key sees it when it sees the office). */
function officeholderOf(term: EdgeDoc, office: NodeDoc<'office'>, person: NodeDoc<'person'>): Officeholder {
  const contact = Object.fromEntries(
    OFFICEHOLDER_CONTACT_FIELDS.filter((f) => person.data[f] !== undefined).map((f) => [f, person.data[f]]),
  );
  return {
    state: office.state,
    tier: office.tier,
    person: { slug: person.slug, name: person.data.name },
    office: { slug: office.slug, name: office.data.name, level: office.data.level, region: office.data.region },
    term: term.key,
    start: termText(term.data['start']),
    end: termText(term.data['end']),
    party: termText(term.data['party']),
    contact,
  };
}

/** A term's optional text (a date, a party slug); unset when absent (the API shows null). */
function termText(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
