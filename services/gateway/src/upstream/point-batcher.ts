import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type {
  DistrictsAtPointRequest,
  DistrictsAtPointResponse,
  DistrictsAtPointsResponse,
} from '@civicgraph/protos/civic/geo/v1/geo';
import { errorFromType, InternalError } from '@civicgraph/kit';

/** Sends one batch of one caller's points upstream (DistrictsAtPoints). */
export type SendBatch = (principal: Principal, points: DistrictsAtPointRequest[]) => Promise<DistrictsAtPointsResponse>;

interface Pending {
  point: DistrictsAtPointRequest;
  resolve: (res: DistrictsAtPointResponse) => void;
  reject: (err: unknown) => void;
}

/**
 * Coalesces concurrent point lookups into DistrictsAtPoints calls. Lookups made by the same
 * principal in one event-loop turn (every request the HTTP parser read in one poll) leave
 * together on the next `setImmediate`, or as soon as `maxBatch` of them wait; so an idle
 * edge adds no delay and a busy one pays one gRPC hop per turn instead of one per request.
 * Each caller gets back exactly what DistrictsAtPoint would have answered it: its own
 * regions, or its own typed error; a failed call fails every lookup it carried.
 *
 * Batches are per principal object (the principal cache hands out one object per key), so
 * one call never mixes callers whose entitlements differ.
 */
export class PointBatcher {
  private queues = new Map<Principal, Pending[]>();
  private scheduled = false;

  constructor(
    private readonly send: SendBatch,
    private readonly maxBatch: number,
  ) {
    if (!Number.isInteger(maxBatch) || maxBatch < 1)
      throw new RangeError(`maxBatch must be a positive integer, got ${maxBatch}`);
  }

  lookup(principal: Principal, point: DistrictsAtPointRequest): Promise<DistrictsAtPointResponse> {
    return new Promise((resolve, reject) => {
      let queue = this.queues.get(principal);
      if (queue === undefined) {
        queue = [];
        this.queues.set(principal, queue);
      }
      queue.push({ point, resolve, reject });
      if (queue.length >= this.maxBatch) {
        this.queues.delete(principal);
        this.dispatch(principal, queue);
      } else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.flush);
      }
    });
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    const queues = this.queues;
    this.queues = new Map();
    for (const [principal, queue] of queues) this.dispatch(principal, queue);
  };

  private dispatch(principal: Principal, queue: Pending[]): void {
    this.send(
      principal,
      queue.map((p) => p.point),
    ).then(
      (res) => settle(queue, res),
      (err: unknown) => {
        for (const p of queue) p.reject(err);
      },
    );
  }
}

function settle(queue: Pending[], res: DistrictsAtPointsResponse): void {
  if (res.answers.length !== queue.length) {
    const err = new InternalError(`geo answered ${res.answers.length} of ${queue.length} points.`);
    for (const p of queue) p.reject(err);
    return;
  }
  queue.forEach((p, i) => {
    const answer = res.answers[i]!;
    if (answer.error === undefined) {
      p.resolve({ regions: answer.regions, datasetVersion: res.datasetVersion });
    } else {
      const { type, message, field } = answer.error;
      p.reject(errorFromType(type, message, field === '' ? {} : { field }));
    }
  });
}
