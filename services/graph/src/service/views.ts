import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type {
  Candidacy,
  Choice,
  Contest,
  ElectionDate,
  FieldSupport,
  Office,
  Officeholder,
  Party,
  Person,
  Provenance,
  RegionRef,
} from '@civicgraph/protos/civic/graph/v1/graph';
import { contactVisible } from '@civicgraph/kit';
import { CONTACT_FIELDS, type EdgeDoc, type Field, type FieldScalar, type NodeDoc } from '../model/nodes.js';
import { CANDIDACY_FIELDS } from '../domain/claims.js';
import type { Related } from './related.js';

/**
 * Stored documents → civic.graph.v1 messages. The contact fields are filled only when the
 * policy lets the caller see them (kit's `contactVisible`); `contact_included` tells the
 * edge whether to put them in the response shape at all.
 */

export function officeView(o: NodeDoc<'office'> | undefined, slug: string): Office {
  return o === undefined
    ? { slug, name: '', level: '', tier: '', region: '' }
    : { slug: o.slug, name: o.data.name, level: o.data.level, tier: o.data.tier, region: o.data.region };
}

export function regionRef(r: NodeDoc<'region'> | undefined, slug: string): RegionRef {
  return r === undefined
    ? { slug, name: '', level: '', fips: '', ocdId: '' }
    : { slug: r.slug, name: r.data.name, level: r.data.level, fips: r.data.fips, ocdId: r.data.ocdId };
}

export function personView(p: NodeDoc<'person'> | undefined, slug: string, fallbackName: string): Person {
  return { slug, name: p?.data.name ?? fallbackName };
}

export function partyView(p: NodeDoc<'party'> | undefined): Party | undefined {
  return p === undefined ? undefined : { slug: p.slug, name: p.data.name, abbreviation: p.data.abbreviation };
}

export function provenanceView(p: NodeDoc<'provenance'>): Provenance {
  const d = p.data;
  return {
    slug: p.slug,
    source: d.source,
    url: d.url,
    publisher: d.publisher,
    licence: d.licence,
    retrievedAt: d.retrievedAt,
    method: d.method,
  };
}

export function contestView(
  c: NodeDoc<'contest'>,
  related: Related,
  candidacies: Candidacy[] = [],
  choices: Choice[] = [],
): Contest {
  const d = c.data;
  return {
    slug: c.slug,
    name: d.name,
    type: d.type,
    date: d.date,
    level: d.level,
    office: officeView(related.get(d.office, 'office'), d.office),
    region: regionRef(related.get(d.region, 'region'), d.region),
    seats: d.seats,
    special: d.special,
    state: c.state,
    candidacies,
    choices,
  };
}

/** Fields in the order messages list them; contact fields only for callers who may see them. */
const PUBLIC_FIELDS = CANDIDACY_FIELDS.filter((f) => !(CONTACT_FIELDS as readonly string[]).includes(f));

export function candidacyView(c: NodeDoc<'candidacy'>, related: Related, principal: Principal): Candidacy {
  const f = c.data.fields;
  const contact = contactVisible(principal);
  const provenanceSlugs: string[] = [];
  const fields: FieldSupport[] = [];
  for (const name of contact ? CANDIDACY_FIELDS : PUBLIC_FIELDS) {
    const value = f[name] as Field | undefined;
    if (value === undefined) continue;
    const support: string[] = [];
    for (const claim of value.claims) {
      if (!support.includes(claim.provenance)) support.push(claim.provenance);
      if (!provenanceSlugs.includes(claim.provenance)) provenanceSlugs.push(claim.provenance);
    }
    fields.push({ field: name, confidence: value.confidence, provenance: support });
  }
  const party = typeof f.party?.value === 'string' ? partyView(related.get(f.party.value, 'party')) : undefined;
  return {
    slug: c.slug,
    name: f.name.value,
    person: personView(related.get(f.person.value, 'person'), f.person.value, f.name.value),
    contest: f.contest.value,
    ...(party === undefined ? {} : { party }),
    ...(typeof f.isIncumbent?.value === 'boolean' ? { isIncumbent: f.isIncumbent.value } : {}),
    filingStatus: f.filingStatus?.value ?? '',
    ballotAccess: f.ballotAccess?.value ?? '',
    ...(typeof f.campaignWebsite?.value === 'string' ? { campaignWebsite: f.campaignWebsite.value } : {}),
    contactIncluded: contact,
    campaignEmails: contact ? strings(f.campaignEmails?.value) : [],
    campaignPhones: contact ? strings(f.campaignPhones?.value) : [],
    campaignTeam: contact ? (f.campaignTeam?.value ?? []).map(teamContact) : [],
    positions: c.data.positions.flatMap((slug) => {
      const p = related.get(slug, 'position');
      return p === undefined ? [] : [{ slug, issue: p.data.issue, stance: p.data.stance, summary: p.data.summary }];
    }),
    provenance: provenanceSlugs.flatMap((slug) => {
      const p = related.get(slug, 'provenance');
      return p === undefined ? [] : [provenanceView(p)];
    }),
    confidence: c.data.confidence,
    fields,
    state: c.state,
    tier: c.tier,
  };
}

/**
 * One HOLDS term as an officeholder. The person's contact fields (offices, emails, links)
 * are filled only when the policy lets the caller see them, as a candidacy's are.
 */
export function officeholderView(
  term: EdgeDoc,
  office: NodeDoc<'office'> | undefined,
  related: Related,
  principal: Principal,
): Officeholder {
  const person = related.get(term.from, 'person');
  const party = partyView(related.get(String(term.data['party'] ?? ''), 'party'));
  const contact = contactVisible(principal);
  const d = person?.data;
  return {
    person: personView(person, term.from, ''),
    office: officeView(office, term.to),
    start: String(term.data['start'] ?? ''),
    end: String(term.data['end'] ?? ''),
    ...(party === undefined ? {} : { party }),
    contactIncluded: contact,
    contactOffices: contact
      ? (d?.contactOffices ?? []).map((o) => ({
          kind: o.kind,
          address: o.address ?? '',
          voice: o.voice ?? '',
          fax: o.fax ?? '',
        }))
      : [],
    contactEmails: contact ? [...(d?.contactEmails ?? [])] : [],
    contactLinks: contact ? (d?.contactLinks ?? []).map((l) => ({ url: l.url, note: l.note })) : [],
  };
}

export function electionDateView(e: NodeDoc<'election'>): ElectionDate {
  return { slug: e.slug, name: e.data.name, date: e.data.date, type: e.data.type, state: e.state };
}

function strings(v: readonly string[] | undefined): string[] {
  return v === undefined ? [] : [...v];
}

function teamContact(t: Record<string, FieldScalar>) {
  const s = (k: string) => (typeof t[k] === 'string' ? (t[k] as string) : '');
  return { role: s('role'), name: s('name'), email: s('email'), phone: s('phone') };
}
