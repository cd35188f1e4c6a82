import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { ElectionDatePage, ListElectionDatesRequest } from '@civicgraph/protos/civic/graph/v1/graph';
import { InvalidParameterError, todayUtc } from '@civicgraph/kit';
import type { NodeDoc } from '../../model/nodes.js';
import { dateParam, stateParam } from '../params.js';
import { electionDateView } from '../views.js';
import { scopedPage, type QueryContext } from './context.js';

/** Election days in a state from `from` (default today) to `to` (default unbounded), soonest first. */
export async function listElectionDates(
  ctx: QueryContext,
  principal: Principal,
  req: ListElectionDatesRequest,
): Promise<ElectionDatePage> {
  const state = stateParam('state', req.state, true);
  const from = dateParam('from', req.from) || todayUtc();
  const to = dateParam('to', req.to);
  if (to !== '' && to < from) throw new InvalidParameterError('to', `to (${to}) is before from (${from}).`);
  const filters = { state, from, to };
  const { nodes, nextCursor } = await scopedPage(
    ctx,
    principal,
    { kind: 'election', states: [state], dateFrom: from, ...(to === '' ? {} : { dateTo: to }), order: 'date' },
    req.page,
    filters,
  );
  return { data: (nodes as NodeDoc<'election'>[]).map(electionDateView), nextCursor };
}
