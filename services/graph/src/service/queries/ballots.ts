import {
  type BallotAnswer,
  type BallotRequest,
  type BallotResponse,
  type BallotsRequest,
  type BallotsResponse,
} from '@civicgraph/protos/civic/graph/v1/graph';
import { CivicError, InvalidParameterError } from '@civicgraph/kit';

/** Most ballots one Ballots call may carry. */
export const MAX_BATCH_BALLOTS = 1000;

/**
 * Many ballots for one caller, each answered by `one` exactly as Ballot answers it alone:
 * a ballot's own bad input fails only that ballot; any other failure fails the call.
 */
export async function answerBallots(
  request: BallotsRequest,
  one: (req: BallotRequest) => Promise<BallotResponse>,
): Promise<BallotsResponse> {
  const n = request.ballots.length;
  if (n === 0 || n > MAX_BATCH_BALLOTS)
    throw new InvalidParameterError('ballots', `ballots must hold 1 to ${MAX_BATCH_BALLOTS} ballots, got ${n}.`);
  const answers = await Promise.all(
    request.ballots.map(async (req): Promise<BallotAnswer> => {
      try {
        return { ballot: await one(req) };
      } catch (err) {
        if (!(err instanceof CivicError)) throw err;
        return { error: { type: err.type, message: err.message, field: err.field ?? '' } };
      }
    }),
  );
  return { answers };
}
