import type { DraftBatch, NodeDraft, PlainDraft } from '../../domain/drafts.js';
import type { EdgeDoc } from '../../model/nodes.js';
import { slug } from '../../model/slugs.js';
import { edge, sourcedBatch } from '../shared/batch.js';
import type { Seat } from '../shared/federal-offices.js';
import { partyByName, partyDraft, partySlug } from '../shared/parties.js';
import { reference } from '../shared/regions.js';
import type { LegislatorRecord, Term } from './record.js';
import { seatOfTerm } from './seats.js';

/** Which terms become HOLDS edges. */
export type TermsChoice =
  /** The term serving on `asOf` (the last one), and the earlier terms in that same seat. */
  | 'current-seat'
  /** Every term (executive.yaml: the presidency and vice-presidency are one seat each since 1789). */
  | 'all';

export interface RecordContext {
  provenance: PlainDraft<'provenance'>;
  /** YYYY-MM-DD the current term must cover. */
  asOf: string;
  terms: TermsChoice;
}

/**
 * `person:bioguide-c000127`: the bioguide id is the person's id across Congress's own
 * records; presidents who never sat in Congress have none and are `person:govtrack-412374`.
 */
export function legislatorPersonSlug(bioguide: string, scheme: 'bioguide' | 'govtrack' = 'bioguide'): string {
  return slug('person', `${scheme}-${bioguide.toLowerCase()}`);
}

interface HeldTerm {
  term: Term;
  seat: Seat;
}

/**
 * A record's person, the offices of its chosen terms with the regions they serve
 * (references: the OCD importer owns regions), its parties, and a HOLDS edge per term
 * keyed by the term's start, with `{ start, end, party }`.
 */
export function recordBatch(record: LegislatorRecord, ctx: RecordContext): DraftBatch | { reason: string } {
  const held = ctx.terms === 'all' ? allTerms(record) : currentSeatTerms(record, ctx.asOf);
  if ('reason' in held) return held;
  const latest = held[held.length - 1]!;
  const person = personDraft(record, latest.seat.office.state);
  const nodes: NodeDraft[] = [ctx.provenance, person];
  const edges: EdgeDoc[] = [];
  for (const { term, seat } of held) {
    const party = partyByName(term.party ?? '');
    if ('party' in party) nodes.push(partyDraft(party.party));
    nodes.push(seat.office, reference(seat.region));
    edges.push(edge('SERVES_REGION', seat.office.slug, seat.region.slug));
    edges.push(
      edge('HOLDS', person.slug, seat.office.slug, term.start, {
        start: term.start,
        end: term.end,
        party: 'party' in party ? partySlug(party.party) : null,
      }),
    );
  }
  return sourcedBatch(nodes, edges, ctx.provenance.slug);
}

function allTerms(record: LegislatorRecord): HeldTerm[] | { reason: string } {
  const held: HeldTerm[] = [];
  for (const [i, term] of record.terms.entries()) {
    const seat = seatOfTerm(term);
    if ('reason' in seat) return { reason: `term ${i + 1}: ${seat.reason}` };
    held.push({ term, seat });
  }
  return held;
}

/** The last term, if it covers `asOf`, and the earlier terms in the same office (history in other seats is left out). */
function currentSeatTerms(record: LegislatorRecord, asOf: string): HeldTerm[] | { reason: string } {
  const last = record.terms[record.terms.length - 1]!;
  const where = `the last term (${last.type}${last.state === undefined ? '' : `, ${last.state}`})`;
  if (last.end < asOf) return { reason: `no current term: ${where} ended ${last.end}` };
  if (last.start > asOf) return { reason: `no current term: ${where} starts ${last.start}, after ${asOf}` };
  const seat = seatOfTerm(last);
  if ('reason' in seat) return { reason: `term ${record.terms.length}: ${seat.reason}` };
  const earlier = record.terms.slice(0, -1).flatMap((term) => {
    const s = seatOfTerm(term);
    return 'office' in s && s.office.slug === seat.office.slug ? [{ term, seat: s }] : [];
  });
  return [...earlier, { term: last, seat }];
}

function personDraft(record: LegislatorRecord, state: string): PlainDraft<'person'> {
  const n = record.name;
  const name = n.officialFull ?? [n.first, n.middle, n.last, n.suffix].filter((p) => p !== undefined).join(' ');
  return {
    kind: 'person',
    slug: legislatorPersonSlug(record.key.id, record.key.scheme),
    state,
    tier: '',
    data: {
      name,
      givenName: n.first,
      familyName: n.last,
      ids: record.ids,
      birthday: record.birthday,
      gender: record.gender,
    },
  };
}
