import type { PageRequest } from '@civicgraph/protos/civic/graph/v1/graph';
import { P, type Params } from './schema/params.js';

/** The parameters every list endpoint takes besides its filters. */
export const LIST_PARAMS = [P.minConfidence, P.cursor, P.limit] as const;

/** The paging part of a list request. */
export function pageOf(params: Params): PageRequest {
  return { cursor: (params['cursor'] as string | undefined) ?? '', limit: params['limit'] as number };
}

/** The list envelope of DESIGN: `{data, next_cursor}`, null on the last page. */
export function listBody<T>(data: readonly T[], nextCursor: string) {
  return { data, next_cursor: nextCursor === '' ? null : nextCursor };
}

export const str = (params: Params, name: string): string => (params[name] as string | undefined) ?? '';
