import type { CivicEvent } from './catalogue.js';
import { contextFrom, currentTraceHeaders, inSpan, SpanKind, type TraceHeaders } from '../tracing/spans.js';
import { tracer } from '../tracing/tracing.js';

/** Which bus carried an event: `messaging.system` of its spans. */
export type BusSystem = 'nats' | 'memory' | 'local-stream';

/**
 * Publishes in a PRODUCER span, child of the current span (the request that changed
 * something), handing `send` the trace headers to store with the message: the consumer's
 * span continues the trace from them. With tracing off `send` gets none and no span is made.
 */
export function publishing<T>(
  system: BusSystem,
  subject: string,
  send: (headers: TraceHeaders | undefined) => Promise<T>,
): Promise<T> {
  if (tracer() === undefined) return send(undefined);
  return inSpan(
    {
      name: `publish ${subject}`,
      kind: SpanKind.PRODUCER,
      attributes: {
        'messaging.system': system,
        'messaging.destination.name': subject,
        'messaging.operation.type': 'send',
      },
    },
    () => send(currentTraceHeaders()),
  );
}

/**
 * Runs one delivery of `event` to a handler in a CONSUMER span, child of the PRODUCER span
 * its message's headers name, or the root of a trace of its own when it brought none (a
 * publisher with tracing off) — never of whatever was current when the subscription began.
 */
export function consuming(
  system: BusSystem,
  event: CivicEvent,
  headers: TraceHeaders | undefined,
  attempt: number,
  handle: () => Promise<void> | void,
): Promise<void> | void {
  if (tracer() === undefined) return handle();
  return inSpan(
    {
      name: `process ${event.subject}`,
      kind: SpanKind.CONSUMER,
      parent: contextFrom(headers ?? {}),
      attributes: {
        'messaging.system': system,
        'messaging.destination.name': event.subject,
        'messaging.message.id': event.id,
        'messaging.operation.type': 'process',
        'civic.delivery.attempt': attempt,
      },
    },
    handle,
  );
}
