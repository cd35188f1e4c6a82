import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { ListOfficeholdersRequest, Officeholder, OfficeholderPage } from '@civicgraph/protos/civic/graph/v1/graph';
import { InvalidParameterError, nodeVisible, todayUtc } from '@civicgraph/kit';
import type { EdgeDoc, NodeDoc } from '../../model/nodes.js';
import { queryAll } from '../../store/query-all.js';
import { dateParam, limitParam, slugParam } from '../params.js';
import { Related } from '../related.js';
import { officeView, partyView, personView } from '../views.js';
import type { QueryContext } from './context.js';

/**
 * Who holds an office on a date: HOLDS terms (person → office, data start/end/party) in
 * force that day, for one office or every office serving a region. Terms are few per
 * office, so the page is cut from the sorted terms; the cursor is the last term's key.
 */
export async function listOfficeholders(ctx: QueryContext, principal: Principal, req: ListOfficeholdersRequest): Promise<OfficeholderPage> {
  const office = slugParam('office', req.office, 'office');
  const region = slugParam('region', req.region, 'region');
  if (office === '' && region === '') throw new InvalidParameterError('office', 'Name an office or a region.');
  const date = dateParam('date', req.date) || todayUtc();
  const limit = limitParam(req.page?.limit ?? 0);
  const filters = { office, region, date };
  const after = ctx.cursors.decode(req.page?.cursor ?? '', filters);

  const offices = await officesFor(ctx, office, region);
  const visible = offices.filter((o) => nodeVisible(principal, o));
  const terms = (await Promise.all(visible.map((o) => ctx.store.edges(o.slug, 'in', 'HOLDS'))))
    .flat()
    .filter((t) => inForce(t, date))
    .map((t) => ({ term: t, key: `${t.to}\u0000${t.from}\u0000${t.key}` }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const start = after === undefined ? 0 : terms.findIndex((t) => t.key > after);
  const slice = start < 0 ? [] : terms.slice(start, start + limit);
  const more = start >= 0 && start + limit < terms.length;
  const related = await Related.load(ctx.store, slice.flatMap(({ term }) => [term.from, String(term.data['party'] ?? '')]));
  const byOffice = new Map(visible.map((o) => [o.slug, o]));
  const data: Officeholder[] = slice.map(({ term }) => {
    const party = partyView(related.get(String(term.data['party'] ?? ''), 'party'));
    return {
      person: personView(related.get(term.from, 'person'), term.from, ''),
      office: officeView(byOffice.get(term.to), term.to),
      start: String(term.data['start'] ?? ''),
      end: String(term.data['end'] ?? ''),
      ...(party === undefined ? {} : { party }),
    };
  });
  return { data, nextCursor: more ? ctx.cursors.encode(slice[slice.length - 1]!.key, filters) : '' };
}

async function officesFor(ctx: QueryContext, office: string, region: string): Promise<NodeDoc<'office'>[]> {
  if (office !== '') {
    const node = await ctx.store.getNode<'office'>(office);
    return node?.kind === 'office' && (region === '' || node.data.region === region) ? [node] : [];
  }
  return (await queryAll(ctx.store, { kind: 'office', match: { region: [region] } })) as NodeDoc<'office'>[];
}

/** A term is in force from its start through its end day (an empty end: open-ended). */
function inForce(term: EdgeDoc, date: string): boolean {
  const start = String(term.data['start'] ?? '');
  const end = String(term.data['end'] ?? '');
  return (start === '' || start <= date) && (end === '' || date <= end);
}
