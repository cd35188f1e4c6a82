import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import { errorFromType, InternalError } from '@civicgraph/kit';

/** Why one request of a batch was not answered: the typed error the single call would have returned. */
export interface ItemError {
  type: string;
  message: string;
  field: string;
}

/** One request's answer from a batched call: its value, or its own error. */
export type Outcome<Res> = { value: Res; error?: undefined } | { error: ItemError };

/** Sends one batch of one caller's requests upstream as one unary call; one outcome per request, in order. */
export type SendBatch<Req, Res> = (principal: Principal, requests: Req[]) => Promise<Outcome<Res>[]>;

interface Pending<Req, Res> {
  request: Req;
  resolve: (res: Res) => void;
  reject: (err: unknown) => void;
}

/**
 * Coalesces concurrent requests into unary calls that carry many (DistrictsAtPoints,
 * Ballots). Requests made by the same principal in one event-loop turn (every request the
 * HTTP parser read in one poll) leave together on the next `setImmediate`, or as soon as
 * `maxBatch` of them wait; so an idle edge adds no delay and a busy one pays one gRPC call
 * per turn instead of one per request. Each caller gets back exactly what the single call
 * would have answered it: its own value, or its own typed error; a failed call fails every
 * request it carried.
 *
 * Batches are per principal object (the principal cache hands out one object per key), so
 * one call never mixes callers whose entitlements differ.
 */
export class TurnBatcher<Req, Res> {
  private queues = new Map<Principal, Pending<Req, Res>[]>();
  private scheduled = false;

  constructor(
    private readonly send: SendBatch<Req, Res>,
    private readonly maxBatch: number,
  ) {
    if (!Number.isInteger(maxBatch) || maxBatch < 1)
      throw new RangeError(`maxBatch must be a positive integer, got ${maxBatch}`);
  }

  ask(principal: Principal, request: Req): Promise<Res> {
    return new Promise((resolve, reject) => {
      let queue = this.queues.get(principal);
      if (queue === undefined) {
        queue = [];
        this.queues.set(principal, queue);
      }
      queue.push({ request, resolve, reject });
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

  private dispatch(principal: Principal, queue: Pending<Req, Res>[]): void {
    this.send(
      principal,
      queue.map((p) => p.request),
    ).then(
      (outcomes) => settle(queue, outcomes),
      (err: unknown) => {
        for (const p of queue) p.reject(err);
      },
    );
  }
}

function settle<Req, Res>(queue: Pending<Req, Res>[], outcomes: Outcome<Res>[]): void {
  if (outcomes.length !== queue.length) {
    const err = new InternalError(`upstream answered ${outcomes.length} of ${queue.length} requests.`);
    for (const p of queue) p.reject(err);
    return;
  }
  queue.forEach((p, i) => {
    const outcome = outcomes[i]!;
    if (outcome.error === undefined) {
      p.resolve(outcome.value);
    } else {
      const { type, message, field } = outcome.error;
      p.reject(errorFromType(type, message, field === '' ? {} : { field }));
    }
  });
}
