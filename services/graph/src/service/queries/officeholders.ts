import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { ListOfficeholdersRequest, OfficeholderPage } from '@civicgraph/protos/civic/graph/v1/graph';
import { InvalidParameterError, nodeVisible, todayUtc } from '@civicgraph/kit';
import type { EdgeDoc, NodeDoc } from '../../model/nodes.js';
import { dateParam, limitParam, slugParam } from '../params.js';
import { Related } from '../related.js';
import { officeholderView } from '../views.js';
import type { QueryContext } from './context.js';
import { officesServing, servedArea, servesArea } from './offices-serving.js';

/**
 * Who holds an office on a date: HOLDS terms (person → office, data start/end/party) in
 * force that day, for one office, or for every office serving a region and the regions
 * within it (offices-serving.ts), within the caller's states and tiers. Terms are few per
 * office, so the page is cut from the sorted terms; the cursor is the last term's key.
 */
export async function listOfficeholders(
  ctx: QueryContext,
  principal: Principal,
  req: ListOfficeholdersRequest,
): Promise<OfficeholderPage> {
  const office = slugParam('office', req.office, 'office');
  const region = slugParam('region', req.region, 'region');
  if (office === '' && region === '') throw new InvalidParameterError('office', 'Name an office or a region.');
  const date = dateParam('date', req.date) || todayUtc();
  const limit = limitParam(req.page?.limit ?? 0);
  const filters = { office, region, date };
  const after = ctx.cursors.decode(req.page?.cursor ?? '', filters);

  const visible = (await officesFor(ctx, principal, office, region)).filter((o) => nodeVisible(principal, o));
  const terms = (await Promise.all(visible.map((o) => ctx.store.edges(o.slug, 'in', 'HOLDS'))))
    .flat()
    .filter((t) => inForce(t, date))
    .map((t) => ({ term: t, key: `${t.to}\u0000${t.from}\u0000${t.key}` }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const start = after === undefined ? 0 : terms.findIndex((t) => t.key > after);
  const slice = start < 0 ? [] : terms.slice(start, start + limit);
  const more = start >= 0 && start + limit < terms.length;
  const related = await Related.load(
    ctx.store,
    slice.flatMap(({ term }) => [term.from, String(term.data['party'] ?? '')]),
  );
  const byOffice = new Map(visible.map((o) => [o.slug, o]));
  return {
    data: slice.map(({ term }) => officeholderView(term, byOffice.get(term.to), related, principal)),
    nextCursor: more ? ctx.cursors.encode(slice[slice.length - 1]!.key, filters) : '',
  };
}

/** One office (when it serves `region`, if named too), or every office serving the region. */
async function officesFor(
  ctx: QueryContext,
  principal: Principal,
  office: string,
  region: string,
): Promise<NodeDoc<'office'>[]> {
  const area = region === '' ? undefined : await servedArea(ctx.store, region);
  if (office === '') return officesServing(ctx.store, principal, area!);
  const node = await ctx.store.getNode<'office'>(office);
  return node?.kind === 'office' && (area === undefined || servesArea(area, node)) ? [node] : [];
}

/** A term is in force from its start through its end day (an empty end: open-ended). */
function inForce(term: EdgeDoc, date: string): boolean {
  const start = String(term.data['start'] ?? '');
  const end = String(term.data['end'] ?? '');
  return (start === '' || start <= date) && (end === '' || date <= end);
}
