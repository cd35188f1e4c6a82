import type { NatsConnection } from '@nats-io/nats-core';
import { nanos } from '@nats-io/nats-core';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  JetStreamApiError,
  RetentionPolicy,
  type ConsumerMessages,
  type JetStreamClient,
} from '@nats-io/jetstream';
import type { Logger } from '@civicgraph/kit';

/** What a worker made of a job it was handed: finished with (either way), or to be handed out again later. */
export type JobOutcome = 'done' | 'retry';

/** Options for {@link JetStreamJobQueue}. */
export interface JetStreamJobQueueOptions {
  /** The deployment's subject word: one queue per environment. */
  word: string;
  logger: Logger;
  /** How long a handed-out job may go without a sign of life before another worker gets it (ms). Default 60 s. */
  ackWaitMs?: number;
  /** Delay before a job answered `retry` is handed out again (ms). Default 5 s. */
  retryDelayMs?: number;
}

/**
 * Export jobs on a JetStream work queue (with NATS; the embedded mode's worker polls its job
 * store instead): a work-queue stream of job ids and one durable pull consumer every worker
 * shares, so each job goes to one worker at a time. A worker signals progress while it runs
 * (`working`, within the ack wait) and acknowledges when done; a worker that dies stops
 * signalling, and after the ack wait the job is handed to another — restart-safe without a
 * lease of its own (the job store's lease still decides who may write the job).
 */
export class JetStreamJobQueue {
  private messages: ConsumerMessages | undefined;
  private loop: Promise<void> = Promise.resolve();

  private constructor(
    private readonly js: JetStreamClient,
    private readonly stream: string,
    private readonly subject: string,
    private readonly o: JetStreamJobQueueOptions,
  ) {}

  static async open(nc: NatsConnection, o: JetStreamJobQueueOptions): Promise<JetStreamJobQueue> {
    const stream = `CIVIC_EXPORT_JOBS_${o.word.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}`;
    // Not under `civic.>`: the events stream captures that, and subjects may not overlap.
    const subject = `exportjobs.${o.word}`;
    const jsm = await jetstreamManager(nc);
    try {
      await jsm.streams.add({ name: stream, subjects: [subject], retention: RetentionPolicy.Workqueue });
    } catch (err) {
      if (!(err instanceof JetStreamApiError)) throw err; // exists already (another replica made it)
    }
    try {
      await jsm.consumers.add(stream, {
        durable_name: 'export-workers',
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ack_wait: nanos(o.ackWaitMs ?? 60_000),
        max_deliver: 20,
      });
    } catch (err) {
      if (!(err instanceof JetStreamApiError)) throw err;
    }
    return new JetStreamJobQueue(jetstream(nc), stream, subject, o);
  }

  /** Hands a job out (again): a job id queued twice within two minutes is one message (its id is the message id). */
  async enqueue(id: string): Promise<void> {
    await this.js.publish(this.subject, id, { msgID: id });
  }

  /** Hands jobs to `run`, one at a time, until `stop`. */
  async consume(run: (id: string, working: () => void) => Promise<JobOutcome>): Promise<void> {
    const consumer = await this.js.consumers.get(this.stream, 'export-workers');
    const messages = await consumer.consume({ max_messages: 1 });
    this.messages = messages;
    this.loop = (async () => {
      for await (const msg of messages) {
        const id = msg.string();
        try {
          const outcome = await run(id, () => msg.working());
          if (outcome === 'done') msg.ack();
          else msg.nak(this.o.retryDelayMs ?? 5_000);
        } catch (err) {
          this.o.logger.error({ err, export: id }, 'export job failed in the worker; handing it out again');
          msg.nak(this.o.retryDelayMs ?? 5_000);
        }
      }
    })();
  }

  /** Stops taking jobs; the one in hand finishes first. */
  async stop(): Promise<void> {
    await this.messages?.close();
    await this.loop;
  }
}
