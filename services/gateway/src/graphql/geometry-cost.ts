import { QueryTooComplexError, ResponseTooLargeError } from '@civicgraph/kit';
import type { GraphQLContext } from './context.js';
import { megabytes } from '../http/respond.js';

/**
 * Outlines are costed by what they return, as they resolve: the analysis before the
 * operation runs cannot know a region's size, so each `boundary` adds a cost point per
 * this many vertices (at the simplification asked for) to the operation's cost, and its
 * bytes to the answer's size. Past the plan's cost ceiling the field is refused as
 * `query_too_complex`, past its response ceiling as `response_too_large`; the route names
 * the field's response path in `field` (formatError: a subschema sees its own path, not
 * the caller's aliases).
 */
export const VERTICES_PER_COST_POINT = 1_000;

/** What an operation has spent so far, and may spend (kit policy's budget for the key). */
export interface Spend {
  cost: number;
  maxCost: number;
  bytes: number;
  maxBytes: number;
  /** The outline fetch in flight: outlines are fetched one after another, so none is fetched once a ceiling is passed. */
  outlines: Promise<unknown>;
}

/**
 * Fetches an outline after the operation's earlier ones, and not at all once they passed a
 * ceiling; charges it (chargeGeometry) before handing it on.
 */
export function fetchOutline<T extends { vertices: number; geometryJson: string }>(
  ctx: GraphQLContext,
  simplify: number,
  fetch: () => Promise<T>,
): Promise<T> {
  const spend = ctx.spend;
  const next = spend.outlines
    .catch(() => undefined)
    .then(async () => {
      if (spend.cost > spend.maxCost || spend.bytes > spend.maxBytes) {
        throw new ResponseTooLargeError(
          `Earlier outlines in this answer passed what an answer to this key may hold (${megabytes(spend.maxBytes)}, cost ${spend.maxCost}). Ask for fewer outlines or a larger simplify.`,
        );
      }
      const b = await fetch();
      chargeGeometry(ctx, b.vertices, b.geometryJson.length, simplify);
      return b;
    });
  spend.outlines = next;
  return next;
}

/** Charges one resolved outline to the operation; throws when it passes a ceiling. */
function chargeGeometry(ctx: GraphQLContext, vertices: number, bytes: number, simplify: number): void {
  const spend = ctx.spend;
  spend.cost += Math.ceil(vertices / VERTICES_PER_COST_POINT);
  if (spend.cost > spend.maxCost) {
    throw new QueryTooComplexError(
      `With this outline (${vertices} vertices at simplify=${simplify}), this query costs ${spend.cost}, above this key's ceiling of ${spend.maxCost}. Ask for fewer outlines or a larger simplify.`,
    );
  }
  spend.bytes += bytes;
  if (spend.bytes > spend.maxBytes) {
    throw new ResponseTooLargeError(
      `With this outline (${megabytes(bytes)} at simplify=${simplify}), this answer's outlines pass ${megabytes(spend.maxBytes)}, the most an answer to this key may hold. Ask for fewer outlines or a larger simplify.`,
    );
  }
}
