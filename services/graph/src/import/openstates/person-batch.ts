import type { DraftBatch, NodeDraft, PlainDraft, Rejection } from '../../domain/drafts.js';
import { edgeId, type EdgeDoc } from '../../model/nodes.js';
import { slug } from '../../model/slugs.js';
import { edge, sourcedBatch } from '../shared/batch.js';
import { partyByName, partyDraft } from '../shared/parties.js';
import { contactOf } from './contact.js';
import type { PersonFile } from './folders.js';
import type { OpenStatesPerson, PartySpell, Role } from './person-record.js';
import type { PlaceTable } from './places.js';
import { seatOfRole, type Seat } from './seats.js';

export interface PersonContext {
  provenance: PlainDraft<'provenance'>;
  places: PlaceTable | undefined;
}

/** What one person file yields: a batch when at least one role has a seat, and the problems with the rest. */
export interface PersonOutcome {
  batch: DraftBatch | undefined;
  problems: Rejection[];
}

/** `person:ocd-<uuid>`: Open States' own id for the person, stable across its files and re-imports. */
export function openStatesPersonSlug(uuid: string): string {
  return slug('person', `ocd-${uuid}`);
}

/**
 * The person (with its external ids and contact fields), and for each role the office it
 * holds, the region the office serves (a reference: the ocd import owns regions), the
 * party, and a HOLDS edge keyed by the role's start date ('' when the source gives none)
 * with `{ start, end, party }`: `end` is the role's end_date, so a role that ended is a
 * dated term, not a current one. A role that cannot be placed is a problem naming the
 * role; the person's other roles are still imported.
 */
export function personOutcome(p: OpenStatesPerson, file: PersonFile, ctx: PersonContext): PersonOutcome {
  const contact = contactOf(p);
  const problems: Rejection[] = contact.problems.map((reason) => ({ at: file.label, reason }));
  const person = personDraft(p, file, contact.fields);
  const nodes: NodeDraft[] = [ctx.provenance, person];
  const edges: EdgeDoc[] = [];
  const terms = new Set<string>();
  for (const [i, entry] of p.roles.entries()) {
    const at = `${file.label} role ${i + 1}`;
    const placed = 'reason' in entry ? entry : placeRole(entry, person.slug, p.parties, ctx);
    if ('reason' in placed) {
      problems.push({ at, reason: placed.reason });
      continue;
    }
    if (terms.has(edgeId(placed.term))) {
      problems.push({ at, reason: repeatedReason(placed) });
      continue;
    }
    terms.add(edgeId(placed.term));
    nodes.push(...(placed.party === undefined ? [] : [placed.party]), placed.seat.office, placed.seat.region.draft);
    edges.push(edge('SERVES_REGION', placed.seat.office.slug, placed.seat.region.draft.slug), placed.term);
  }
  return { batch: terms.size === 0 ? undefined : sourcedBatch(nodes, edges, ctx.provenance.slug), problems };
}

interface Placed {
  role: Role;
  seat: Seat;
  party: PlainDraft<'party'> | undefined;
  term: EdgeDoc;
}

/** A role's seat, party and HOLDS term, or why it has none. */
function placeRole(
  role: Role,
  person: string,
  parties: readonly PartySpell[],
  ctx: PersonContext,
): Placed | { reason: string } {
  const seat = seatOfRole(role, ctx.places);
  if ('reason' in seat) return seat;
  const party = partyOf(parties, role);
  return { role, seat, party, term: holds(person, seat.office.slug, role, party) };
}

/** Two roles in one office keyed by the same start would be one term: said rather than merged. */
function repeatedReason({ role, seat }: Placed): string {
  return `a second ${role.type} role in ${seat.office.slug} with the same start_date (${role.start ?? 'none'}): the terms cannot be told apart`;
}

function personDraft(
  p: OpenStatesPerson,
  file: PersonFile,
  contact: ReturnType<typeof contactOf>['fields'],
): PlainDraft<'person'> {
  return {
    kind: 'person',
    slug: openStatesPersonSlug(p.uuid),
    state: file.state.usps,
    tier: '',
    data: {
      name: p.name,
      givenName: p.givenName,
      familyName: p.familyName,
      ids: p.ids,
      birthday: p.birthday,
      gender: p.gender,
      ...contact,
    },
  };
}

function holds(person: string, office: string, role: Role, party: PlainDraft<'party'> | undefined): EdgeDoc {
  return edge('HOLDS', person, office, role.start ?? '', {
    start: role.start ?? null,
    end: role.end ?? null,
    party: party === undefined ? null : party.slug,
  });
}

/**
 * The party of the person's party list in force when the role began (or, without a start,
 * when it ended); an undated entry is in force throughout. Undefined for none, or a name
 * that says "no party".
 */
function partyOf(parties: readonly PartySpell[], role: Role): PlainDraft<'party'> | undefined {
  const day = role.start ?? role.end;
  const spell = parties.find(
    (s) => day === undefined || ((s.start === undefined || s.start <= day) && (s.end === undefined || day <= s.end)),
  );
  const stated = spell === undefined ? undefined : partyByName(spell.name);
  return stated !== undefined && 'party' in stated ? partyDraft(stated.party) : undefined;
}
