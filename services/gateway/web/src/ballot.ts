import type { Ballot, Candidacy, Contest, Provenance } from './api.js';
import { h, uid, type Child } from './dom.js';
import { levelLabel } from './levels.js';

/** Field names as a reader knows them. */
const FIELD_NAMES: Record<string, string> = {
  name: 'Name on the ballot',
  person: 'Candidate',
  contest: 'Contest',
  party: 'Party',
  is_incumbent: 'Incumbency',
  filing_status: 'Filing status',
  ballot_access: 'Ballot access',
  campaign_website: 'Website',
};

const percent = (c: number) => `${Math.round(c * 100)}%`;

/** A confidence score drawn as a meter (red, amber, green by the browser's own thresholds) with its percentage. */
export function confidenceMeter(confidence: number, what: string): HTMLElement {
  const meter = h('meter', {
    min: 0,
    max: 1,
    low: 0.5,
    high: 0.8,
    optimum: 1,
    value: confidence.toFixed(4),
    'aria-label': `Confidence in ${what}`,
  });
  return h(
    'span',
    { class: 'cg-confidence', title: `confidence ${percent(confidence)}` },
    meter,
    ` ${percent(confidence)}`,
  );
}

/** A link to a provenance record's source, or its name when it has no address. */
function sourceLink(p: Provenance, label: string): HTMLElement {
  const title = [p.source, p.publisher, p.retrieved_at === null ? null : `retrieved ${p.retrieved_at.slice(0, 10)}`]
    .filter((x) => x !== null)
    .join(', ');
  if (p.url === null || !/^https?:/i.test(p.url)) return h('span', { class: 'cg-source', title }, label);
  return h('a', { class: 'cg-source', href: p.url, title, rel: 'noopener noreferrer', target: '_blank' }, label);
}

/** Per field of a candidacy: its confidence and a link to each source it came from. */
function fieldSources(c: Candidacy): HTMLElement {
  const bySlug = new Map(c.provenance.map((p) => [p.slug, p]));
  const rows = c.field_confidence.map((f) => {
    const name = FIELD_NAMES[f.field] ?? f.field;
    const links = f.provenance.flatMap((slug, i) => {
      const p = bySlug.get(slug);
      return p === undefined ? [] : [i > 0 ? ', ' : '', sourceLink(p, `${p.source}`)];
    });
    return h(
      'li',
      { 'data-field': f.field },
      h('span', { class: 'cg-field' }, name),
      ' ',
      confidenceMeter(f.confidence, `${name.toLowerCase()} of ${c.person}`),
      ' — ',
      ...(links.length > 0 ? links : ['no source named']),
    );
  });
  return h('details', { class: 'cg-sources' }, h('summary', {}, `Sources for ${c.person}`), h('ul', {}, ...rows));
}

/** The first source of one field, as a small linked mark after the value it supports. */
function fieldMark(c: Candidacy, field: string): Child {
  const f = c.field_confidence.find((x) => x.field === field);
  const p = f === undefined ? undefined : c.provenance.find((x) => x.slug === f.provenance[0]);
  if (p === undefined) return null;
  const mark = sourceLink(p, 'source');
  mark.classList.add('cg-mark');
  mark.setAttribute(
    'aria-label',
    `Source of ${FIELD_NAMES[field]?.toLowerCase() ?? field} for ${c.person}: ${p.source}`,
  );
  return mark;
}

function candidacyItem(c: Candidacy): HTMLElement {
  return h(
    'li',
    { class: 'cg-candidacy', 'data-slug': c.slug },
    h(
      'div',
      { class: 'cg-candidate-line' },
      h('span', { class: 'cg-person' }, c.person),
      fieldMark(c, 'person'),
      c.is_incumbent === true ? h('span', { class: 'cg-badge cg-incumbent' }, 'Incumbent') : null,
      c.party === null ? null : h('span', { class: 'cg-party' }, c.party),
      c.party === null ? null : fieldMark(c, 'party'),
      confidenceMeter(c.confidence, c.person),
    ),
    c.campaign_website === null || !/^https?:/i.test(c.campaign_website)
      ? null
      : h(
          'a',
          { class: 'cg-website', href: c.campaign_website, rel: 'noopener noreferrer nofollow', target: '_blank' },
          'Campaign website',
        ),
    c.field_confidence.length > 0 ? fieldSources(c) : null,
  );
}

function contestSection(c: Contest): HTMLElement {
  const heading = uid('cg-contest');
  const isMeasure = c.choices.length > 0 && c.candidacies.length === 0;
  const meta = [
    levelLabel(c.level),
    c.region.name,
    c.date ?? 'date not set yet',
    c.special ? 'special election' : c.type,
    c.seats > 1 ? `${c.seats} seats` : null,
  ].filter((x) => x !== null && x !== '');
  return h(
    'section',
    { class: `cg-contest${isMeasure ? ' cg-measure' : ''}`, 'aria-labelledby': heading, 'data-slug': c.slug },
    h('h3', { id: heading }, isMeasure ? c.name : (c.office ?? c.name)),
    h('p', { class: 'cg-meta' }, isMeasure ? `Ballot measure · ${meta.join(' · ')}` : meta.join(' · ')),
    c.choices.length > 0
      ? h(
          'ul',
          { class: 'cg-choices', 'aria-label': `Choices on ${c.name}` },
          ...c.choices.map((x) => h('li', { class: 'cg-choice' }, x.label)),
        )
      : null,
    c.candidacies.length > 0
      ? h(
          'ul',
          { class: 'cg-candidacies', 'aria-label': `Candidates for ${c.office ?? c.name}` },
          ...c.candidacies.map(candidacyItem),
        )
      : null,
    c.candidacies.length === 0 && c.choices.length === 0 ? h('p', {}, 'No candidate has ballot access yet.') : null,
  );
}

/** The ballot: its contests in the API's order (national first), then the regions it could not resolve. */
export function ballotView(b: Ballot): HTMLElement {
  const measures = b.contests.filter((c) => c.choices.length > 0 && c.candidacies.length === 0).length;
  return h(
    'div',
    { class: 'cg-ballot', 'data-date': b.date },
    h(
      'p',
      { class: 'cg-summary' },
      b.contests.length === 0
        ? `Nothing is on the ballot here on ${b.date}. Pick an election day.`
        : `${b.contests.length} contests on ${b.date}${measures > 0 ? `, ${measures} of them ballot measures` : ''}.`,
    ),
    ...b.contests.map(contestSection),
    b.unresolved.length === 0
      ? null
      : h(
          'details',
          { class: 'cg-unresolved' },
          h(
            'summary',
            {},
            `${b.unresolved.reduce((n, u) => n + u.contests.length, 0)} more contests may be on this ballot: ${b.unresolved.length} districts no loaded map resolves`,
          ),
          h(
            'ul',
            {},
            ...b.unresolved.map((u) =>
              h(
                'li',
                { 'data-slug': u.region.slug },
                `${levelLabel(u.region.level)}: ${u.region.name} (${u.reason}) — `,
                u.contests.map((c) => c.name).join('; '),
              ),
            ),
          ),
        ),
  );
}
